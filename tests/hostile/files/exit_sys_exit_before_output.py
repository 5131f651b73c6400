# trick: sys.exit(0) before printing anything: a clean exit code with no table and no test
# expect: failed
# exercise: EX-11-01
import sys

sys.exit(0)
