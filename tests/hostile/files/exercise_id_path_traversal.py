# trick: an exercise id that is a path into solutions/ (../../solutions/EX-11-01)
# expect: input_error
# exercise: ../../solutions/EX-11-01
print("RetryableTaskError 0 True 5 False")
