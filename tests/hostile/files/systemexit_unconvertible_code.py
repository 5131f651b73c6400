# trick: SystemExit whose code is an int subclass with hostile operators, raised from the top level after the table
# expect: failed
# exercise: EX-11-01
class HostileCode(int):
    def __and__(self, other):
        raise KeyboardInterrupt("no exit status for you")

    def __str__(self):
        raise SystemExit(0)


print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True", flush=True)
raise SystemExit(HostileCode(0))
