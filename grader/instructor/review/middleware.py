"""The ASGI layer in front of every route: the Host check, the token (query or cookie),
and security headers on every answer (a strict Content-Security-Policy: nothing but this
server's own files, no inline script, no frame, no referrer sent to another site)."""

from __future__ import annotations

from http.cookies import SimpleCookie
from urllib.parse import parse_qs

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse, RedirectResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from grader.instructor.review.auth import COOKIE, Guard, without_token

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; connect-src 'none'"
)
SECURITY_HEADERS = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)


class TokenMiddleware:
    def __init__(self, app: ASGIApp, guard: Guard, forbidden_text: str = "403 Forbidden") -> None:
        self.app = app
        self.guard = guard
        self.forbidden_text = forbidden_text

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "lifespan":
                await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        secured = _with_headers(send)
        if not self.guard.host_ok(headers.get("host")):
            await self._forbid(scope, receive, secured)
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        query_token = (query.get("token") or [None])[0]
        cookie = _cookie(headers.get("cookie"))
        if not self.guard.allows(cookie, query_token):
            await self._forbid(scope, receive, secured)
            return
        if query_token is not None and scope["method"] in ("GET", "HEAD"):
            target = without_token(scope["path"], scope.get("query_string", b"").decode())
            response = RedirectResponse(target, status_code=303)
            response.set_cookie(
                COOKIE, self.guard.token, httponly=True, samesite="strict", path="/"
            )
            await response(scope, receive, secured)
            return
        await self.app(scope, receive, secured)

    async def _forbid(self, scope: Scope, receive: Receive, send: Send) -> None:
        await PlainTextResponse(self.forbidden_text, status_code=403)(scope, receive, send)


def _cookie(header: str | None) -> str | None:
    if not header:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except Exception:  # a malformed cookie header: no token
        return None
    morsel = jar.get(COOKIE)
    return None if morsel is None else morsel.value


def _with_headers(send: Send) -> Send:
    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            names = {name.lower() for name, _ in message.get("headers", [])}
            extra = [(n, v) for n, v in SECURITY_HEADERS if n not in names]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return wrapped
