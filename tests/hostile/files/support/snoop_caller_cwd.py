"""Not a trick: reports whether a file from the grader's working directory is reachable
through sys.path (exits 0, so the output shows up as evidence)."""
import os
import sys

seen = [p for p in sys.path if p and os.path.exists(os.path.join(p, "secret-of-the-caller.txt"))]
print("snoop-result", "seen" if seen else "unseen")
