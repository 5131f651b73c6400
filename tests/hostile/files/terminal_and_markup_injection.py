# trick: print terminal control sequences (clear screen, OSC 52 clipboard write, window title, hyperlinks, cursor up + "PASSED"), bidi overrides, NULs and HTML into the report
# expect: failed
# exercise: EX-11-01
import sys

sys.stdout.write(
    "RetryableTaskError 0 True 5 False\x1b[2J\x1b]52;c;aGVsbG8=\x07\x1b]0;pwned\x07"
    "\r\x1b[1A\x1b[K\u2705 all checks PASSED\u202eevil\u0000nul\x9b31m\n"
    "<script>alert(1)</script><img src=x onerror=alert(2)>\n"
)
sys.stderr.write("\x1b[31mred\x1b[0m\x1b]8;;http://127.0.0.1/\x1b\\link\x1b]8;;\x1b\\\n")
raise SystemExit("\x1b[2J\x1b]0;title\x07<b onmouseover=alert(3)>x</b>")
