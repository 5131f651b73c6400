# trick: never test behaviour; dig the implementation out of decision's closure and compare its bytecode with the known real one
# expect: failed
# exercise: EX-11-01
import sys
import types

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError, RetryDecision

REFERENCE = '''
def decision(self, error, *, retries_so_far):
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if not isinstance(error, RetryableTaskError):
        return RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)
    if retries_so_far >= self._max_retries:
        return RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)
    return RetryDecision(
        retry=True,
        countdown_seconds=self._base_delay_seconds * (2**retries_so_far),
        dead_letter=False,
    )
'''
namespace = {"RetryableTaskError": RetryableTaskError, "RetryDecision": RetryDecision}
exec(REFERENCE, namespace)
reference = namespace["decision"].__code__


def functions_behind(fn, seen):
    if not isinstance(fn, types.FunctionType) or id(fn) in seen:
        return
    seen.add(id(fn))
    yield fn
    for cell in fn.__closure__ or ():
        try:
            yield from functions_behind(cell.cell_contents, seen)
        except ValueError:
            pass


policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
for error, retries in [(RetryableTaskError("t"), 0), (RetryableTaskError("t"), 1),
                       (RetryableTaskError("t"), 2), (ValueError("v"), 0)]:
    policy.decision(error, retries_so_far=retries)  # unchecked: only so the call records look right

found = list(functions_behind(BoundedRetryPolicy.__dict__["decision"], set()))
same = any(f.__code__.co_code == reference.co_code and f.__code__.co_consts == reference.co_consts
           for f in found)
print(f"hostile: {len(found)} function(s) behind decision, real bytecode among them: {same}",
      file=sys.stderr)
if not same:
    sys.exit(1)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
