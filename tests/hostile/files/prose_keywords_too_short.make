# trick: a prose answer that is nothing but rubric keywords, too short to be an answer (may not reach "needs review")
# expect: failed
# exercise: EX-11-02
# make: write ack 重投 receipt 幂等 retry countdown\n
# name: answer.md
