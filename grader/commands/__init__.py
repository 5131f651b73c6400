"""``grader`` subcommands, one module each (``register(subparsers)`` + ``run(args, lang,
as_json) -> int``); ``grader.cli`` registers them and dispatches. Shared helpers are in
``grader.commands.common``."""
