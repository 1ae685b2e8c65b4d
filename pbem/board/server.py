"""The board's web server: 127.0.0.1 only, an unguessable token in every address (docs/board.md).

Nothing else on the machine may drive the board: a request whose path does not start with the
token is refused (another user's process cannot guess it: ``secrets.token_urlsafe``, 256 bits);
one whose ``Host`` is not ``127.0.0.1:PORT`` is refused (a web page whose name an attacker points
at 127.0.0.1, DNS rebinding, still sends its own name); a POST must also carry the token in the
``X-Pbem-Token`` header and come from no other origin (a page elsewhere can neither read the token
nor set that header without a CORS preflight, and no CORS header is ever sent). Every asset is the
package's own; nothing is fetched from the network.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from dataclasses import asdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from pbem.board.session import Session
from pbem.core.errors import PbemError

HOST = "127.0.0.1"
TOKEN_HEADER = "X-Pbem-Token"
MAX_BODY = 64 * 1024  # a click is a few hundred bytes
ASSETS = {"": ("board.html", "text/html; charset=utf-8"), "index.html": ("board.html", "text/html; charset=utf-8"),
          "board.js": ("board.js", "text/javascript; charset=utf-8"),
          "board.css": ("board.css", "text/css; charset=utf-8")}
POSTS = ("act", "why", "undo", "redo", "dests", "seal", "submit")
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "X-Frame-Options": "DENY",
           "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                                      "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
                                      "base-uri 'none'; form-action 'none'"}


def asset(name: str) -> bytes:
    """A file the board ships in the package (pyproject's package-data)."""
    return (resources.files("pbem.board") / "static" / name).read_bytes()


# Seconds ``stop`` may wait for the serving loop to see it (socketserver's default, half a second, made
# each stop, a Ctrl+C or a test's, wait up to that long; twenty looks a second cost nothing measurable).
STOP_WITHIN = 0.05


class BoardServer:
    """The server of one session, answering in a thread of its own until ``stop``."""

    def __init__(self, session: Session, port: int = 0) -> None:
        self.session = session
        self.token = secrets.token_urlsafe(32)
        self.httpd = ThreadingHTTPServer((HOST, port), _handler(self))
        self.httpd.daemon_threads = True  # Ctrl+C never waits on a connection a browser left open
        self.port = int(self.httpd.server_address[1])
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": STOP_WITHIN},
                                       name="pbem-board", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/{self.token}/"

    def start(self) -> BoardServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def refusal(self, host: str | None, path: str, method: str, token: str | None, origin: str | None) -> str:
        """Why a request is refused ("" when it is not): wrong Host, no token, or a POST without its header."""
        if host != f"{HOST}:{self.port}":
            return "the board answers only at its own address, 127.0.0.1 and its port (docs/board.md)"
        if not _starts_with_token(path, self.token):
            return "this address lacks the board's token (docs/board.md)"
        if method == "POST":
            if token is None or not hmac.compare_digest(token.encode(), self.token.encode()):
                return f"a change needs the board's token in the {TOKEN_HEADER} header (docs/board.md)"
            if origin is not None and origin != f"http://{HOST}:{self.port}":
                return "a change must come from the board's own page (docs/board.md)"
        return ""


def _starts_with_token(path: str, token: str) -> bool:
    first = urlsplit(path).path.lstrip("/").split("/", 1)[0]
    return hmac.compare_digest(first.encode(), token.encode())


def _handler(server: BoardServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "pbem-board"
        sys_version = ""

        def log_message(self, format: str, *args: Any) -> None:  # the token must not reach a log
            return

        def _send(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            for name, value in HEADERS.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, data: Any) -> None:
            self._send(status, json.dumps(data, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")

        def _rest(self) -> str | None:
            """The path after the token, or None after refusing the request."""
            why = server.refusal(self.headers.get("Host"), self.path, self.command, self.headers.get(TOKEN_HEADER),
                                 self.headers.get("Origin"))
            if why:
                self._json(403, {"error": why})
                return None
            parts = urlsplit(self.path).path.lstrip("/").split("/", 1)
            return parts[1] if len(parts) > 1 else ""

        def do_GET(self) -> None:
            rest = self._rest()
            if rest is None:
                return
            if rest in ASSETS:
                name, kind = ASSETS[rest]
                self._send(200, asset(name), kind)
            elif rest == "api/view":
                self._answer(lambda: server.session.view().to_json())
            else:
                self._json(404, {"error": f"the board has no page {rest!r}"})

        def do_POST(self) -> None:
            rest = self._rest()
            if rest is None:
                return
            verb = rest.removeprefix("api/")
            if not rest.startswith("api/") or verb not in POSTS:
                self._json(404, {"error": f"the board takes no change at {rest!r}"})
                return
            size = int(self.headers.get("Content-Length") or 0)
            if size > MAX_BODY or (self.headers.get("Content-Type") or "").split(";")[0] != "application/json":
                self._json(400, {"error": "a change is a small JSON body (Content-Type: application/json)"})
                return
            try:
                data = json.loads(self.rfile.read(size) or b"{}")
            except ValueError:
                self._json(400, {"error": "the change is not JSON"})
                return
            s = server.session
            calls = {"act": lambda: s.act(data).to_json(), "why": lambda: asdict(s.why(data)),
                     "undo": lambda: s.undo().to_json(),
                     "redo": lambda: s.redo().to_json(), "dests": lambda: {"dests": s.dests(data)},
                     "seal": lambda: s.seal().to_json(), "submit": lambda: s.submit().to_json()}
            self._answer(calls[verb])

        def _answer(self, call: Any) -> None:
            try:
                self._json(200, call())
            except PbemError as exc:
                self._json(400, {"error": str(exc), "rule": str(getattr(exc, "rule", "") or "")})
            except Exception as exc:  # a bug must not kill the board or show a traceback on the page
                self._json(500, {"error": f"the board failed: {type(exc).__name__}: {exc}"})

        def do_PUT(self) -> None:
            self._json(405, {"error": "the board takes GET and POST only"})

        do_DELETE = do_PATCH = do_OPTIONS = do_PUT

    return Handler
