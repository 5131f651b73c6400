# trick: hand in a symlink to /etc/passwd (the grader must not read, echo or run it)
# expect: input_error
# exercise: EX-11-01
# make: symlink /etc/passwd
# name: retry_policy_probe.py
