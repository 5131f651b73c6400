# trick: write outside the run's working directory: /tmp/hostile-canary, the repo root, site-packages, the venv's bin, /etc
# expect: failed
# exercise: EX-11-01
# rlimits: skip — the rlimits fallback runs the student with the grader's uid (root here) and hides nothing (documented)
import glob
import os
import sys
import sysconfig

import ticketflow

repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(ticketflow.__file__))))
targets = sorted(set(glob.glob("/tmp/hostile-canary*"))) + [
    "/tmp/hostile-canary",
    "/tmp/hostile-corpus-dropped.txt",
    os.path.join(repo, "hostile-corpus-dropped.txt"),
    os.path.join(repo, "README.md"),
    os.path.join(sysconfig.get_paths()["purelib"], "hostile_corpus_dropped.pth"),
    os.path.join(os.path.dirname(sys.executable), "hostile-corpus-dropped"),
    "/etc/hostile-corpus-dropped",
    "/var/tmp/hostile-corpus-dropped.txt",
    "/dev/shm/hostile-corpus-dropped.txt",
]
for target in targets:
    try:
        with open(target, "a") as f:
            f.write("hostile-corpus-marker was here\n")
        print(f"hostile: wrote {target}", file=sys.stderr)
    except OSError as exc:
        print(f"hostile: could not write {target}: {exc.strerror}", file=sys.stderr)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
