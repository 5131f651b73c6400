# trick: print the expected table, then sys.exit(0) without ever calling the policy
# expect: failed
# exercise: EX-11-01
import sys

print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
sys.exit(0)
