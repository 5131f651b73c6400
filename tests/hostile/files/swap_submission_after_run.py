# trick: find my own submission path (from my ancestors' /proc cmdlines) and replace it, during the run, with a FIFO so the grader blocks when it re-reads the file
# expect: failed
# exercise: EX-11-01
import os
import sys


def ancestors():
    """My parent, its parent, and so on: my own grader is one of them (a second test suite's
    copy of this case runs under another grader, whose file is not mine to swap)."""
    pid = os.getppid()
    while pid > 1:
        yield pid
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                pid = int(f.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return


for pid in ancestors():
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
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
