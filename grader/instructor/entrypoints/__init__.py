"""The instructor wing's entry points: its ``grader`` subcommands (``commands/``)."""
