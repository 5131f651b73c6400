"""Trusted code that runs inside the sandboxed child, before the student's code.

It instruments ticketflow (records the calls a probe makes) and can swap in a mutant.
The runner hides this folder from the child's file system (``hide=``), so the student can
neither read the mutants nor tell from the files which run they are in.
"""
