# trick: leave a child process (new session, stdio detached) sleeping forever after a clean exit 0
# expect: failed
# exercise: EX-11-01
import subprocess
import sys

subprocess.Popen(
    [sys.executable, "-c", "import time\nwhile True: time.sleep(3600)  # hostile-corpus-marker"],
    start_new_session=True,
    stdin=subprocess.DEVNULL,
    stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL,
)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
