# trick: find my own submission path (from /proc cmdlines) and replace it, during the run, with a FIFO so the grader blocks when it re-reads the file
# expect: failed
# exercise: EX-11-01
import glob
import os
import sys

for cmdline in glob.glob("/proc/[0-9]*/cmdline"):
    try:
        with open(cmdline, "rb") as f:
            args = f.read().split(b"\0")
    except OSError:
        continue
    if b"--path" in args and args.index(b"--path") + 1 < len(args):
        target = os.fsdecode(args[args.index(b"--path") + 1])
        if "hostile-case-swap_submission_after_run" not in target:  # safety: only my own copy
            continue
        try:
            os.unlink(target)
            os.mkfifo(target)
            print(f"hostile: {target} is now a FIFO", file=sys.stderr)
        except OSError as exc:
            print(f"hostile: could not swap {target}: {exc.strerror}", file=sys.stderr)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
