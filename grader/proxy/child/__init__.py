"""Trusted code that runs inside the sandboxed child, before the student's code.

It instruments ticketflow: the function under test becomes a proxy that records the calls a
probe makes (from the proxy's own view of arguments and results) and asks the grader's
oracle (``grader.proxy.oracle``, in the student's oracle process) for every answer. The proxy
is the same
code in every run: nothing here names or holds an implementation, so the child learns about
the implementation only from its behaviour. The runner hides this folder from the child's
file system.
"""
