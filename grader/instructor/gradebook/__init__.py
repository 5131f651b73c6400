"""The gradebook: every grading of a class, idempotent and resumable (see ``models``)::

from grader.instructor.gradebook import Gradebook
with Gradebook("sqlite:///gradebook.db") as book:      # migrations applied on open
    book.record(entry)                                  # False: key already recorded
    for result in book.results(status="needs_review"):  # ResultView dataclasses
        ...
    book.set_review("alice", "EX-11-02", final_score=4, comment="...")
"""

from grader.instructor.gradebook.entries import GradingEntry, GradingKey
from grader.instructor.gradebook.service import Gradebook
from grader.instructor.gradebook.views import CheckView, ResultView, ReviewView

__all__ = ["CheckView", "Gradebook", "GradingEntry", "GradingKey", "ResultView", "ReviewView"]
