# trick: ReDoS on the old EX-11-02 "retr\w*…" pattern: 10 KB of "retr" with no space (was quadratic)
# expect: needs_review
# exercise: EX-11-02
# make: repeat 10240 retr
# name: answer.md
