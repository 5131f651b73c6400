# trick: os._exit(0) first thing: skips atexit, thread joins and stream flushing
# expect: failed
# exercise: EX-11-01
import os

os._exit(0)
