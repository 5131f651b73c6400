"""Trusted code that runs inside the sandboxed child, before the student's code.

It instruments ticketflow (records the calls a probe makes, from the wrapper's own view of
arguments and results) and may install a stand-in for the function under test, received as
bytecode (see ``grader.codegen``). Nothing here names or lists stand-ins: the child learns
nothing but the code it must run. The runner hides this folder from the child's file system.
"""
