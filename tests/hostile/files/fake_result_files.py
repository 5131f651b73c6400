# trick: write fake "passed" result files where a grader might look: cwd, .grader/ caches, the course root, /tmp, $HOME
# expect: failed
# exercise: EX-11-01
# rlimits: skip — in rlimits mode the student runs as the grader's uid and may write the course tree (documented)
import json
import os
import sys

import ticketflow

FAKE = json.dumps({"exercise": "EX-11-01", "status": "passed", "score": 100, "max_score": 100,
                   "checks": [], "marker": "hostile-corpus-marker"})
repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(ticketflow.__file__))))
targets = [
    "result.json", ".grader/result.json", ".grader/app/cache/EX-11-01.json",
    os.path.join(repo, "result.json"), os.path.join(repo, ".grader", "EX-11-01.json"),
    os.path.join(repo, "exercises", "EX-11-01", "result.json"),
    "/tmp/result.json", "/tmp/.grader/EX-11-01.json",
    os.path.join(os.environ.get("HOME", "/tmp"), ".grader", "EX-11-01.json"),
]
for target in targets:
    try:
        os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
        with open(target, "w") as f:
            f.write(FAKE)
        print(f"hostile: wrote {target}", file=sys.stderr)
    except OSError as exc:
        print(f"hostile: could not write {target}: {exc.strerror}", file=sys.stderr)

print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
print(FAKE)
