# trick: read the grader's mutant and harness sources (by file and by import) to learn what the mutants get wrong; then print the table
# expect: failed
# exercise: EX-11-01
import glob
import importlib
import os
import sys

import ticketflow

repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(ticketflow.__file__))))
found = 0
for path in glob.glob(os.path.join(repo, "grader", "**", "*.py"), recursive=True):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        continue
    if "mutant" in text.lower():
        found += 1
        print(f"hostile: read {os.path.relpath(path, repo)} ({len(text)} chars)", file=sys.stderr)
for name in ("grader.proxy.child.mutants.policy", "grader.proxy.child.mutants", "grader.proxy.child.policy"):
    try:
        module = importlib.import_module(name)
        print(f"hostile: imported {name}: {sorted(vars(module))[:12]}", file=sys.stderr)
    except BaseException as exc:
        print(f"hostile: cannot import {name}: {type(exc).__name__}", file=sys.stderr)
print(f"hostile: {found} mutant-related files readable", file=sys.stderr)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
