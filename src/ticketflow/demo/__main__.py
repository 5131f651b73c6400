"""``python -m ticketflow.demo``: see ``ticketflow.demo.cli``."""

from ticketflow.demo.cli import main

raise SystemExit(main())
