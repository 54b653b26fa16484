"""`audiobook.py hub --web` as a real subprocess: the token, the bind address, errors, the shared hub's lifecycle.

Driven with plain HTTP requests and a websocket client speaking textual.js's protocol;
tests/hub/test_web_browser.py drives it from a real browser.
"""
from __future__ import annotations

import http.client
import re
import signal
import socket
import sys
import time
from pathlib import Path

import pytest

from tests.hub.conftest import free_port, wait_for
from tests.hub.web_support import (WS_HEADERS, Terminal, listening, request, start_hub,  # noqa: F401 (fixture)
                                   this_machines_address)


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
    from app.core import settings

    conf = settings.Settings()
    conf.web.token = "correct horse battery staple"
    settings.save(conf)
    hub = start_hub("--port", "0")
    assert "correct horse" not in "".join(hub.output)
    assert request("127.0.0.1", hub.port, "/?token=wrong").status == 403
    assert request("127.0.0.1", hub.port, "/?token=correct%20horse%20battery%20staple").status == 302
    assert hub.stop() == 130


def test_settings_alone_cannot_open_the_page_to_the_network(run_cli):
    from app.core import settings

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
        start_hub, isolated_home, run_cli, tmp_path, monkeypatch):
    import aiohttp

    # Held, not raced: the first chunk appended to its chapter pauses the encoder until the stop, so the
    # 8-chunk run cannot finish before the server is stopped (on an idle machine Piper did it first).
    monkeypatch.setenv("AUDIOBOOK_TEST_PAUSE_AT", "stitch")

    book = tmp_path / "four-lines.txt"
    book.write_text("".join(f"# Part {n}\n\nThe lamp {n} was lit at dusk.\n\nThe door {n} was shut at night.\n\n"
                            for n in (1, 2)))
    hub = start_hub("--port", "0")
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(Terminal.url(hub)) as ws:
            page = Terminal(ws)
            await page.start_run(book)
            done, total = map(int, (await page.until(r"chunks ([1-9]\d*)/(\d+)")).groups())
            assert hub.stop() == 130  # Ctrl+C on the server: the hub cancels the run and exits

    assert not list((isolated_home / "output").glob("*")), "no half-written audiobook is left"
    monkeypatch.delenv("AUDIOBOOK_TEST_PAUSE_AT")
    again = run_cli(str(book), timeout=300)
    assert again.returncode == 0, again.stderr
    resumed = int(re.search(r"\((\d+) already done\)", again.stderr + again.stdout).group(1))
    assert resumed >= done, "the re-run picks up the chunks finished before the stop"


STUBBORN_HUB = r"""
import json, signal, sys
if sys.argv[1] == "broken":
    sys.exit("the hub could not start: a message for the log")
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


# The polite hub gets time to start on a busy machine; it exits as soon as it reads "quit".
@pytest.mark.parametrize("kind, quit_seconds, code", [("polite", 30.0, 0), ("stubborn", 1.0, -signal.SIGKILL)])
async def test_a_hub_that_will_not_quit_is_terminated_then_killed(tmp_path, kind, quit_seconds, code):
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
    await hub.finish(quit_seconds=quit_seconds, term_seconds=0.5)
    assert hub._process.returncode == code
    assert not hub.alive


async def test_a_hub_that_fails_leaves_its_message_in_the_log(tmp_path):
    from textual_serve.download_manager import DownloadManager

    from app.hub.web_session import HubProcess, hub_log

    script = tmp_path / "hub.py"
    script.write_text(STUBBORN_HUB)

    async def ignore(*_) -> None:
        return None

    hub = HubProcess([sys.executable, str(script), "broken"], write_bytes=ignore, write_str=ignore, close=ignore,
                     download_manager=DownloadManager())
    await hub.start(80, 24)
    await hub.finish(quit_seconds=10.0, term_seconds=1.0)
    assert hub._process.returncode == 1
    assert "the hub could not start: a message for the log" in hub_log().read_text()
