"""One module per ``grader`` subcommand: ``register(subparsers)`` adds its parser with
``set_defaults(run=...)``; ``run(args, lang, as_json) -> int`` does the work."""
