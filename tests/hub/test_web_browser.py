"""The hub in a real browser: `hub --web` as a subprocess, driven from headless Debian chromium.

What the page shows is read back with pyte from the websocket frames chromium received (its
performance log); a screenshot of each page is kept in tests/artifacts/ (gitignored).
"""
from __future__ import annotations

import time

import pytest

from app.hub.book_choice import KINDS
from tests.hub.web_support import (assert_real_png, browser_only, ffprobe_chapters, listening, page,  # noqa: F401
                                   start_hub)


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

    local = f"http://127.0.0.1:{hub.port}/"
    assert any(url.startswith(local) for url in page.requests.values())
    assert page.foreign_requests(local) == {}, "the page asks no other host for anything"

    page.keys("g")
    # The label lists the formats table's names (app/book/formats/table.py), as the terminal hub does.
    page.wait_text(f"Book file ({KINDS})")
    assert_real_png(page.screenshot("web-hub-generate"))

    assert listening(hub.proc.pid) == {("127.0.0.1", hub.port)}, "the hub process listens on nothing"
    assert hub.stop() == 130


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
