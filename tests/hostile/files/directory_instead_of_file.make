# trick: a directory where the submission file should be
# expect: input_error
# exercise: EX-11-01
# make: directory
# name: retry_policy_probe.py
