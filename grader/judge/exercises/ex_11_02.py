"""EX-11-02 [prose]: three timings of the same event arriving again.

The rubric (template sections, concepts with their patterns and zh/en summaries) is the
answer key in ``grader/private/EX-11-02.toml``, which the student copy leaves out: there
the answer is checked for length and then waits for the instructor. See
``grader.judge.exercises.answer_key``.
"""

from __future__ import annotations

from grader.judge.exercises.spec import ProseExercise

#: points: what the answer is worth where the answer key is absent (the student copy),
#: the sum of the key's concept points (a test keeps the two equal).
EXERCISE = ProseExercise(id="EX-11-02", student_file="answer.md", points=5.0)
