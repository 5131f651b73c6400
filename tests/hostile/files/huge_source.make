# trick: a 10 MB source file (a valid no-op probe padded with comments)
# expect: input_error
# exercise: EX-11-01
# make: huge 10
# name: retry_policy_probe.py
