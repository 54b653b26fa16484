"""The hub in a browser: `audiobook.py hub --web` as a real subprocess, driven from headless chromium.

The page paints the terminal on a canvas, so its text is read back independently: the websocket
frames chromium received (its performance log) are fed to pyte, a terminal emulator of its own.
A screenshot of each page is kept in tests/artifacts/ (gitignored).
"""
from __future__ import annotations

import base64
import http.client
import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.hub.conftest import ROOT, free_port, wait_for

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
        try:
            os.killpg(self.proc.pid, 0)
            left = True
        except ProcessLookupError:
            left = False
        assert not left, f"a process of hub --web outlived it: {subprocess.run(['ps', '-o', 'pid,stat,args', '-g', str(self.proc.pid)], capture_output=True, text=True).stdout} {''.join(self.output)}"
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

    def keys(self, *keys: str) -> None:
        """Type into the terminal, as a user at the keyboard does."""
        from selenium.webdriver.common.by import By

        self.driver.find_element(By.CSS_SELECTOR, "textarea.xterm-helper-textarea").send_keys(*keys)

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


# -- tests -----------------------------------------------------------------------------------------


@browser_only
@pytest.mark.browser
@pytest.mark.slow
def test_the_page_shows_the_menu_and_the_keyboard_picks_an_entry(start_hub, page):
    hub = start_hub("--port", "0")
    assert listening(hub.proc.pid) == {("127.0.0.1", hub.port)}, "by default only loopback listens"

    page.open(hub.url)
    assert "token" not in page.driver.current_url, "the token moves from the address bar into a cookie"
    page.wait_text("Generate Audiobooks")
    assert "Start/Stop Backend Servers" in page.text()
    assert_real_png(page.screenshot("web-hub-menu"))

    page.keys("g")
    page.wait_text("Book file (EPUB, TXT, Markdown, HTML)")
    assert_real_png(page.screenshot("web-hub-generate"))

    assert listening(hub.proc.pid) == {("127.0.0.1", hub.port)}, "the hub process listens on nothing"
    assert hub.stop() == 130


def ffprobe_chapters(path: Path) -> list[str]:
    out = subprocess.run(["ffprobe", "-v", "error", "-show_chapters", "-of", "json", str(path)],
                         capture_output=True, text=True, check=True, timeout=60).stdout
    return [c.get("tags", {}).get("title", "") for c in json.loads(out)["chapters"]]


@browser_only
@pytest.mark.browser
@pytest.mark.slow
def test_a_conversion_goes_on_when_the_tab_closes_and_the_reopened_page_shows_it(
        start_hub, page, tmp_path, isolated_home):
    book = tmp_path / "two-notes.txt"
    book.write_text("# The First Note\n\nThe kettle sang on the stove.\n\n"
                    "# The Second Note\n\nRain tapped at the window.\n")
    hub = start_hub("--port", "0", cwd=tmp_path)
    page.open(hub.url)
    page.wait_text("Generate Audiobooks")
    page.keys("g")
    page.wait_text("Book file (EPUB")
    page.keys(str(book))
    page.wait_text(str(book))
    page.keys("\x12")  # Ctrl+R: Start
    page.wait_text("two-notes.txt on piper")

    page.open("about:blank")  # the tab leaves: its websocket closes, the hub goes on alone
    outputs = isolated_home / "output"
    deadline = time.monotonic() + 180
    while not list(outputs.glob("*.m4b")):
        assert time.monotonic() < deadline, f"no audiobook was written; server said:\n{''.join(hub.output)}"
        time.sleep(0.5)

    page.open(f"http://127.0.0.1:{hub.port}/")  # the cookie stands in for the token now
    shown = page.wait_text("Done:")
    assert "two-notes.txt on piper" in shown, "the reopened page shows the same run, not a new hub"
    assert page.sockets == 2
    assert b"\x1b[?1000h" in page.raw, "the new page gets the hub's mouse reporting switched on again"
    assert_real_png(page.screenshot("web-hub-reattached"))
    [m4b] = outputs.glob("*.m4b")
    assert ffprobe_chapters(m4b) == ["The First Note", "The Second Note"]
    assert hub.stop() == 130


def test_on_another_address_nothing_is_served_without_the_token(start_hub):
    address = this_machines_address()
    if address is None:
        pytest.skip("this machine has no address but loopback")
    hub = start_hub("--host", "0.0.0.0", "--port", "0")
    assert listening(hub.proc.pid) == {("0.0.0.0", hub.port)}
    assert "?token=" in hub.url and len(hub.token) >= 32
    hub.wait_line(r"reachable from other machines")

    for path in ("/", "/static/js/textual.js", f"/?token={hub.token[:-1]}x", "/download/anything"):
        assert request(address, hub.port, path).status == 403, path
    assert request(address, hub.port, "/ws?width=80&height=24", WS_HEADERS).status == 403

    admitted = request(address, hub.port, f"/?token={hub.token}")
    assert admitted.status == 302 and admitted.getheader("Location") == "/"
    cookie = admitted.getheader("Set-Cookie")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    jar = {"Cookie": cookie.split(";")[0]}
    index = http.client.HTTPConnection(address, hub.port, timeout=10)
    index.request("GET", "/", headers=jar)
    html = index.getresponse().read().decode()
    assert f'data-session-websocket-url="ws://{address}:{hub.port}/ws"' in html
    foreign = {**WS_HEADERS, **jar, "Origin": "http://evil.example"}
    assert request(address, hub.port, "/ws?width=80&height=24", foreign).status == 403
    assert hub.stop() == 130


def test_a_token_from_settings_is_required_and_never_printed(start_hub):
    from app import settings

    conf = settings.Settings()
    conf.web.token = "correct horse battery staple"
    settings.save(conf)
    hub = start_hub("--port", "0")
    assert "correct horse" not in "".join(hub.output)
    assert request("127.0.0.1", hub.port, "/?token=wrong").status == 403
    assert request("127.0.0.1", hub.port, "/?token=correct%20horse%20battery%20staple").status == 302
    assert hub.stop() == 130


def test_settings_alone_cannot_open_the_page_to_the_network(run_cli):
    from app import settings

    conf = settings.Settings()
    conf.web.host = "0.0.0.0"
    settings.save(conf)
    result = run_cli("hub", "--web", timeout=60)
    assert result.returncode == 2
    assert "not a loopback address" in result.stderr and "--host 0.0.0.0" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_taken_port_is_one_line(run_cli):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_cli("hub", "--web", "--port", str(port), timeout=60)
    assert result.returncode == 2
    assert f"Cannot listen on 127.0.0.1:{port}" in result.stderr and "--port" in result.stderr
    assert "Traceback" not in result.stderr


def test_host_and_port_belong_to_web(run_cli):
    result = run_cli("hub", "--port", str(free_port()), timeout=60)
    assert result.returncode == 2 and "--web" in result.stderr


async def test_the_file_picker_browses_the_current_folder_or_home(tmp_path, monkeypatch):
    from textual.widgets import DirectoryTree

    from app.hub.app import HubApp
    from app.hub.modals import FilePickModal

    home, here = tmp_path / "home", tmp_path / "here"
    (home / "Books").mkdir(parents=True)
    here.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(here)
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("g", "ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, FilePickModal), what="the file picker")
        tree = app.screen.query_one(DirectoryTree)
        assert Path(tree.path) == here
        await pilot.press("~")
        await wait_for(pilot, lambda: Path(tree.path) == home, what="the tree to show home")
        await pilot.press("full_stop")
        await wait_for(pilot, lambda: Path(tree.path) == here, what="the tree to show the current folder")


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


@pytest.mark.slow
async def test_a_second_tab_takes_the_same_hub_over_and_quitting_ends_it(start_hub):
    import aiohttp

    hub = start_hub("--port", "0")
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(Terminal.url(hub)) as first_ws:
            first = Terminal(first_ws)
            await first.until("Generate Audiobooks")
            await first.type("t")
            await first.until("SGLang-Omni remote URL")
            async with session.ws_connect(Terminal.url(hub)) as second_ws:
                second = Terminal(second_ws)
                # A fresh page sees the hub where the first left it (redrawn), not a new hub's menu.
                await second.until("SGLang-Omni remote URL")
                assert "Generate Audiobooks" not in second.shown()
                message = await first_ws.receive(timeout=10)
                while message.type == aiohttp.WSMsgType.BINARY:  # what the hub drew before the takeover
                    message = await first_ws.receive(timeout=10)
                assert message.type == aiohttp.WSMsgType.CLOSE and "another tab" in message.extra
                await second.type("\x1b")  # Escape: back to the menu, from the page that holds the hub
                await second.until("Generate Audiobooks")
                await second.type("\x11")  # Ctrl+Q: the hub ends, and the page is told
                message = await second_ws.receive(timeout=30)
                while message.type == aiohttp.WSMsgType.BINARY:
                    message = await second_ws.receive(timeout=30)
                assert message.type == aiohttp.WSMsgType.CLOSE
        async with session.ws_connect(Terminal.url(hub)) as third_ws:
            await Terminal(third_ws).until("Generate Audiobooks")  # a fresh hub for the next page
    assert hub.stop() == 130


async def test_a_second_ctrl_c_ends_the_server_and_its_hub_at_once(start_hub):
    import aiohttp

    hub = start_hub("--port", "0")
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(Terminal.url(hub)) as ws:
            await Terminal(ws).until("Generate Audiobooks")
            hub.proc.send_signal(signal.SIGINT)
            time.sleep(0.05)
            hub.proc.send_signal(signal.SIGINT)
            assert hub.stop(timeout=10) == 130  # and stop() finds no process of the server's group left


@pytest.mark.slow
async def test_stopping_the_server_mid_run_stops_the_conversion_cleanly_and_it_resumes(
        start_hub, isolated_home, run_cli, tmp_path):
    import aiohttp

    book = tmp_path / "four-lines.txt"
    book.write_text("".join(f"# Part {n}\n\nThe lamp {n} was lit at dusk.\n\nThe door {n} was shut at night.\n\n"
                            for n in (1, 2)))
    hub = start_hub("--port", "0")
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(Terminal.url(hub)) as ws:
            page = Terminal(ws)
            await page.until("Generate Audiobooks")
            await page.type("g")
            await page.until("Book file")
            await page.type(str(book))
            await page.until(re.escape(str(book)))
            await page.type("\x12")  # Ctrl+R: Start
            done, total = map(int, (await page.until(r"chunks ([1-9]\d*)/(\d+)")).groups())
            assert done < total, "the run finished before the server could be stopped mid-way"
            assert hub.stop() == 130  # Ctrl+C on the server: the hub cancels the run and exits

    assert not list((isolated_home / "output").glob("*")), "no half-written audiobook is left"
    again = run_cli(str(book), timeout=300)
    assert again.returncode == 0, again.stderr
    resumed = int(re.search(r"\((\d+) already done\)", again.stderr + again.stdout).group(1))
    assert resumed >= done, "the re-run picks up the chunks finished before the stop"


STUBBORN_HUB = r"""
import json, signal, sys
if sys.argv[1] == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
sys.stdout.buffer.write(b"__GANGLION__\n")
sys.stdout.buffer.flush()
stdin = sys.stdin.buffer
while header := stdin.read(5):
    payload = stdin.read(int.from_bytes(header[1:], "big"))
    if header[:1] == b"M" and json.loads(payload)["type"] == "quit" and sys.argv[1] == "polite":
        sys.exit(0)
"""


@pytest.mark.parametrize("kind, code", [("polite", 0), ("stubborn", -signal.SIGKILL)])
async def test_a_hub_that_will_not_quit_is_terminated_then_killed(tmp_path, kind, code):
    from textual_serve.download_manager import DownloadManager

    from app.hub.web_session import HubProcess

    script = tmp_path / "hub.py"
    script.write_text(STUBBORN_HUB)

    async def ignore(*_) -> None:
        return None

    hub = HubProcess([sys.executable, str(script), kind], write_bytes=ignore, write_str=ignore, close=ignore,
                     download_manager=DownloadManager())
    await hub.start(80, 24)
    assert hub.alive
    await hub.finish(quit_seconds=1.0, term_seconds=0.5)
    assert hub._process.returncode == code
    assert not hub.alive
