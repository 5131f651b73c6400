# trick: exit 1 after forging an uncaught report on fd 3 whose type and message are lone surrogates and whose line is a 10,000-digit number
# expect: failed
# exercise: EX-11-01
import os
import sys

os.write(3, rb'{"uncaught": {"type": "\ud800", "module": "builtins", "message": "\udc80", "traceback": "", "line": 1}}' + b"\n")
os.write(3, b'{"uncaught": {"type": "AssertionError", "line": ' + b"9" * 10_000 + b"}}\n")
os.write(3, b'\xff\xfe{"uncaught": {"type": "AssertionError"}}\n')
sys.exit(1)
