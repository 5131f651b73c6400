# trick: ReDoS on the old EX-12-02 "crash…between" pattern: 10 KB of "crash" with no space (took 58 s)
# expect: needs_review
# exercise: EX-12-02
# make: repeat 10240 crash
# name: answer.md
