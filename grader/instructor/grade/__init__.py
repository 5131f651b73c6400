"""The official grade of one (student, exercise): the one place a score is computed.

Pure: it imports nothing but the standard library (no database, no web framework, nothing
else of the instructor wing), so every view can afford it and a test can state it::

    from grader.instructor.grade import Graded, Decided, Late, grade
    g = grade(Graded(...), decided=Decided(...) or None, late=Late(0.2) or None)
    g.state, g.raw_score, g.decision, g.penalty, g.final_score, g.released()

The review matrix, the submission page, the queue, feedback pages, every export (canvas,
moodle, csv, json) and ``grader stats`` read a ``Grade``; none computes a score.
The rules are in ``grade.py``'s docstring and in the README ("The grade, once").
"""

from grader.instructor.grade.grade import (
    STUDENT_CODE_ERRORS,
    Decided,
    Grade,
    Graded,
    Late,
    State,
    grade,
)

__all__ = ["STUDENT_CODE_ERRORS", "Decided", "Grade", "Graded", "Late", "State", "grade"]
