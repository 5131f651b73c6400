"""Stand-ins for the function under test: behaviour-equivalent TWINS and known-wrong MUTANTS.

Imported only in the grader's own process, by the oracle (``grader.proxy.oracle``): each run's
implementation (the real function, a twin or a mutant) runs there, and the student's
process holds a proxy that is the same in every run. So no code, name or docstring of a
stand-in ever exists in a student's process. Tests import the modules to check behaviour.

Rules for a stand-in: a plain function whose signature is the real function's. A policy
stand-in gets a ``BoundedRetryPolicy`` carrying the probe's bounds. An effects stand-in gets
the probe's transaction as a ``grader.proxy.oracle.link.Remote``: attribute reads, calls, ``with``
and truth tests on it (and on what they return) happen in the probe's process; every
statement it executes must be named in ``grader/proxy/child/statements.py`` (the probe's
process rebuilds it from its own ticketflow); a model object it passes (``BusinessTask(...)``)
is rebuilt there from its column values. ``tests/unit/grader/proxy/oracle`` runs every stand-in
through the oracle and compares with a direct call.

No fingerprint of correctness (issue 19): a stand-in performs the real function's preamble
(for the effects: the session's connection and its dialect read) unless the defect is that
very preamble, and every correct implementation (the real function, each twin) has, among
each exercise's mutants, one written in its style: the same operations on the probe's
objects, one behavioural defect. ``tests/unit/grader/variants/test_indistinguishable.py``
checks it, by everything a probe can observe that is not a result.
"""
