# trick: --path names a file that does not exist
# expect: input_error
# exercise: EX-11-01
# make: missing
# name: retry_policy_probe.py
