"""Trick: print the expected table, flush, then os._exit(0) (no interpreter shutdown)."""

import os
import sys

sys.stdout.write(
    "RetryableTaskError 0 True 5 False\n"
    "RetryableTaskError 1 True 10 False\n"
    "RetryableTaskError 2 False None True\n"
    "ValueError 0 False None True\n"
)
sys.stdout.flush()
os._exit(0)
