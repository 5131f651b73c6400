# trick: a double-forked setsid daemon that, once the grader has gone, writes a file every 0.5 s for 20 s; the probe forges its supervisor's "clean exit" report and kills it so nobody sweeps up (rlimits fallback: same uid as the runner)
# expect: failed
# exercise: EX-11-01
import os
import signal
import time

DROP = "/var/tmp/hstl-rlimits-survivor-%d" % os.getpid()


def daemon():
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.closerange(3, 256)
    time.sleep(3)  # the grader has printed its verdict and exited by now
    end = time.time() + 20
    while time.time() < end:
        with open(DROP, "a") as f:
            f.write("still alive at %f\n" % time.time())
        time.sleep(0.5)
    os._exit(0)


if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        daemon()
    os._exit(0)
time.sleep(0.2)

supervisor = os.getppid()
try:
    names = os.listdir(f"/proc/{supervisor}/fd")
except OSError:
    names = []
for name in names:
    try:
        fd = os.open(f"/proc/{supervisor}/fd/{name}", os.O_WRONLY | os.O_NONBLOCK)
        os.write(fd, b'{"exit": 0, "cpu": 0.1, "maxrss": 1}\n')
        os.close(fd)
    except OSError:
        pass
try:
    os.kill(supervisor, signal.SIGKILL)
except OSError:
    pass

print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
