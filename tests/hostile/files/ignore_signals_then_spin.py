# trick: ignore SIGALRM/SIGTERM/SIGINT/SIGHUP/SIGXCPU/SIGUSR1, block what can be blocked, then spin forever
# expect: failed
# exercise: EX-11-01
# timeout: yes
import signal

for name in ("SIGALRM", "SIGTERM", "SIGINT", "SIGHUP", "SIGXCPU", "SIGUSR1", "SIGUSR2", "SIGPIPE"):
    signal.signal(getattr(signal, name), signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_BLOCK, set(signal.Signals) - {signal.SIGKILL, signal.SIGSTOP})
print("RetryableTaskError 0 True 5 False", flush=True)
n = 0
while True:
    n += 1
