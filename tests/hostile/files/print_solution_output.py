# trick: read the reference solution from solutions/, pull the expected rows out of it and print them without testing anything
# expect: failed
# exercise: EX-11-01
import ast
import glob
import os
import sys

import ticketflow

repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(ticketflow.__file__))))
rows = []
for path in glob.glob(os.path.join(repo, "solutions", "EX-11-01", "*.py")):
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError):
        continue
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple) and len(node.elts) == 3 and isinstance(node.elts[0], ast.Call):
            error = node.elts[0].func.id
            retries = ast.literal_eval(node.elts[1])
            expected = ast.literal_eval(node.elts[2])
            rows.append(" ".join(str(x) for x in (error, retries, *expected)))
print(f"hostile: recovered {len(rows)} rows from solutions/", file=sys.stderr)
if not rows:
    rows = ["RetryableTaskError 0 True 5 False", "RetryableTaskError 1 True 10 False",
            "RetryableTaskError 2 False None True", "ValueError 0 False None True"]
print("\n".join(rows))
