"""Helpers for the web hub's tests: the server as a subprocess, a browser page, a websocket terminal.

The page paints the terminal on a canvas, so its text is read back independently: the websocket
frames the client received are fed to pyte, a terminal emulator of its own.
"""
from __future__ import annotations

import base64
import http.client
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.hub.conftest import ROOT

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
ARTIFACTS = ROOT / "tests" / "artifacts"
#: Seconds a page may take to show what it should (chromium and the hub both start cold).
PAGE_SECONDS = 60.0
browser_only = pytest.mark.skipif(not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
                                  reason="needs Debian's chromium and chromium-driver: bash scripts/system-deps.sh")


# -- the server ------------------------------------------------------------------------------------


class WebHub:
    """`audiobook.py hub --web ARGS` running, with the URL it printed."""

    def __init__(self, *args: str, cwd: Path = ROOT) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "audiobook.py"), "hub", "--web", "--no-setup", *args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd, start_new_session=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.url = self.wait_line(r"served at (\S+)").group(1)
        self.port = urlsplit(self.url).port

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.output.append(line)
            self.lines.put(line)

    def wait_line(self, pattern: str, timeout: float = 30.0) -> re.Match:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                assert self.proc.poll() is None, f"hub --web exited early:\n{''.join(self.output)}"
                continue
            if match := re.search(pattern, line):
                return match
        raise AssertionError(f"hub --web never printed {pattern!r}:\n{''.join(self.output)}")

    @property
    def token(self) -> str:
        return parse_qs(urlsplit(self.url).query)["token"][0]

    def stop(self, timeout: float = 60.0) -> int:
        """Ctrl+C the server; return its exit code after checking it left no process behind."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        code = self.proc.wait(timeout=timeout)
        # A zombie of the group has ended: only its reaping by init is pending, which is not the hub's
        # to do once it has exited (seen on a loaded machine: "[python] <defunct>").
        left = [line for line in subprocess.run(["ps", "-o", "pid=,stat=,args=", "-g", str(self.proc.pid)],
                                                capture_output=True, text=True).stdout.splitlines()
                if line.split()[1:2] and not line.split()[1].startswith("Z")]
        assert not left, f"a process of hub --web outlived it: {left} {''.join(self.output)}"
        return code


@pytest.fixture
def start_hub():
    started: list[WebHub] = []

    def _start(*args: str, cwd: Path = ROOT) -> WebHub:
        started.append(WebHub(*args, cwd=cwd))
        return started[-1]

    yield _start
    for hub in started:
        if hub.proc.poll() is None:
            os.killpg(hub.proc.pid, signal.SIGKILL)
            hub.proc.wait()


def listening(pid: int) -> set[tuple[str, int]]:
    """Return the (address, port) of every TCP socket that `pid` or a descendant listens on."""
    pids, todo = set(), [pid]
    while todo:
        p = todo.pop()
        pids.add(p)
        for task in Path(f"/proc/{p}/task").glob("*/children"):
            todo += [int(c) for c in task.read_text().split()]
    inodes = set()
    for p in pids:
        for fd in Path(f"/proc/{p}/fd").glob("*"):
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    found = set()
    for table, size in (("/proc/net/tcp", 4), ("/proc/net/tcp6", 16)):
        for row in Path(table).read_text().splitlines()[1:]:
            cols = row.split()
            if cols[3] != "0A" or cols[9] not in inodes:  # 0A: LISTEN
                continue
            hex_ip, hex_port = cols[1].split(":")
            raw = bytes.fromhex(hex_ip)
            # /proc prints each 32-bit word in host (little-endian) order.
            raw = b"".join(raw[i:i + 4][::-1] for i in range(0, size, 4))
            family = socket.AF_INET if size == 4 else socket.AF_INET6
            found.add((socket.inet_ntop(family, raw), int(hex_port, 16)))
    return found


def this_machines_address() -> str | None:
    """Return an IPv4 address of this machine that is not loopback, if it has one."""
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            if not info[4][0].startswith("127."):
                return info[4][0]
    except socket.gaierror:
        pass
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # no packet is sent; this only picks the outgoing interface
            address = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def request(host: str, port: int, path: str, headers: dict | None = None) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection(host, port, timeout=10)
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    response.read()
    conn.close()
    return response


WS_HEADERS = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
              "Sec-WebSocket-Key": base64.b64encode(b"0123456789abcdef").decode()}


# -- the browser -----------------------------------------------------------------------------------


class Page:
    """Headless Debian chromium through chromedriver, reading the hub's screen back with pyte."""

    def __init__(self, profile: Path) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--window-size=1200,900", f"--user-data-dir={profile}"):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        self.driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
        self.screen = self.stream = None
        self.sockets = 0
        #: The raw terminal bytes the current websocket brought.
        self.raw = b""
        #: Every request the page made (id -> URL), and why the browser refused any (id -> reason).
        self.requests: dict[str, str] = {}
        self.refused: dict[str, str] = {}

    def open(self, url: str) -> None:
        self.driver.get(url)

    def _pump(self) -> None:
        import pyte

        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.webSocketCreated":
                query = parse_qs(urlsplit(message["params"]["url"]).query)
                self.screen = pyte.Screen(int(query["width"][0]), int(query["height"][0]))
                self.stream = pyte.ByteStream(self.screen)
                self.sockets += 1
                self.raw = b""
            elif message["method"] == "Network.requestWillBeSent":
                self.requests[message["params"]["requestId"]] = message["params"]["request"]["url"]
            elif message["method"] == "Network.loadingFailed":
                self.refused[message["params"]["requestId"]] = message["params"].get("blockedReason", "")
            elif message["method"] == "Network.webSocketFrameReceived" and self.stream is not None:
                frame = message["params"]["response"]
                if frame["opcode"] == 2:  # binary: terminal output
                    data = base64.b64decode(frame["payloadData"])
                    self.raw += data
                    self.stream.feed(data)

    def text(self) -> str:
        """Return what the page's terminal shows now."""
        self._pump()
        return "" if self.screen is None else "\n".join(line.rstrip() for line in self.screen.display)

    def wait_text(self, needle: str, timeout: float = PAGE_SECONDS) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if needle in (shown := self.text()):
                return shown
            time.sleep(0.2)
        raise AssertionError(f"the page never showed {needle!r}; it shows:\n{self.text()}")

    def foreign_requests(self, origin: str) -> dict[str, str]:
        """Return the requests for anything but `origin` that the browser did not refuse (URL -> reason)."""
        self._pump()
        return {url: self.refused.get(rid, "sent") for rid, url in self.requests.items()
                if url.startswith(("http:", "https:", "ws:", "wss:")) and not url.startswith(origin)
                and self.refused.get(rid) != "csp"}

    def keys(self, *keys: str) -> None:
        """Type into the terminal, as a user at the keyboard does.

        The terminal is focused first (xterm.js's own helper textarea takes the keys), then the keys go
        through WebDriver's actions as key events to whatever has the focus. `element.send_keys` on that
        textarea is refused by some Chromium builds as "element not interactable" (it is a 0-size, off-screen
        input); a click to focus it would reach the hub as a mouse event. A control character ("\x12")
        is typed as Ctrl and its letter, as a person types it.
        """
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        focused = self.driver.execute_script(
            "const t = document.querySelector('textarea.xterm-helper-textarea');"
            "if (t) { t.focus(); } return t !== null && document.activeElement === t;")
        assert focused, "the page has no terminal to type into (no xterm.js helper textarea)"
        actions = ActionChains(self.driver)
        for text in keys:
            for ch in text:
                if "\x01" <= ch <= "\x1a" and ch not in "\t\n\r":
                    actions.key_down(Keys.CONTROL).send_keys(chr(ord(ch) + 96)).key_up(Keys.CONTROL)
                else:
                    actions.send_keys(ch)
        actions.perform()

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        assert self.driver.save_screenshot(str(path))
        return path

    def close(self) -> None:
        self.driver.quit()


@pytest.fixture
def page(tmp_path):
    p = Page(tmp_path / "chromium-profile")
    yield p
    p.close()


def assert_real_png(path: Path) -> None:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 10_000, "the screenshot is too small to show the hub"


def ffprobe_chapters(path: Path) -> list[str]:
    out = subprocess.run(["ffprobe", "-v", "error", "-show_chapters", "-of", "json", str(path)],
                         capture_output=True, text=True, check=True, timeout=60).stdout
    return [c.get("tags", {}).get("title", "") for c in json.loads(out)["chapters"]]


# -- a websocket client ----------------------------------------------------------------------------


class Terminal:
    """A plain websocket client speaking textual.js's protocol, reading the screen back with pyte."""

    WIDTH, HEIGHT = 120, 40

    def __init__(self, ws) -> None:
        import pyte

        self.ws = ws
        self.screen = pyte.Screen(self.WIDTH, self.HEIGHT)
        self.stream = pyte.ByteStream(self.screen)
        self.closed = False

    @classmethod
    def url(cls, hub: WebHub) -> str:
        return f"http://127.0.0.1:{hub.port}/ws?width={cls.WIDTH}&height={cls.HEIGHT}&token={hub.token}"

    def shown(self) -> str:
        return "\n".join(self.screen.display)

    async def until(self, pattern: str, timeout: float = PAGE_SECONDS) -> re.Match:
        import aiohttp

        deadline = time.monotonic() + timeout
        while not (match := re.search(pattern, self.shown())):
            assert time.monotonic() < deadline, f"never saw {pattern!r}:\n{self.shown()}"
            message = await self.ws.receive(timeout=deadline - time.monotonic())
            if message.type == aiohttp.WSMsgType.BINARY:
                self.stream.feed(message.data)
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
                self.closed = True
                raise AssertionError(f"the server closed this page while waiting for {pattern!r}")
        return match

    async def type(self, text: str) -> None:
        await self.ws.send_str(json.dumps(["stdin", text]))

    async def start_run(self, book: Path) -> None:
        """From the hub's menu: Generate Audiobooks, the book file typed in, Ctrl+R (Start)."""
        await self.until("Generate Audiobooks")
        await self.type("g")
        await self.until("Book file")
        await self.type(str(book))
        await self.until(re.escape(str(book)))
        await self.type("\x12")  # Ctrl+R: Start
