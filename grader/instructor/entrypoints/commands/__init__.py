"""The instructor's ``grader`` subcommands, one module each (``register(subparsers)`` +
``run(args, lang, as_json) -> int``), as ``grader.frontends.commands`` holds the student's."""
