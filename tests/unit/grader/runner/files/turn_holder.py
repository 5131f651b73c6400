"""Holds this user's turn (``grader.runner.turns``) for a test: takes it on the lock file
named by its first argument, says "held", stops itself with ``--stop`` (as Ctrl-Z would),
and, once resumed, holds it until its standard input ends."""

import os
import signal
import sys
from pathlib import Path

from grader.runner.turns import Turns

turns = Turns(Path(sys.argv[1]))
turns.take()
print("held", flush=True)
if "--stop" in sys.argv:
    os.kill(os.getpid(), signal.SIGSTOP)
sys.stdin.read()
