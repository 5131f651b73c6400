# trick: a notebook whose JSON nests 200000 levels deep (RecursionError in a naive parser)
# expect: input_error
# exercise: EX-11-01
# make: nested-json 200000
# name: retry_policy_probe.ipynb
