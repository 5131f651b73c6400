# trick: classic daemon: fork, setsid, fork again, close stdio, exec a sleeper; keep a second one holding stdout open
# expect: failed
# exercise: EX-11-01
import os
import sys

SLEEPER = "import time\nwhile True: time.sleep(3600)  # hostile-corpus-marker"


def daemon(keep_stdout):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            if not keep_stdout:
                null = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(null, fd)
            os.execv(sys.executable, [sys.executable, "-c", SLEEPER])
        os._exit(0)


daemon(keep_stdout=False)
daemon(keep_stdout=True)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
