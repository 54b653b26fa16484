"""Stopping from the hub: the run screen's Cancel (Textual's pilot) and `hub --web` stopped by SIGTERM.

The same held double as the CLI cells keeps chapter 1's last chunk in flight while the rest of the book
is done, so every stop below finds a chapter half encoded: the case that used to wait for ever in
ChapterWork.results().
"""
from __future__ import annotations

import asyncio
import re
import signal
import time

import pytest

from app.core import paths
from app.request import ConvertRequest
from app.hub.app import HubApp
from app.hub.run_screen import RunScreen
from app.pipeline.planmemo import MEMO_NAME
from tests.hub.conftest import screen_text, wait_for
from tests.pipeline.helpers import synthesized_count

from tests.hub.web_support import start_hub  # noqa: F401  (fixture)

from .conftest import CHUNK_SIZE, TOTAL_CHUNKS, answered, booting, bound, encoded_chapters, left_running, temp_files

pytestmark = pytest.mark.hub


def request(book, out, url) -> ConvertRequest:
    return ConvertRequest(book=book, output=out, backend="sglomni", model="moss_tts_local", api_urls=(url,),
                          chunk_size=CHUNK_SIZE, concurrency=2)


async def cancelled(pilot, app: HubApp, run: RunScreen) -> float:
    """Press C (Cancel) on the run screen; return the seconds until the run ended, cancelled."""
    pressed = time.monotonic()
    await pilot.press("c")
    await wait_for(pilot, lambda: run.outcome, timeout=60, what="the end of the run")
    elapsed = time.monotonic() - pressed
    assert run.outcome == "cancelled", screen_text(app)
    return elapsed


async def test_the_hubs_cancel_with_a_chapter_half_encoded_ends_within_its_promise(
        tmp_path, small_book, held_double, fault_log, isolated_home, fault_env, run_cli):
    double = held_double(answer="500")
    out = tmp_path / "river.m4b"
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        run = RunScreen(request(small_book, out, double.url))
        await app.push_screen(run)
        await wait_for(pilot, lambda: double.held() and len(answered(fault_log)) == TOTAL_CHUNKS - 1
                       and encoded_chapters(isolated_home), timeout=60, what="chapter 1 waiting for its held chunk")
        kept = encoded_chapters(isolated_home)
        await pilot.press("c")
        await wait_for(pilot, lambda: "press C again" in screen_text(app), timeout=10, what="the drain line")
        promised = re.search(r"about (\d+) s", screen_text(app))
        released = double.release()
        await wait_for(pilot, lambda: run.outcome, timeout=60, what="the end of the run")
        elapsed = time.monotonic() - released
        assert run.outcome == "cancelled", screen_text(app)
    assert elapsed <= bound(float(promised.group(1)) if promised else 1.0), f"the Cancel took {elapsed:.1f} s"
    assert temp_files(isolated_home, tmp_path) == [] and left_running(isolated_home, tmp_path) == []
    assert encoded_chapters(isolated_home) == kept

    rerun = run_cli(*[small_book, "--backend", "sglomni", "--model", "moss_tts_local", "--api-url", double.url,
                      "--output", out, "--chunk-size", CHUNK_SIZE], timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert synthesized_count(rerun.stderr) == 1, "the re-run redoes the one request that was in flight"


@pytest.mark.parametrize("stage", ["planned", "encode", "mux", "read-along"],
                         ids=["planning", "final-encode", "mux", "read-along"])
async def test_the_hubs_cancel_outside_synthesis_stops_at_once(stage, tmp_path, small_book, held_double,
                                                              isolated_home, monkeypatch, fault_log):
    double = held_double(answer="ok")
    double.release()
    monkeypatch.setenv("AUDIOBOOK_TEST_PAUSE_AT", stage)
    out = tmp_path / "river.m4b"
    req = request(small_book, out, double.url)
    if stage == "read-along":
        req.fmt = "m4b,vtt"
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        run = RunScreen(req)
        await app.push_screen(run)
        # Held at the pause point once what comes before it is done: the plan saved, every chunk in,
        # every chapter encoded, the M4B in place.
        reached = {"planned": lambda: any(paths.work_dir().glob(f"*/{MEMO_NAME}")),
                   "encode": lambda: run.stats.done == TOTAL_CHUNKS,
                   "mux": lambda: any(tmp_path.glob(".river.*.part.m4b")),
                   "read-along": lambda: out.exists()}[stage]
        await wait_for(pilot, reached, timeout=60, what=f"the {stage} pause")
        elapsed = await cancelled(pilot, app, run)
    assert elapsed <= bound(0), f"the Cancel took {elapsed:.1f} s"
    assert not out.exists() or stage == "read-along", "no audiobook from a run stopped before its mux ended"
    assert not out.with_suffix(".vtt").exists()
    if stage == "planned":
        assert fault_log() == [], "a run cancelled while planning sends no request"
    assert temp_files(isolated_home, tmp_path) == [] and left_running(isolated_home, tmp_path) == []


@pytest.mark.slow
async def test_hub_web_stopped_by_sigterm_with_a_chapter_half_encoded_ends_and_resumes(
        tmp_path, small_book, held_double, fault_log, isolated_home, start_hub, run_cli):
    import aiohttp

    from app.core import settings
    from tests.hub.web_support import Terminal

    double = held_double(answer="500")
    conf = settings.load()
    conf.backend, conf.model, conf.chunk_size = "sglomni", "moss_tts_local", CHUNK_SIZE
    conf.sglomni.remote_url = double.url
    conf.output_dir = str(tmp_path / "out")
    settings.save(conf)
    hub = start_hub("--port", "0")
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(Terminal.url(hub)) as ws:
            page = Terminal(ws)
            await page.start_run(small_book)
            deadline = time.monotonic() + 60
            while not (double.held() and len(answered(fault_log)) == TOTAL_CHUNKS - 1
                       and encoded_chapters(isolated_home)):
                assert time.monotonic() < deadline, f"the run never reached its held chunk:\n{page.shown()}"
                await asyncio.sleep(0.05)
            kept = encoded_chapters(isolated_home)
            sent = time.monotonic()
            hub.proc.send_signal(signal.SIGTERM)  # the hub cancels its run (a stop-now) and exits
            code = hub.proc.wait(timeout=60)
            elapsed = time.monotonic() - sent
            assert code == 130 and hub.stop() == 130  # stop(): no process of its group is left
            print(f"web hub stopped in {elapsed:.2f} s")
    assert elapsed <= bound(0), f"hub --web took {elapsed:.1f} s to stop with a run going"
    assert temp_files(isolated_home, tmp_path) == [] and left_running(isolated_home, tmp_path) == []
    assert encoded_chapters(isolated_home) == kept
    assert not list((tmp_path / "out").glob("*.m4b")), "no audiobook from a stopped run"

    double.release()
    rerun = run_cli(small_book, "--output", tmp_path / "out" / "river.m4b", timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert synthesized_count(rerun.stderr) == 1, "the re-run redoes the one request that was in flight"


async def test_the_hubs_cancel_while_the_managed_server_boots_stops_the_boot(
        tmp_path, small_book, isolated_home, fault_env, monkeypatch):
    from app.backends.sglomni import pidfiles
    from tests.sglomni.conftest import free_port

    port = free_port()
    monkeypatch.setenv("SGO_DOUBLE_BOOT_DELAY", "60")  # the double loads its "model" for a minute
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        run = RunScreen(ConvertRequest(book=small_book, output=tmp_path / "river.m4b", backend="sglomni",
                                       model="moss_tts_local", port=port, chunk_size=CHUNK_SIZE))
        await app.push_screen(run)
        await wait_for(pilot, lambda: booting(port), timeout=60, what="the boot")
        elapsed = await cancelled(pilot, app, run)
    assert elapsed <= bound(0), f"the Cancel took {elapsed:.1f} s"
    assert pidfiles.read_pidfile(port) is None, "the booting server was stopped"
    assert left_running(isolated_home, tmp_path, fault_env) == []
