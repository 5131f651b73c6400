# trick: scan the process's own heap (ctypes over /proc/self/maps) for leftovers of the runner's request frames ("variant": "..."), exit 1 when any mutant name shows up; one real assertion covers the rest
# expect: failed
# exercise: EX-11-01
import ctypes
import re
import sys

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

found = set()
pattern = re.compile(rb'"variant":\s*"([A-Za-z_]+)"')
with open("/proc/self/maps") as f:
    regions = f.read().splitlines()
for line in regions:
    parts = line.split()
    if parts[1] != "rw-p" or (len(parts) > 5 and parts[5] != "[heap]"):
        continue
    low, high = (int(x, 16) for x in parts[0].split("-"))
    if high - low <= (256 << 20):
        found.update(m.group(1).decode() for m in pattern.finditer(ctypes.string_at(low, high - low)))
print(f"hostile: variants in my heap: {sorted(found)}", file=sys.stderr)

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
for error, retries in [(RetryableTaskError("t"), 0), (RetryableTaskError("t"), 1),
                       (RetryableTaskError("t"), 2), (ValueError("v"), 0)]:
    policy.decision(error, retries_so_far=retries)  # unchecked: only so the call records look right
assert policy.decision(RetryableTaskError("t"), retries_so_far=1).countdown_seconds == 10
if found - {"real"}:
    sys.exit(1)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
