# trick: allocate and touch memory until something gives (bounded at 6 GiB so a missing sandbox fails the test instead of the machine)
# expect: failed
# exercise: EX-11-01
hoard = []
for _ in range(6 * 16):  # 96 x 64 MiB = 6 GiB at most
    chunk = bytearray(64 << 20)
    chunk[::4096] = b"x" * len(chunk[::4096])
    hoard.append(chunk)
print("RetryableTaskError 0 True 5 False")
print("allocated", len(hoard) * 64, "MiB")
