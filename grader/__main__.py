"""``python -m grader`` is the ``grader`` command."""

from grader.frontends.cli import main

raise SystemExit(main())
