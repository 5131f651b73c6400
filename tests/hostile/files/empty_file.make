# trick: a zero-byte submission
# expect: failed|input_error
# exercise: EX-11-01
# make: empty
# name: retry_policy_probe.py
