# trick: hand in a symlink to /dev/zero (an endless read if the grader opens it blindly)
# expect: input_error
# exercise: EX-11-01
# make: symlink /dev/zero
# name: retry_policy_probe.py
