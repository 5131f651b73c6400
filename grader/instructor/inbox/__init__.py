"""``grader inbox``: students hand in over HTTP; the server's clock stamps each hand-in."""
