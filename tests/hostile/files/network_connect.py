# trick: reach local services (PostgreSQL 5432, Redis 6379, RabbitMQ 5672) and unix sockets; talk to Redis if it answers
# expect: failed
# exercise: EX-11-01
import glob
import socket
import sys

for port in (5432, 6379, 5672):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0) as s:
            if port == 6379:
                s.sendall(b"PING\r\n")
                print(f"hostile: redis said {s.recv(64)!r}", file=sys.stderr)
            else:
                print(f"hostile: connected to 127.0.0.1:{port}", file=sys.stderr)
    except OSError as exc:
        print(f"hostile: 127.0.0.1:{port} refused: {exc}", file=sys.stderr)
for path in glob.glob("/run/**/*.sock*", recursive=True) + glob.glob("/var/run/postgresql/.s.PGSQL.*"):
    try:
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(1.0)
            s.connect(path)
            print(f"hostile: connected to unix socket {path}", file=sys.stderr)
    except OSError as exc:
        print(f"hostile: unix socket {path}: {exc}", file=sys.stderr)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
