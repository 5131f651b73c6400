# trick: the file itself is regular, but a directory on its path is a symlink into solutions/ (e.g. an unpacked submission archive with a link in it)
# expect: input_error
# exercise: EX-11-01
# make: symlinked-dir solutions/EX-11-01
# name: retry_policy_probe.py
