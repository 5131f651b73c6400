"""The implementation under test, out of the student's reach.

Every run of a code probe (on the real code, a twin or a mutant) gets an oracle: a thread
serving one end of a ``socketpair``, in the student's oracle process (``remote``: forked
from the master, never sandboxed, never running student code) or, for a server not made by
a master, in the grader's own process (``session.LocalOracles``); the other end is passed to
the run (``grader.runner.passfd``) and the student's process holds only a proxy
(``grader.proxy.child``) whose code is the same in every run. The implementation (the real,
unmodified ticketflow function, or a function of ``grader/variants``) runs in the oracle, on
stand-ins: the policy gets the call's facts; the effects function gets a ``Remote`` for the
student's transaction, whose every operation is performed in the student's process
(``link``). Nothing of the implementation but its behaviour reaches the student: the values
it returns, the exceptions it raises, the operations it performs on the student's objects
and the SQL its statements send to the student's database.

Everything read from the student is untrusted (``grader.proxy.wire`` limits); a broken
conversation fails the run; a grader bug (an implementation that uses something the
conversation cannot carry) is an internal error, never a verdict.
"""
