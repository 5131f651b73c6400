"""Who may use the page: whoever holds the token printed at start-up (as JupyterLab does).

The first request carries it as ``?token=...``; the answer sets it as an HttpOnly,
SameSite=Strict cookie and redirects to the same address without it (so it leaves the
address bar and the history). Every other request must bring the cookie or the token;
anything else gets 403. Comparisons are constant-time (``hmac.compare_digest``).

A state-changing request (POST) also needs the form's CSRF token: an HMAC of the server's
secret, never sent as a cookie, so another site can neither read nor forge it. An Origin
header that is not this page's origin is refused too, and the Host header must name this
server (a DNS-rebinding page cannot reuse the cookie, and gets 403 before any work).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urlsplit

COOKIE = "grader_review_token"
CSRF_FIELD = "csrf_token"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


def new_token() -> str:
    """48 random bytes, URL-safe: 384 bits, unguessable."""
    return secrets.token_urlsafe(48)


def same(given: str | None, expected: str) -> bool:
    """Constant-time equality (``given`` may be missing or of another length)."""
    if not given:
        return False
    return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8"))


@dataclass(frozen=True)
class Guard:
    """The secrets of one server run: the access token and the key CSRF tokens derive from."""

    token: str = field(default_factory=new_token)
    csrf_key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    #: Host names (without port) the server answers to; empty: any (bound to a public address).
    hosts: tuple[str, ...] = LOOPBACK_NAMES

    @property
    def csrf_token(self) -> str:
        return hmac.new(self.csrf_key, b"grader-review-csrf", hashlib.sha256).hexdigest()

    def allows(self, cookie: str | None, query_token: str | None) -> bool:
        return same(cookie, self.token) or same(query_token, self.token)

    def csrf_ok(self, submitted: str | None) -> bool:
        return same(submitted, self.csrf_token)

    def host_ok(self, host_header: str | None) -> bool:
        if not self.hosts:
            return True
        if not host_header:
            return False
        return _host_name(host_header) in self.hosts

    def origin_ok(self, origin: str | None, host_header: str | None) -> bool:
        """No Origin (a same-origin form in some browsers) or exactly this server's."""
        if origin is None:
            return True
        parts = urlsplit(origin)
        return parts.scheme == "http" and parts.netloc == (host_header or "")


def _host_name(host_header: str) -> str:
    if host_header.startswith("["):
        return host_header.split("]", 1)[0] + "]"
    return host_header.rsplit(":", 1)[0] if host_header.count(":") == 1 else host_header


def allowed_hosts(bind_host: str) -> tuple[str, ...]:
    """Loopback binds answer to loopback names only; a wildcard bind answers to any."""
    if bind_host in ("0.0.0.0", "::", ""):
        return ()
    return tuple(dict.fromkeys((*LOOPBACK_NAMES, bind_host)))


def without_token(path: str, query: str) -> str:
    """The address to redirect to once the token is in the cookie."""
    kept = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if k != "token"]
    return path + ("?" + urlencode(kept) if kept else "")
