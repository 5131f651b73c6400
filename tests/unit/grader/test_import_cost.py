"""The fast paths stay lean: nothing heavy is imported where it is not needed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = ("celery", "kombu", "sqlalchemy", "nbformat", "IPython")


def _modules_after(code: str) -> set[str]:
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return set(json.loads(done.stdout))


def _heavy(modules: set[str]) -> set[str]:
    return {name for name in modules if name.split(".")[0] in HEAVY}


def test_importing_grader_loads_nothing_but_the_package() -> None:
    modules = _modules_after("import grader")
    assert {name for name in modules if name.startswith("grader")} == {"grader"}


def test_the_ex_11_01_path_never_imports_celery_or_sqlalchemy() -> None:
    # What the CLI process and the EX-11-01 fork-server host import between them.
    code = (
        "import grader.frontends.cli, grader.app.service, grader.judge.grading\n"
        "import grader.judge.verdict, grader.render.text\n"
        "from grader.judge.exercises import get_exercise\n"
        "import importlib\n"
        "for name in get_exercise('EX-11-01').all_preload: importlib.import_module(name)\n"
        "import grader.app.fingerprint\n"
        "grader.app.fingerprint.verdict_fingerprint(get_exercise('EX-11-01'))\n"
        "from grader.proxy.oracle.implementations import warm_up\n"
        "warm_up('policy')"  # the oracle of EX-11-01 (in its oracle process)
    )
    assert _heavy(_modules_after(code)) == set()


def test_grading_a_database_exercise_leaves_sqlalchemy_to_the_oracle_process() -> None:
    # The effects implementation runs in the student's oracle process (forked from the
    # master, which has SQLAlchemy already): the CLI's own process never imports it.
    solution = Path(__file__).resolve().parents[3] / "solutions" / "EX-12-01"
    probe = next(solution.glob("*.py"))
    code = (
        "import contextlib, io\n"
        "from grader.frontends.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    code = main(['check', 'EX-12-01', '--path', {str(probe)!r}, '--json'])\n"
        "assert code == 0 and json.loads(out.getvalue())['status'] == 'passed', out.getvalue()\n"
    )
    assert _heavy(_modules_after("import json\n" + code)) == set()


def test_the_spare_master_is_launched_before_the_runner_loads() -> None:
    # ``grader check`` launches its master first thing (cli.main): by then only the CLI's own
    # module and the spare launcher may be loaded, so the master's start-up overlaps the rest.
    modules = _modules_after("import grader.frontends.cli\nimport grader.runner.spare")
    grader_modules = {name for name in modules if name.startswith("grader")}
    assert grader_modules == {
        "grader",
        "grader.frontends",
        "grader.frontends.cli",
        "grader.runner",
        "grader.runner.spare",
    }


def test_the_runner_package_still_hands_out_its_names() -> None:
    code = (
        "from grader.runner import ForkServer, Limits, Master, Recorder, RunnerError, run_once\n"
        "import grader.runner as runner\n"
        "from grader.runner import client, master, model\n"
        "assert runner.Master is master.Master and runner.ForkServer is client.ForkServer\n"
        "assert Limits is model.Limits and RunnerError is model.RunnerError\n"
        "try:\n"
        "    runner.NoSuchName\n"
        "except AttributeError as e:\n"
        "    assert 'NoSuchName' in str(e)\n"
        "else:\n"
        "    raise SystemExit('an unknown name was handed out')\n"
    )
    assert "grader.runner.client" in _modules_after(code)


def test_submit_loads_neither_the_instructor_wing_nor_the_gradebooks_orm(tmp_path: Path) -> None:
    """``grader submit`` (packing and ``--verify``) is the student's: its version number and
    zip checks live in grader/app, so it never loads SQLAlchemy or the gradebook's models."""
    repo = Path(__file__).resolve().parents[3]
    course = tmp_path / "course"
    (course / "exercises").mkdir(parents=True)
    for exercise in (repo / "exercises").iterdir():
        if exercise.is_dir():
            (course / "exercises" / exercise.name).mkdir()
    (course / "exercises" / "EX-11-02" / "answer.md").write_text("my answer\n" * 20)
    zipped = tmp_path / "alice.zip"
    code = (
        "import contextlib, io\n"
        "from grader.frontends.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['submit', '--student', 'alice', '--root', {str(course)!r},"
        f" '--out', {str(zipped)!r}]) == 0\n"
        f"    assert main(['submit', '--verify', {str(zipped)!r}]) == 0\n"
    )
    modules = _modules_after(code)
    assert zipped.is_file()
    assert _heavy(modules) == set()
    assert {name for name in modules if name.startswith("grader.instructor")} == set()
