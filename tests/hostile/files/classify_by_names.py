# trick: a twin uses local and global names the real code does not; a mutant uses the real code's names with other bytecode: exit 1 on that
# expect: failed
# exercise: EX-11-01

import dis
import difflib
import sys
import types

HERE = __file__


def functions_behind(fn, seen=None):
    """The function and every function reachable from its closure cells."""
    seen = set() if seen is None else seen
    if not isinstance(fn, types.FunctionType) or id(fn) in seen:
        return []
    seen.add(id(fn))
    found = [fn]
    for cell in fn.__closure__ or ():
        try:
            found += functions_behind(cell.cell_contents, seen)
        except ValueError:
            pass
    return found


def frames_during(call):
    """Code objects of every Python frame entered during ``call()`` (not this file's)."""
    seen = []

    def hook(frame, event, arg):
        if event == "call" and frame.f_code.co_filename != HERE:
            seen.append(frame.f_code)

    sys.setprofile(hook)
    try:
        call()
    except Exception:
        pass
    finally:
        sys.setprofile(None)
    return seen


def implementation_codes():
    """Innermost first: every code object named like the function under test, reached
    through the closure of the installed function or seen running during a call."""
    codes = [f.__code__ for f in functions_behind(installed())]
    codes += frames_during(one_call)
    named = [c for c in codes if c.co_name == NAME]
    unique = []
    for code in reversed(named):
        if all(code is not other for other in unique):
            unique.append(code)
    return unique


def shape(code):
    """The instructions as (opname, argument shown), salt stripped (``_xyz = 12345``)."""
    kept = []
    for ins in dis.get_instructions(code):
        op = (ins.opname, ins.argrepr)
        if op[0] == "STORE_FAST" and op[1].startswith("_") and kept and kept[-1][0] == "LOAD_CONST":
            kept.pop()
            continue
        kept.append(op)
    return kept


def reference_code():
    module = compile(REAL_SOURCE, "<public source>", "exec")
    return next(c for c in module.co_consts if isinstance(c, types.CodeType))

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

NAME = "decision"
REAL_SOURCE = """
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
"""
policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
CASES = [(RetryableTaskError("t"), 0), (RetryableTaskError("t"), 1),
         (RetryableTaskError("t"), 2), (ValueError("v"), 0)]


def installed():
    return BoundedRetryPolicy.__dict__["decision"]


def one_call():
    policy.decision(RetryableTaskError("t"), retries_so_far=0)


def required_calls():
    for error, retries in CASES:
        policy.decision(error, retries_so_far=retries)  # unchecked: only for the call records


def as_if_correct():
    print("RetryableTaskError 0 True 5 False")
    print("RetryableTaskError 1 True 10 False")
    print("RetryableTaskError 2 False None True")
    print("ValueError 0 False None True")


required_calls()

reference = reference_code()
names = set(reference.co_varnames) | set(reference.co_names)
codes = implementation_codes()
inner = codes[0] if codes else None
verdict = "none"
if inner is not None:
    theirs = set(inner.co_varnames) | set(inner.co_names)
    own = {n for n in theirs if not n.startswith("_")} | (theirs & names)
    if shape(inner) == shape(reference):
        verdict = "real"
    elif own <= names:
        verdict = "mutant"
    else:
        verdict = "twin"
print(f"hostile: names say {verdict}", file=sys.stderr)
if verdict == "mutant":
    sys.exit(1)
as_if_correct()
