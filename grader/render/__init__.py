"""Turning language-neutral reports into text, JSON and HTML, in zh or en."""
