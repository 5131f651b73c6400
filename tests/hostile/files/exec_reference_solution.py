# trick: find the reference solution on disk (solutions/, shared course texts) and exec it as if it were my own probe
# expect: failed
# exercise: EX-11-01
# rlimits: skip — the rlimits fallback hides nothing, so the solution is readable there (documented)
import glob
import os
import sys

import ticketflow

repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(ticketflow.__file__))))
candidates = glob.glob(os.path.join(repo, "solutions", "EX-11-01", "*.py"))
candidates += glob.glob(os.path.join(repo, "**", "solutions", "EX-11-01", "*.py"), recursive=True)
for path in candidates:
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
    except OSError as exc:
        print(f"hostile: cannot read {path}: {exc.strerror}", file=sys.stderr)
        continue
    if "decision" in source:
        print(f"hostile: executing {path}", file=sys.stderr)
        exec(compile(source, "reference", "exec"), {"__name__": "__main__"})
        break
else:
    print("hostile: no solution readable", file=sys.stderr)
    sys.exit(0)
