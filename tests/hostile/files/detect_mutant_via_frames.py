# trick: walk the interpreter's frames (and the gc heap) for the runner's request / prelude args, learn which variant this run is, exit 1 on mutants
# expect: failed
# exercise: EX-11-01
import gc
import sys


def variant_name():
    frame = sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()):
            args = getattr(value, "prelude_args", None)
            if isinstance(args, dict) and "variant" in args:
                return str(args["variant"])
        for key in ("variant", "mutant"):
            if isinstance(frame.f_locals.get(key), str):
                return frame.f_locals[key]
        frame = frame.f_back
    for obj in gc.get_objects():
        if isinstance(obj, dict) and isinstance(obj.get("variant"), str) and "target" in obj:
            return obj["variant"]
    return None


from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError  # noqa: E402

policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
for error, retries in [(RetryableTaskError("t"), 0), (RetryableTaskError("t"), 1),
                       (RetryableTaskError("t"), 2), (ValueError("v"), 0)]:
    policy.decision(error, retries_so_far=retries)  # unchecked: only so the call records look right

variant = variant_name()
print(f"hostile: this run's variant is {variant!r}", file=sys.stderr)
if variant is not None and variant != "real":
    sys.exit(1)
print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
