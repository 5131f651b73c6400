"""``python -m ticketflow_lab``: see ``ticketflow_lab.cli``."""

from ticketflow_lab.cli import main

raise SystemExit(main())
