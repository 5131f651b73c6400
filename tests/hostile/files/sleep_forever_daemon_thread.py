# trick: print the table and exit 0 while a daemon thread (renamed hstl-marker) sleeps forever
# expect: failed
# exercise: EX-11-01
import ctypes
import threading
import time


def sleeper():
    ctypes.CDLL(None).prctl(15, b"hstl-marker", 0, 0, 0)  # PR_SET_NAME: visible in /proc/*/task
    while True:
        time.sleep(3600)


threading.Thread(target=sleeper, daemon=True).start()
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
