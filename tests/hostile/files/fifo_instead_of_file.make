# trick: a named pipe with the submission's name (opening it for reading blocks forever)
# expect: input_error
# exercise: EX-11-01
# make: fifo
# name: retry_policy_probe.py
