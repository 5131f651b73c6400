"""Two runs' sources for the lock attack (H15): one holds locks on shared files, the other
looks for them. Used by the runner's view tests, as root and as a user."""

HOLD = """
import fcntl, os, time
held = []
for path in ({shared}):
    fd = os.open(path, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    fcntl.fcntl(fd, fcntl.F_SETLK, __import__("struct").pack("hhqqi", fcntl.F_RDLCK, 0, 0, 0, 0))
    held.append(fd)
print("holding", flush=True)
time.sleep(3)
"""
LOOK = """
import errno, fcntl, os, struct, time
time.sleep(1)
seen = []
for path in ({shared}):
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        query = struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)
        kind = struct.unpack("hhqqi", fcntl.fcntl(fd, fcntl.F_GETLK, query))[0]
        seen.append("free" if kind == fcntl.F_UNLCK else "record lock seen")
    except OSError as exc:
        seen.append("held by another run" if exc.errno == errno.EWOULDBLOCK else exc.errno)
print(seen, open("/proc/locks").read().count("\\n"))
"""
