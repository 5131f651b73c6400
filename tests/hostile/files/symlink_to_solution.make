# trick: hand in a symlink to the reference solution (solutions/EX-11-01/retry_policy_probe.py) instead of a file
# expect: input_error
# exercise: EX-11-01
# make: symlink solutions/EX-11-01/retry_policy_probe.py
# name: retry_policy_probe.py
