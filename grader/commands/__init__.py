"""One module per ``grader`` subcommand: ``register(subparsers)`` + ``run(args, lang, as_json)``."""
