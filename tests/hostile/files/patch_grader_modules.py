# trick: import grader.* and patch every verdict-like function to return "passed"; replace sys.modules['grader'] with a fake
# expect: failed
# exercise: EX-11-01
import importlib
import sys
import types

PASSED = {"status": "passed", "score": 100, "max_score": 100, "checks": []}


def passed(*args, **kwargs):
    return PASSED


for name in ("grader", "grader.judge.verdict", "grader.frontends.cli", "grader.judge.results", "grader.check",
             "grader.judge.exercises", "grader.runner", "grader.runner.host", "grader.proxy.child",
             "grader.proxy.child.prelude", "grader.render.json_out"):
    try:
        module = importlib.import_module(name)
    except BaseException as exc:
        print(f"hostile: cannot import {name}: {type(exc).__name__}", file=sys.stderr)
        continue
    for attr, value in list(vars(module).items()):
        if callable(value) and not isinstance(value, type):
            try:
                setattr(module, attr, passed)
            except BaseException:
                pass

fake = types.ModuleType("grader")
fake.__path__ = []
fake.verdict = passed
sys.modules["grader"] = fake
sys.modules["grader.judge.verdict"] = fake

print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
