# trick: an exercise id carrying terminal controls (OSC window title, clear screen, bidi override); nothing may echo them back
# expect: input_error
# exercise: EX-11-01\x1b]0;pwned\x07\x1b[2J\u202e
print("RetryableTaskError 0 True 5 False")
