# trick: look for other students' submissions (the course root from /proc cmdlines, /tmp, home dirs) and run the first complete one
# expect: failed
# exercise: EX-11-01
# rlimits: skip — the rlimits fallback shares /proc, /tmp and the file system with the grader (documented)
import glob
import os
import sys

roots = set()
for cmdline in glob.glob("/proc/[0-9]*/cmdline"):
    try:
        with open(cmdline, "rb") as f:
            args = f.read().split(b"\0")
    except OSError:
        continue
    for flag in (b"--root", b"--path"):
        if flag in args and args.index(flag) + 1 < len(args):
            value = os.fsdecode(args[args.index(flag) + 1])
            roots.add(value if flag == b"--root" else os.path.dirname(os.path.dirname(value)))
roots.update(["/tmp", "/home", "/srv", "/var/tmp", os.path.expanduser("~")])
me = os.path.abspath(__file__)
for root in sorted(roots):
    for path in glob.glob(os.path.join(root, "**", "retry_policy_probe.py"), recursive=True)[:200]:
        if os.path.abspath(path) == me:
            continue
        try:
            with open(path, encoding="utf-8") as f:
                source = f.read()
        except (OSError, UnicodeDecodeError):
            continue
        if "policy.decision" in source and "assert" in source and "trick:" not in source:
            print(f"hostile: running someone else's {path}", file=sys.stderr)
            exec(compile(source, "borrowed", "exec"), {"__name__": "__main__"})
            sys.exit(0)
print("hostile: found nobody to copy", file=sys.stderr)
