"""``grader review`` start-up: the printed address, and a port that is taken."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from grader.frontends.cli import main
from grader.instructor.gradebook import Gradebook
from grader.instructor.review.auth import allowed_hosts
from grader.instructor.review.server import page_url


def test_the_printed_address_names_the_loopback_host_and_the_token() -> None:
    assert page_url("127.0.0.1", 8765, "tok") == "http://127.0.0.1:8765/?token=tok"
    assert page_url("::1", 9, "t") == "http://[::1]:9/?token=t"
    assert page_url("0.0.0.0", 9, "t") == "http://127.0.0.1:9/?token=t"
    assert "127.0.0.1" in allowed_hosts("127.0.0.1") and allowed_hosts("0.0.0.0") == ()


def test_a_taken_port_is_a_usage_error_with_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Gradebook(f"sqlite:///{tmp_path / 'g.db'}").close()  # review never creates one
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code = main(
            ["review", "--db", f"sqlite:///{tmp_path / 'g.db'}", "--port", str(port),
             "--no-browser", "--lang", "en"]
        )  # fmt: skip
    assert code == 2
    err = capsys.readouterr().err
    assert f"127.0.0.1:{port}" in err and "--port" in err and "Traceback" not in err


def test_a_bad_gradebook_url_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--db", "mysql://nope/x", "--no-browser", "--lang", "en"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_a_missing_gradebook_is_refused_and_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'typo.db'}"
    assert main(["review", "--db", url, "--port", "0", "--no-browser", "--lang", "en"]) == 2
    assert "There is no gradebook" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
