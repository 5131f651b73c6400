# trick: ReDoS and stuffing on EX-12-02: 2 MiB of "crash between" (every rubric word of one concept, no sentence)
# expect: needs_review
# exercise: EX-12-02
# make: repeat 2097000 crash between\x20
# name: answer.md
