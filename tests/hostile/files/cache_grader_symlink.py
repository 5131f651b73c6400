# trick: the course's .grader is a symlink to a folder elsewhere, so the grader's cache write would land (as root) wherever it points
# expect: failed
# exercise: EX-11-01
# course: grader-link
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
