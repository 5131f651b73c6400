"""``grader``: check exercises from the command line.

    grader check EX-12-01 [--path FILE] [--root DIR] [--lang zh|en] [--json]
    grader list [--root DIR] [--lang zh|en] [--json] [--no-run]
    grader submit [--student ID] [--out FILE] | --verify FILE

Each student's subcommand is a module of ``grader.frontends.commands`` (``register`` +
``run``); the instructor's (grade, review, export, ...) are the instructor wing's, found
through one plugin hook (``INSTRUCTOR_PLUGIN``) where the wing is installed. This module only
registers them and dispatches. Exit codes: see ``grader.errors`` (the one place they are
written down). No command ever ends with a Python traceback.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported in main(), after a check's master process is on its way
    import argparse
    from types import ModuleType

    from grader.errors import GraderError

#: The student's subcommands, in ``--help`` order: modules of ``grader.frontends.commands``.
COMMAND_NAMES = ("check", "list", "submit")
#: The one place the student side reaches the instructor wing: a plugin looked up by name,
#: never imported (``lint-imports`` checks that nothing here imports ``grader.instructor``).
#: Its ``command_modules()`` come after the student's in ``--help``; in a student copy (no
#: ``grader/instructor/``) or an install without the ``instructor`` extra there are none.
INSTRUCTOR_PLUGIN = "grader.instructor.entrypoints"


#: Commands run by the course staff: an internal error there is not "report it to the staff".
STUDENT_COMMANDS = frozenset(COMMAND_NAMES)
_STAFF_WORDED = frozenset({"error.internal", "error.runner"})


def commands(*, student_only: bool = False) -> tuple[ModuleType, ...]:
    """The student's command modules, then the instructor wing's (when it is installed)."""
    import importlib

    student = tuple(
        importlib.import_module(f"grader.frontends.commands.{name}") for name in COMMAND_NAMES
    )
    plugin = None if student_only else instructor_plugin()
    return student + (() if plugin is None else tuple(plugin.command_modules()))


def instructor_plugin() -> ModuleType | None:
    """The instructor wing's entry points, or None where the wing is not shipped."""
    import importlib

    try:
        return importlib.import_module(INSTRUCTOR_PLUGIN)
    except ModuleNotFoundError as error:
        if error.name in ("grader.instructor", INSTRUCTOR_PLUGIN):
            return None
        raise


def _epilog() -> str:
    """The exit codes, and where the instructor's commands are when only their extra is
    missing (a student copy has none to mention)."""
    from grader.errors import EXIT_CODES

    plugin = instructor_plugin()
    missing = () if plugin is None else tuple(plugin.missing_extra())
    if plugin is None or not missing:
        return EXIT_CODES
    return (
        f"{EXIT_CODES}\n\ninstructor commands (grade, review, export, ...): not installed "
        f"({', '.join(missing)} missing); install them with {plugin.INSTALL_HINT}"
    )


def build_parser(*, student_only: bool = False) -> argparse.ArgumentParser:
    """Every command's parser; ``student_only`` when a student's command was named (it then
    never looks for the instructor wing: reading its extra's metadata costs 0.1-0.2 s)."""
    import argparse

    from grader.errors import EXIT_CODES

    parser = argparse.ArgumentParser(
        prog="grader",
        description="Check ticketflow course exercises (lessons 11-13).",
        epilog=EXIT_CODES if student_only else _epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in commands(student_only=student_only):
        command.register(subparsers)
    return parser


def run() -> None:
    """The ``grader`` command (``main`` returns the exit code; tests call it in-process).
    After a one-shot ``check`` has printed its report and ended its master there is nothing
    left to write or close, so the interpreter's teardown (about 10 ms of freeing what the
    grader imported) is skipped."""
    code = main()
    if sys.argv[1:2] == ["check"]:
        _exit_now(code)
    sys.exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else list(argv)
    from grader.runner.portable_mode import spare_worth_starting

    if given[:1] == ["check"] and spare_worth_starting():
        from grader.runner.spare import discard_spare, launch_spare

        try:
            with contextlib.suppress(OSError):  # no spare: the check's own master says why
                launch_spare()  # its start-up overlaps what follows (see launch_spare)
            _prestart_check(given[1:])
            return _main(given)
        except KeyboardInterrupt:  # in the first milliseconds, before _main can catch it
            return _interrupted(given)
        finally:
            discard_spare()
    return _main(given)


def _interrupted(argv: Sequence[str]) -> int:
    """Ctrl-C before the parser ran: the usual message, in the ``--lang`` asked for."""
    from grader.errors import EXIT_INTERRUPTED
    from grader.frontends.commands.common import emit
    from grader.render.catalog import render_message, resolve_lang

    emit(render_message("error.interrupted", {}, resolve_lang(_peek(argv)[2])), sys.stderr)
    return EXIT_INTERRUPTED


def _peek(argv: Sequence[str]) -> tuple[str | None, str | None, str | None]:
    """``check``'s exercise, ``--root`` and ``--lang``, read cheaply from argv before the
    parser (it would load every command); anything wrong is for the parser to say."""
    exercise = None
    options: dict[str, str | None] = {}
    words = iter(argv)
    for word in words:
        name, equals, value = word.partition("=")
        if name in ("--root", "--path", "--lang"):
            options[name] = value if equals else next(words, None)
        elif not word.startswith("-") and exercise is None:
            exercise = word
    return exercise, options.get("--root"), options.get("--lang")


def _prestart_check(argv: Sequence[str]) -> None:
    """Before the rest of the grader loads: the spare master gets its hello (and starts its
    imports) when ``check``'s arguments name an exercise; whatever is wrong with them,
    ``_main`` says it (nothing is printed here). A wrong guess by ``_peek`` costs only time:
    a master adopts only a spare greeted with exactly its own hello."""
    exercise, root, _ = _peek(argv)
    if exercise is None:
        return
    try:
        from pathlib import Path

        from grader.app.service import GradingService, GradingSettings

        settings = GradingSettings.from_env(root=None if root is None else Path(root), lang="en")
        GradingService(settings).prestart(exercise)
    except Exception:  # e.g. a bad $GRADER_ISOLATION: the check reports it properly
        return


def _main(argv: Sequence[str]) -> int:
    from grader.errors import GraderError, InternalError, Interrupted
    from grader.frontends.commands.common import emit
    from grader.render.catalog import render_message, resolve_lang

    student = bool(argv) and argv[0] in STUDENT_COMMANDS
    args = build_parser(student_only=student).parse_args(argv)
    lang = resolve_lang(getattr(args, "lang", None))
    as_json = bool(getattr(args, "json", False))
    exercise = getattr(args, "exercise", None)
    try:
        code: int = args.run(args, lang, as_json)
        return code
    except GraderError as error:
        code = report_error(_addressed(error, args.command), lang, as_json, exercise)
        if isinstance(error, Interrupted):
            _exit_now(code)
        return code
    except KeyboardInterrupt:
        emit(render_message("error.interrupted", {}, lang), sys.stderr)
        return 130
    except Exception as error:  # the last line of defence: never a traceback
        detail = f"{type(error).__name__}: {error}"[:300]
        internal = _addressed(InternalError(detail=detail), args.command)
        return report_error(internal, lang, as_json, exercise)


def _exit_now(code: int) -> None:
    """Exit now, output flushed, without the interpreter's teardown: for an interrupted
    batch (everything is recorded and cleaned up, and joining the pool's helper threads of
    killed workers at interpreter exit can take seconds) and after a one-shot ``check``."""
    import os

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def _addressed(error: GraderError, command: str) -> GraderError:
    """An internal error in an instructor's command, in words for the instructor."""
    from grader.errors import InternalError

    instructor = command not in STUDENT_COMMANDS
    if instructor and isinstance(error, InternalError) and error.message_id in _STAFF_WORDED:
        return InternalError("error.internal_instructor", **error.params)
    return error


def report_error(error: GraderError, lang: str, as_json: bool, exercise: str | None) -> int:
    from grader.errors import EXIT_INTERNAL
    from grader.frontends.commands.common import emit
    from grader.render.catalog import render_message

    text = render_message(error.message_id, error.params, lang)
    if as_json:
        from grader.judge.sanitize import visible
        from grader.render.json_out import error_to_dict

        shown = None if exercise is None else visible(exercise)
        payload = error_to_dict(shown, text, error.message_id, error.exit_code)
        emit(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        emit(text, sys.stderr)
    return error.exit_code if error.exit_code else EXIT_INTERNAL


if __name__ == "__main__":
    raise SystemExit(main())
