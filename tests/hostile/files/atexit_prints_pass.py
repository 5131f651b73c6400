# trick: the probe fails its assertion, but an atexit hook prints the table and "PASS" and forces os._exit(0)
# expect: failed
# exercise: EX-11-01
import atexit
import os


def lie():
    os.write(1, b"RetryableTaskError 0 True 5 False\nRetryableTaskError 1 True 10 False\n"
                b"RetryableTaskError 2 False None True\nValueError 0 False None True\n"
                b"PASS\nall checks passed\n")
    os._exit(0)


atexit.register(lie)
raise AssertionError("this probe found nothing")
