# trick: raise KeyboardInterrupt from inside decision via an error object whose __class__ lookup interrupts
# expect: failed
# exercise: EX-11-01
from ticketflow.workers.tasks import BoundedRetryPolicy


class Interrupting(Exception):
    @property
    def __class__(self):
        raise KeyboardInterrupt("interrupted from inside isinstance()")


print("RetryableTaskError 0 True 5 False", flush=True)
BoundedRetryPolicy(max_retries=2, base_delay_seconds=5).decision(
    Interrupting(), retries_so_far=0
)
