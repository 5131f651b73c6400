# trick: ReDoS on EX-11-02: a 2 MiB answer of "retry 重试" with no sentence end (the whole file is one sentence)
# expect: needs_review
# exercise: EX-11-02
# make: repeat 2097000 retry重试\x20
# name: answer.md
