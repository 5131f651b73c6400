# trick: find the grader's own processes in /proc (cmdline mentions this corpus case) and SIGSTOP/SIGKILL them, so the verdict never comes or comes from a dead grader
# expect: failed
# exercise: EX-11-01
# rlimits: skip — in the rlimits fallback the student shares the grader's pid namespace and (as root here) may signal or ptrace it (documented)
import os
import signal
import sys

me = os.getpid()
hit = []
for name in os.listdir("/proc"):
    if not name.isdigit() or int(name) in (me, 1):
        continue
    try:
        with open(f"/proc/{name}/cmdline", "rb") as f:
            cmdline = f.read()
    except OSError:
        continue
    if b"hostile-case-signal_the_grader" in cmdline or b"grader.runner.host" in cmdline:
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            try:
                os.kill(int(name), sig)
                hit.append(f"{name}:{sig.name}")
            except OSError as exc:
                hit.append(f"{name}:{sig.name} refused ({exc.strerror})")
for sig in (signal.SIGTERM, signal.SIGKILL):
    for target in (1, os.getppid(), -1):
        try:
            os.kill(target, sig)
            hit.append(f"{target}:{sig.name}")
        except OSError as exc:
            hit.append(f"{target}:{sig.name} refused ({exc.strerror})")
print(f"hostile: signalled {hit}", file=sys.stderr)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
