# trick: a file with nothing but comments: runs, prints nothing, tests nothing
# expect: failed
# exercise: EX-11-01
