# trick: a syntax error on line 5 (the grader must name the line, not crash or run anything)
# expect: input_error
# exercise: EX-11-01
print("RetryableTaskError 0 True 5 False")
def broken(:
    pass
