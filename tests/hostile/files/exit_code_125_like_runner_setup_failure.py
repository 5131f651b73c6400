# trick: exit with the runner's own "setup failed" status (125) so the grader blames itself (exit 3)
# expect: failed
# exercise: EX-11-01
import os

print("RetryableTaskError 0 True 5 False", flush=True)
os._exit(125)
