"""`hub --web`: the same hub, served to a browser page with textual-serve.

textual-serve (MIT, from Textual's authors) does the browser side: the page
with xterm.js, the websocket protocol, and the hub running under Textual's web
driver in a child process. Around it this module adds:

- one hub process for the whole server, which tabs attach to (web_session);
- an access token on every request, the websocket included: a random one per
  start, printed in the URL to open, or `web.token` from settings. It moves
  into an HttpOnly, SameSite=Strict cookie at the first visit, so it does not
  stay in the address bar;
- loopback by default; another address only from `--host` on the command line.
"""
from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp_jinja2
from aiohttp import WSMsgType, web
from aiohttp.web_runner import GracefulExit
from textual_serve.server import Server, to_int

from app.core import settings as settings_mod
from app.core.errors import ConfigError
from app.hub.web_session import HubSession

#: Query parameter carrying the access token.
TOKEN_PARAM = "token"
#: Bytes of randomness in a generated token (URL-safe base64, 43 characters).
TOKEN_BYTES = 32
#: Largest websocket message a page may send (keys, resizes, pings are tiny).
MAX_MESSAGE = 64 * 1024
#: The page may load and connect to this server only: textual-serve's page asks Google for a font,
#: which the browser then refuses (it falls back to a local monospace font) rather than telling
#: a third party who opens the hub. No other site may frame the page.
CONTENT_POLICY = ("default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
                  "img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'")
REFUSED = ("This page needs the access token. Open the address that 'audiobook.py hub --web' printed "
           "(it ends in ?token=...).\n")


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and localhost: addresses no other machine can reach."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class WebOptions:
    """Where and how the page is served."""

    host: str
    port: int
    token: str
    #: True when the token comes from settings (then it is never printed).
    token_from_settings: bool
    #: The hub's own options (--setup / --no-setup), passed to the hub process.
    hub_args: tuple[str, ...] = ()


def resolve(host: str | None, port: int | None, hub_args: tuple[str, ...] = (),
            conf: settings_mod.Settings | None = None) -> WebOptions:
    """Return the options from the command line over settings; refuse a non-loopback default."""
    web_conf = (conf or settings_mod.load()).web
    if host is None:
        host = web_conf.host
        if not is_loopback(host):
            raise ConfigError(
                f"web.host in {settings_mod.paths.settings_file()} is {host}, not a loopback address",
                hint=f"To serve the hub to other machines, say so on the command line: "
                     f"audiobook.py hub --web --host {host} (the page is then protected by a token)")
    port = web_conf.port if port is None else port
    if not 0 <= port <= 65535:
        raise ConfigError(f"Port {port} is not a TCP port", hint="Use a number from 1 to 65535, or 0 for any free port")
    token = web_conf.token or secrets.token_urlsafe(TOKEN_BYTES)
    return WebOptions(host=host, port=port, token=token, token_from_settings=bool(web_conf.token),
                      hub_args=hub_args)


def hub_argv(hub_args: tuple[str, ...]) -> list[str]:
    """Return the command that runs the terminal hub with this same Python and app."""
    script = Path(__file__).resolve().parents[2] / "audiobook.py"
    entry = [str(script)] if script.is_file() else ["-m", "app"]
    return [sys.executable, *entry, "hub", *hub_args]


def _same(given: str, token: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8"), token.encode("utf-8"))


class WebHub(Server):
    """textual-serve's server with one shared hub process and an access token."""

    def __init__(self, options: WebOptions, sock: socket.socket) -> None:
        super().__init__(" ".join(hub_argv(options.hub_args)), host=options.host,
                         port=sock.getsockname()[1], title="Audiobook hub")
        self.options = options
        self.sock = sock
        self.cookie = f"audiobook-hub-{self.port}"
        self.session = HubSession(hub_argv(options.hub_args), self.download_manager)

    # -- addresses ---------------------------------------------------------------------------

    def url(self) -> str:
        """Return the address to open in a browser, with the token (or where to find it)."""
        host = self.options.host
        if host in ("0.0.0.0", "::", ""):  # every interface: name this machine
            host = socket.gethostname()
        elif ":" in host:
            host = f"[{host}]"
        token = "<web.token from settings.toml>" if self.options.token_from_settings else self.options.token
        return f"http://{host}:{self.port}/?{TOKEN_PARAM}={token}"

    # -- the guard ---------------------------------------------------------------------------

    @web.middleware
    async def guard(self, request: web.Request, handler) -> web.StreamResponse:
        """Refuse every request without the token; move a token in the query into a cookie."""
        token = self.options.token
        if _same(request.query.get(TOKEN_PARAM, ""), token):
            if request.path == "/":
                query = {k: v for k, v in request.query.items() if k != TOKEN_PARAM}
                target = request.rel_url.with_query(query)
                response = web.Response(status=302, headers={"Location": str(target)})
                response.set_cookie(self.cookie, token, httponly=True, samesite="Strict", path="/")
                return response
        elif not _same(request.cookies.get(self.cookie, ""), token):
            return web.Response(status=403, text=REFUSED)
        origin = request.headers.get("Origin")
        if request.path == "/ws" and origin and urlsplit(origin).netloc != request.host:
            return web.Response(status=403, text="A page from another site may not drive the hub.\n")
        response = await handler(request)
        if not response.prepared:  # a websocket or a download has sent its headers already
            response.headers["Content-Security-Policy"] = CONTENT_POLICY
        return response

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self.guard)
        return app

    # -- pages -------------------------------------------------------------------------------

    async def on_startup(self, app: web.Application) -> None:
        print(f"The hub is served at {self.url()}", flush=True)
        if not is_loopback(self.options.host):
            print(f"It is reachable from other machines on {self.options.host}; only with the token.", flush=True)
        print("Press Ctrl+C to stop it (a conversion in progress stops cleanly and resumes next time).",
              flush=True)

    async def on_shutdown(self, app: web.Application) -> None:
        await self.session.stop()

    async def handle_index(self, request: web.Request) -> web.Response:
        # URLs from the address the browser used, not from the bind address (0.0.0.0 is no address to open).
        ws_scheme = "wss" if request.scheme == "https" else "ws"
        context: dict[str, Any] = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"{ws_scheme}://{request.host}/ws",
            "config": {"static": {"url": f"{request.scheme}://{request.host}/static/"}},
            "application": {"name": self.title},
        }
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        page = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        await page.prepare(request)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        await self.session.attach(page, width, height)
        try:
            await self._relay(page)
        finally:
            await self.session.detach(page)
        return page

    async def _relay(self, page: web.WebSocketResponse) -> None:
        """Pass what the page sends (keys, resizes, focus) to the hub; answer pings."""
        async for message in page:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = message.json()
            except ValueError:
                continue  # not the textual.js protocol: ignore it
            if not isinstance(envelope, list) or not envelope:
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                await self.session.send_bytes(page, data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                await self.session.set_terminal_size(page, to_int(str(data.get("width")), 80),
                                                     to_int(str(data.get("height")), 24))
            elif kind == "ping":
                await page.send_json(["pong", data])
            elif kind in ("focus", "blur"):
                await self.session.focus(page, kind == "focus")

    def run(self) -> None:
        """Serve until Ctrl+C or SIGTERM; a second one while the hub winds down ends it at once."""
        try:
            web.run_app(self._make_app(), sock=self.sock, handle_signals=True, print=None, access_log=None)
        except GracefulExit:
            self.session.kill()
            print("Stopped at once. Finished chunks are saved; a run resumes when started again.", flush=True)


def bind(host: str, port: int) -> socket.socket:
    """Return a listening socket on host:port, or raise one clear error."""
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        raise ConfigError(f"Cannot serve the hub on '{host}': {exc.strerror}",
                          hint="Give --host an address of this machine, e.g. 127.0.0.1 or 0.0.0.0") from exc
    sock = socket.socket(info[0], socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(info[4])
    except OSError as exc:
        sock.close()
        raise ConfigError(f"Cannot listen on {host}:{port}: {exc.strerror}",
                          hint="Another program may use that port; pick another with --port N") from exc
    sock.listen(128)
    return sock


def serve(host: str | None, port: int | None, hub_args: tuple[str, ...] = ()) -> int:
    """Serve the hub to a browser until stopped and return the exit code."""
    options = resolve(host, port, hub_args)
    WebHub(options, bind(options.host, options.port)).run()
    return 130
