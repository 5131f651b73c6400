"""Token and CSRF rules (pure), then the middleware in front of the real routes."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.instructor.review.auth import (
    COOKIE,
    Guard,
    allowed_hosts,
    new_token,
    same,
    without_token,
)
from grader.instructor.review.middleware import CSP
from tests.unit.grader.instructor.review.factories import client


def test_tokens_are_long_random_and_url_safe() -> None:
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50
    assert all(len(t) >= 64 and t.replace("-", "").replace("_", "").isalnum() for t in tokens)


@pytest.mark.parametrize(
    ("given", "expected", "equal"),
    [("abc", "abc", True), ("abd", "abc", False), ("ab", "abc", False), (None, "abc", False),
     ("", "abc", False), ("abc\u00e9", "abc", False)],
)  # fmt: skip
def test_same_compares_in_constant_time_and_handles_any_input(
    given: str | None, expected: str, equal: bool
) -> None:
    assert same(given, expected) is equal


def test_guard_accepts_the_token_from_cookie_or_query_only() -> None:
    guard = Guard()
    assert guard.allows(guard.token, None) and guard.allows(None, guard.token)
    assert not guard.allows(None, None) and not guard.allows("x", new_token())


def test_csrf_token_is_per_server_and_not_the_access_token() -> None:
    one, two = Guard(), Guard()
    assert one.csrf_ok(one.csrf_token) and not one.csrf_ok(two.csrf_token)
    assert one.csrf_token != one.token and not one.csrf_ok(None) and not one.csrf_ok(one.token)


def test_host_and_origin_rules() -> None:
    guard = Guard(hosts=allowed_hosts("127.0.0.1"))
    assert (
        guard.host_ok("127.0.0.1:8765")
        and guard.host_ok("localhost:1")
        and guard.host_ok("[::1]:8")
    )
    assert not guard.host_ok("evil.example:8765") and not guard.host_ok(None)
    assert Guard(hosts=allowed_hosts("0.0.0.0")).host_ok("10.1.2.3:8765")
    assert guard.origin_ok(None, "127.0.0.1:8765")
    assert guard.origin_ok("http://127.0.0.1:8765", "127.0.0.1:8765")
    assert not guard.origin_ok("http://evil.example", "127.0.0.1:8765")
    assert not guard.origin_ok("null", "127.0.0.1:8765")


def test_the_token_leaves_the_address_after_sign_in() -> None:
    assert without_token("/queue", "token=abc&lang=en") == "/queue?lang=en"
    assert without_token("/", "token=abc") == "/"


def test_no_token_no_page(tmp_path: Path) -> None:
    http = client(tmp_path).http
    for path in ("/", "/queue", "/insight", "/s/alice/EX-11-01", "/static/review.css", "/nope"):
        answer = http.get(path)
        assert answer.status_code == 403, path
        assert "alice" not in answer.text
    assert http.get("/?token=wrong").status_code == 403
    http.cookies.set(COOKIE, "wrong")
    assert http.get("/").status_code == 403


def test_sign_in_sets_an_http_only_strict_cookie_and_redirects(tmp_path: Path) -> None:
    made = client(tmp_path)
    answer = made.http.get(f"/queue?token={made.guard.token}&lang=zh")
    assert answer.status_code == 303 and answer.headers["location"] == "/queue?lang=zh"
    cookie = answer.headers["set-cookie"]
    assert f"{COOKIE}={made.guard.token}" in cookie
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    assert made.http.get("/").status_code == 200  # the cookie alone now signs in


def test_every_answer_carries_the_security_headers(tmp_path: Path) -> None:
    http = client(tmp_path).signed_in()
    for answer in (http.get("/"), http.get("/nope"), http.get("/static/review.js")):
        assert answer.headers["content-security-policy"] == CSP
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["x-content-type-options"] == "nosniff"
    assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP


def test_a_foreign_host_header_is_refused_even_with_the_token(tmp_path: Path) -> None:
    made = client(tmp_path)
    http = made.signed_in()
    assert http.get("/", headers={"host": "rebound.example"}).status_code == 403


def test_a_post_needs_the_csrf_token_and_this_origin(tmp_path: Path) -> None:
    made = client(tmp_path)
    http = made.signed_in()
    form = {"score": "1", "comment": "x", "back": "submission"}
    assert http.post("/decide/bob/EX-11-02", data=form).status_code == 403
    assert http.post("/decide/bob/EX-11-02", data={**form, "csrf_token": "x"}).status_code == 403
    foreign = {"origin": "http://evil.example"}
    data = {**form, "csrf_token": made.guard.csrf_token}
    assert http.post("/decide/bob/EX-11-02", data=data, headers=foreign).status_code == 403
    assert made.book.result("bob", "EX-11-02").review is None  # type: ignore[union-attr]
    assert http.post("/decide/bob/EX-11-02", data=data).status_code == 303
    assert http.get("/decide/bob/EX-11-02").status_code == 405  # never by GET


@pytest.mark.parametrize(
    "path",
    ["/static/../app.py", "/static/%2e%2e%2fapp.py", "/static/..%2f..%2fetc%2fpasswd",
     "/static/app.py", "/static/__init__.py", "/static/review.css.map", "/static/"],
)  # fmt: skip
def test_only_the_pages_own_assets_are_served(tmp_path: Path, path: str) -> None:
    http = client(tmp_path).signed_in()
    answer = http.get(path)
    assert answer.status_code == 404, path
    assert "import" not in answer.text and "root:" not in answer.text
