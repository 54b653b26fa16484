"""Quit and Cancel in the hub (issue 11): one quit dialog at a time, progress under it, cancel from any state.

Driven with Textual's pilot against the managed server double (a real process speaking HTTP).
"""
from __future__ import annotations

import time

import pytest

from app.backends.sglomni import pidfiles
from app.backends.sglomni import server
from app.hub.app import HubApp
from app.hub.run_screen import RunScreen
from app.hub.modals import ConfirmModal
from tests.hub.conftest import screen_text, wait_for
from tests.hub.test_generate import choose_sglomni
from tests.hub.test_sglomni_runs import BOOK, pick_model

pytestmark = pytest.mark.hub


async def start_run(pilot, book) -> RunScreen:
    await pilot.press("g")
    await pilot.pause()
    form = pilot.app.screen
    form.query_one("#book").value = str(book)
    await choose_sglomni(pilot)
    await pick_model(pilot, "voxtral_tts")
    form.query_one("#voice").value = "voice:casual_male"
    form.query_one("#chunk").value = "12"
    await pilot.press("ctrl+r")
    run = pilot.app.screen
    assert isinstance(run, RunScreen)
    await wait_for(pilot, lambda: run.stats.done >= 1, timeout=40, what="the first chunk")
    return run


def quit_dialogs(app) -> int:
    return sum(isinstance(s, ConfirmModal) for s in app.screen_stack)


@pytest.mark.slow
async def test_double_quit_shows_one_dialog_progress_goes_on_and_cancel_stops(double_venv, port, tmp_path,
                                                                             monkeypatch):
    monkeypatch.setenv("SGO_DOUBLE_SLOW", "1.0")
    monkeypatch.setenv("SGO_DOUBLE_SLOTS", "2")
    book = tmp_path / "lighthouse.txt"
    book.write_text(BOOK)
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        run = await start_run(pilot, book)
        await pilot.press("ctrl+q")
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert quit_dialogs(app) == 1, "a second Ctrl+Q does not stack a second dialog"
        done = run.stats.done
        await wait_for(pilot, lambda: run.stats.done >= done + 2, timeout=30, what="progress under the dialog")
        assert quit_dialogs(app) == 1
        await pilot.press("n")  # stay
        await pilot.pause()
        assert quit_dialogs(app) == 0 and app.screen is run
        await pilot.press("c")
        await pilot.pause()
        assert "Stopping:" in screen_text(app) and "press C again" in screen_text(app)
        pressed = time.monotonic()
        await pilot.press("c")
        await wait_for(pilot, lambda: run.outcome, timeout=10, what="the stop")
        assert time.monotonic() - pressed < 3
        assert run.outcome == "cancelled", screen_text(app)
        assert run.stats.done < run.stats.total


@pytest.mark.slow
async def test_quit_during_a_run_stops_it_and_its_server(double_venv, port, tmp_path, monkeypatch):
    monkeypatch.setenv("SGO_DOUBLE_SLOW", "0.5")
    # Held, not raced: the first chunk appended to its chapter pauses the encoder until the stop, so the
    # run cannot finish before the quit dialog is answered (41 chunks all in flight at once are done
    # in a few seconds, sooner than a loaded machine answers the dialog).
    monkeypatch.setenv("AUDIOBOOK_TEST_PAUSE_AT", "stitch")
    book = tmp_path / "lighthouse.txt"
    book.write_text(BOOK)
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        run = await start_run(pilot, book)
        await pilot.press("ctrl+q")
        # Waited for, not paused once: on a loaded machine the dialog can take more than one pause
        # to appear, and a "y" pressed before it is not an answer (seen once in a full run beside benchmarks).
        await wait_for(pilot, lambda: quit_dialogs(app) == 1, timeout=10, what="the quit dialog")
        assert run.running, "the run is held at its pause point, not finished"
        await pilot.press("y")
        await wait_for(pilot, run.stop.now.is_set, timeout=10, what="the stop")
    assert run.stop.now.is_set(), "quitting stops the run at once, as a second Ctrl-C does"
    assert run.outcome != "done", "the run was stopped, not finished"
    deadline = time.monotonic() + 15
    while pidfiles.read_pidfile(port) is not None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert pidfiles.read_pidfile(port) is None, "the run's managed server was stopped"
