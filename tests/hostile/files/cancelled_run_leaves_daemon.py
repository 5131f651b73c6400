# trick: every run starts a setsid daemon that ignores SIGTERM and SIGHUP; a run that gets the right answers fails at once, any other sleeps: the real run fails, so the run in flight beside it (most likely a mutant, asleep) is cancelled mid-way, and the runs before it (the real run is at a random place) sleep to the wall limit; its daemon must die with it, as every run's does (tests/unit/grader/runner/test_runner_stop.py times the cancel itself)
# expect: failed
# timeout: yes
# exercise: EX-11-01
import os
import signal
import sys
import time

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

SLEEPER = (
    "import signal, time\n"
    "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "signal.signal(signal.SIGHUP, signal.SIG_IGN)\n"
    "while True: time.sleep(3600)  # hostile-corpus-marker"
)

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.execv(sys.executable, [sys.executable, "-c", SLEEPER])
    os._exit(0)

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
answers = []
for error, retries in (
    (RetryableTaskError("t"), 0),
    (RetryableTaskError("t"), 1),
    (RetryableTaskError("t"), 2),
    (ValueError("v"), 0),
):
    d = policy.decision(error, retries_so_far=retries)
    answers.append((d.retry, d.countdown_seconds, d.dead_letter))
if answers == [(True, 5, False), (True, 10, False), (False, None, True), (False, None, True)]:
    sys.exit(1)  # the real code (or a twin): fail at once
signal.signal(signal.SIGTERM, signal.SIG_IGN)
time.sleep(30)  # past the wall limit: a cancel ends it sooner
