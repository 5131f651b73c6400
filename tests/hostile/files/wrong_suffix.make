# trick: a code exercise handed in as a .txt file containing a valid probe
# expect: input_error
# exercise: EX-11-01
# make: copy-solution
# name: retry_policy_probe.txt
