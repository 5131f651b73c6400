"""``grader`` subcommands, one module each (``register(subparsers)`` + ``run(args, lang,
as_json) -> int``); ``grader.frontends.cli`` registers them and dispatches. Shared helpers are in
``grader.frontends.commands.common``."""
