# trick: print the table, then segfault the interpreter with ctypes.string_at(0)
# expect: failed
# exercise: EX-11-01
import ctypes
import sys

print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
sys.stdout.flush()
ctypes.string_at(0)
