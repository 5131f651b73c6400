# trick: append to the installed ticketflow and grader sources (policy.py, harness, verdict) so that later checks change; then print the table
# expect: failed
# exercise: EX-11-01
# rlimits: skip — the rlimits fallback runs the student with the grader's uid (root here) and hides nothing (documented)
import glob
import os
import sys

import ticketflow
import ticketflow.workers.policy as policy

repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(ticketflow.__file__))))
PATCH = (
    "\n\n# hostile-corpus-marker\n"
    "BoundedRetryPolicy.decision = lambda self, error, *, retries_so_far: RetryDecision(False, None, True)\n"
)
targets = [policy.__file__]
targets += glob.glob(os.path.join(repo, "grader", "judge", "verdict.py"))
targets += glob.glob(os.path.join(repo, "grader", "proxy", "**", "*.py"), recursive=True)
for target in targets:
    try:
        with open(target, "a", encoding="utf-8") as f:
            f.write(PATCH)
        print(f"hostile: modified {target}", file=sys.stderr)
    except OSError as exc:
        print(f"hostile: could not modify {target}: {exc.strerror}", file=sys.stderr)
for cache in glob.glob(os.path.join(os.path.dirname(policy.__file__), "__pycache__", "*.pyc")):
    try:
        with open(cache, "r+b") as f:
            f.write(b"\0" * 16)
        print(f"hostile: clobbered {cache}", file=sys.stderr)
    except OSError as exc:
        print(f"hostile: could not clobber {cache}: {exc.strerror}", file=sys.stderr)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
