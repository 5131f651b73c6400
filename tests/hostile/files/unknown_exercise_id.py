# trick: an exercise id that does not exist
# expect: input_error
# exercise: EX-99-99
print("RetryableTaskError 0 True 5 False")
