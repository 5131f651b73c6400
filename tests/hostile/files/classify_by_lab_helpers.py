# trick: look for a difference between runs in what the sandbox newly offers: the lab's notebook helpers (platform report, LiveRun) and the graded notebook's grader stand-in; all are the same in every run, so exiting 0 on "what the real run sees" passes every mutant too
# expect: failed
# exercise: EX-12-01
import sys

from ticketflow_lab import notebook
from ticketflow_lab.notebook import platform_problems, require_platform

report = require_platform(live_worker=False)
seen = (
    report.split("|")[0],
    tuple(platform_problems(live_worker=False)),
    sorted(name for name in vars(notebook) if not name.startswith("_")),
    "grader" in sys.modules,
    sorted(name for name in sys.modules if name.startswith("grader")),
)
print(seen)
sys.exit(0 if seen[1] == () else 1)
