# trick: lift the recursion limit and recurse without end (3.11 keeps Python frames on the heap, so it runs into the memory or wall limit rather than the C stack)
# expect: failed
# exercise: EX-11-01
# timeout: yes
import sys

sys.setrecursionlimit(10**7)


def down(n):
    return down(n + 1) + 1


print("RetryableTaskError 0 True 5 False", flush=True)
down(0)
