# trick: print the table while a non-daemon thread sleeps forever, so interpreter shutdown waits forever
# expect: failed
# exercise: EX-11-01
# timeout: yes
import threading
import time


def sleeper():
    while True:
        time.sleep(3600)


threading.Thread(target=sleeper, daemon=False).start()
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
