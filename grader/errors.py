"""Every error the grader reports on purpose, and the exit codes: the one place they are written.

Exit codes of ``grader`` (every command, ``grader --help`` shows this block)::

    0  every check passed, or a prose answer is awaiting instructor review
    1  some check failed (an untouched starter is "not started": failed); submit --verify:
       the manifest names another student or other exercises than the zip holds
    2  usage or input error: unknown exercise (the closest id is suggested), missing,
       unreadable or linked file, syntax error (with its line), broken notebook or
       solution marker, unknown or unavailable isolation mode; instructor commands: a
       folder that is not a class (grade --force), a gradebook the grader did not create
       or (read-only commands) that does not exist, a bad roster, course.toml, received-at
       file, time or column mapping; submit --to: the inbox refused the hand-in (token,
       size, rate, a zip grade would refuse) or cannot be reached
    3  internal grader error (a bug or a broken installation: please report it); grade
       never exits 3 for one student's submission, which gets an error row instead
    130  interrupted (Ctrl-C or SIGTERM): what was recorded stays; run it again to finish

Exception hierarchy (each class carries its exit code)::

    GraderError                         (any error the grader reports on purpose)
    ├── UsageError                      exit 2: the command or its input must change
    │   ├── CourseRootNotFound          no exercises/ folder here or above
    │   ├── UnknownExercise             no such exercise id (suggests the closest one)
    │   └── SubmissionError             the student's file cannot be graded as it is
    │       ├── SubmissionNotFound
    │       ├── SubmissionUnreadable    not UTF-8, a directory, no permission
    │       ├── UnsupportedSubmission   wrong file type for this exercise
    │       ├── StudentSyntaxError      the code does not compile (names the line)
    │       └── InvalidNotebook         not a valid .ipynb document
    ├── VerifyRefused                   exit 1: submit --verify found a manifest that lies
    ├── InternalError                   exit 3: a bug or a broken installation; please report
    │   └── RunnerFailure               the sandbox could not run the code at all
    └── Interrupted                     exit 130: a batch stopped by Ctrl-C / SIGTERM

A verdict is not an exception: a report's status gives 0 (passed, needs_review) or 1
(failed), see ``exit_code_for``. Each error carries a catalogue message id and its
parameters, so it is shown in the student's language and always says what to do next.
"""

from __future__ import annotations

from collections.abc import Mapping

EXIT_PASSED = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130

#: The exit-code block of this module's docstring, for ``--help`` texts.
EXIT_CODES = "exit codes:\n" + (__doc__ or "").partition("::\n\n")[2].partition("\n\n")[0]


def exit_code_for(status: str) -> int:
    """A report's status as an exit code: passed and needs_review 0, anything else 1."""
    return EXIT_PASSED if status in ("passed", "needs_review") else EXIT_FAILED


ParamValue = str | int | float | None


class GraderError(Exception):
    """Base class: ``message_id`` + ``params`` are rendered through the catalogues."""

    exit_code: int = EXIT_INTERNAL
    message_id: str = "error.internal"

    def __init__(self, message_id: str | None = None, **params: ParamValue) -> None:
        if message_id is not None:
            self.message_id = message_id
        self.params: Mapping[str, ParamValue] = dict(params)
        super().__init__(self.message_id, dict(params))

    def __str__(self) -> str:
        """The id and parameters, for logs and tracebacks; people see it rendered in their
        language by the front end (``grader.render.catalog.render_message``)."""
        params = ", ".join(f"{key}={value!r}" for key, value in self.params.items())
        return f"{self.message_id}({params})"


class UsageError(GraderError):
    exit_code = EXIT_USAGE
    message_id = "error.usage"


class CourseRootNotFound(UsageError):
    message_id = "error.no_course_root"


class UnknownExercise(UsageError):
    message_id = "error.unknown_exercise"


class SubmissionError(UsageError):
    message_id = "error.submission"


class SubmissionNotFound(SubmissionError):
    message_id = "error.submission_not_found"


class SubmissionUnreadable(SubmissionError):
    message_id = "error.submission_unreadable"


class UnsupportedSubmission(SubmissionError):
    message_id = "error.unsupported_submission"


class StudentSyntaxError(SubmissionError):
    message_id = "error.syntax"


class InvalidNotebook(SubmissionError):
    message_id = "error.invalid_notebook"


class InternalError(GraderError):
    exit_code = EXIT_INTERNAL
    message_id = "error.internal"


class RunnerFailure(InternalError):
    message_id = "error.runner"


class Interrupted(GraderError):
    exit_code = EXIT_INTERRUPTED
    message_id = "error.interrupted"


class VerifyRefused(GraderError):
    exit_code = EXIT_FAILED
    message_id = "submit.manifest_other_student"
