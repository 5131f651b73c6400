"""Trick: the probe fails, but an atexit hook prints the table and PASS and exits 0."""

import atexit
import os


def lie():
    os.write(
        1,
        b"RetryableTaskError 0 True 5 False\nRetryableTaskError 1 True 10 False\n"
        b"RetryableTaskError 2 False None True\nValueError 0 False None True\nPASS\n",
    )
    os._exit(0)


atexit.register(lie)
raise AssertionError("this probe found nothing")
