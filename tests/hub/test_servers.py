"""Start/Stop Backend Servers against the server double installed as the managed venv's sgl-omni."""
from __future__ import annotations

import os

import pytest

from app.backends.sglomni import discovery, pidfiles, procgroup
from app.hub.app import HubApp
from app.hub.modals import PickModal
from app.hub.servers import ServersScreen
from tests.hub.conftest import fake_download, screen_text, wait_for

pytestmark = pytest.mark.hub


async def open_servers(pilot) -> ServersScreen:
    await pilot.press("s")
    await pilot.pause()
    assert isinstance(pilot.app.screen, ServersScreen)
    return pilot.app.screen


async def test_zero_models_points_at_configure(double_venv, port):
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_servers(pilot)
        await pilot.press("s")
        await wait_for(pilot, lambda: "Status: no model downloaded" in screen_text(app), what="the cache scan")
        text = screen_text(app)
        assert "Configure Backends… → Configure SGLang-Omni" in text
        assert pidfiles.read_pidfile(port) is None and not screen.busy


async def test_one_model_starts_without_asking_and_stops(double_venv, port):
    fake_download("voxtral_tts")
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_servers(pilot)
        await pilot.press("s")
        await pilot.pause()
        assert not isinstance(app.screen, PickModal)
        await wait_for(pilot, lambda: "Status: ready" in screen_text(app), timeout=30, what="ready")
        assert f"voxtral_tts on port {port}" in screen_text(app)
        rec = pidfiles.read_pidfile(port)
        assert rec is not None and rec.model == "voxtral_tts" and rec.alive()
        assert discovery.hosted_models(f"http://127.0.0.1:{port}")[0] == "voxtral_tts"
        # The live log shows the double's boot lines (the argv line is written by ManagedServer).
        await wait_for(pilot, lambda: any("--model-path mistralai/Voxtral-4B-TTS-2603" in line
                                          for line in screen.query_one("#serverlog").lines), what="the log")
        await pilot.press("x")
        await wait_for(pilot, lambda: "Status: stopped" in screen_text(app), timeout=30, what="stopped")
        assert not rec.alive() and pidfiles.read_pidfile(port) is None


async def test_several_models_ask_which_and_start_the_choice(double_venv, port):
    fake_download("voxtral_tts")
    fake_download("higgs_audio_v3_tts")
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await open_servers(pilot)
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, PickModal), what="the model question")
        # The modal is the active screen before its first frame is drawn (seen empty on a loaded machine):
        # wait for what it lists rather than reading the first frame.
        await wait_for(pilot, lambda: "Higgs Audio v3 TTS" in screen_text(app) and "Voxtral TTS 4B" in screen_text(app),
                       what="both models in the question")
        # Catalog order: Higgs first, Voxtral second.
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: "Status: ready" in screen_text(app), timeout=30, what="ready")
        assert pidfiles.read_pidfile(port).model == "voxtral_tts"
        assert "voxtral_tts" in discovery.hosted_models(f"http://127.0.0.1:{port}")
        await pilot.press("x")
        await wait_for(pilot, lambda: "Status: stopped" in screen_text(app), timeout=30, what="stopped")


async def test_a_failed_boot_shows_failed_with_the_log_tail(double_venv, port, monkeypatch):
    monkeypatch.setenv("SGO_DOUBLE_CRASH", "3")
    fake_download("voxtral_tts")
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_servers(pilot)
        await pilot.press("s")
        await wait_for(pilot, lambda: "Status: failed" in screen_text(app), timeout=30, what="failed")
        assert "exited during boot with code 3" in screen_text(app)
        assert any(line.startswith("log tail:") for line in screen.query_one("#serverlog").lines)
        await wait_for(pilot, lambda: not screen.busy, what="the boot worker to finish")
        assert app.tasks == {}


async def test_zonos2_is_tagged_with_its_bf16_fallback(double_venv, port, monkeypatch):
    from app.backends.sglomni import venv

    # The DAC companions would be pip-installed into the test interpreter: say they are present.
    monkeypatch.setattr(venv, "missing_companions", lambda spec: [])
    fake_download("zonos2")
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await open_servers(pilot)
        await pilot.press("s")
        # No nvidia-smi here, so the compute capability is unknown and the bf16 config is chosen.
        await wait_for(pilot, lambda: "Status: ready — zonos2 (bf16 fallback)" in screen_text(app), timeout=30,
                       what="ready with the tag")
        assert pidfiles.read_pidfile(port).label == "zonos2 (bf16 fallback)"
        await pilot.press("x")
        await wait_for(pilot, lambda: "Status: stopped" in screen_text(app), timeout=30, what="stopped")


async def test_a_reopened_hub_finds_the_running_server(double_venv, port):
    fake_download("voxtral_tts")
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await open_servers(pilot)
        await pilot.press("s")
        await wait_for(pilot, lambda: "Status: ready" in screen_text(app), timeout=30, what="ready")
    # The server outlives the hub (it is not work in progress); a new hub reads its pid file.
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await open_servers(pilot)
        await wait_for(pilot, lambda: f"Status: ready — voxtral_tts on port {port}" in screen_text(app),
                       what="status from the pid file")
        await pilot.press("x")
        await wait_for(pilot, lambda: "Status: stopped" in screen_text(app), timeout=30, what="stopped")
    assert pidfiles.read_pidfile(port) is None


async def test_stop_during_a_boot_stops_it_cleanly(double_venv, port, monkeypatch):
    monkeypatch.setenv("SGO_DOUBLE_BOOT_DELAY", "30")
    fake_download("voxtral_tts")
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_servers(pilot)
        await pilot.press("s")
        await wait_for(pilot, lambda: "Status: starting — voxtral_tts" in screen_text(app), what="starting")
        rec = pidfiles.read_pidfile(port)
        assert rec is not None and rec.alive()
        await pilot.press("x")
        await wait_for(pilot, lambda: not screen.busy, timeout=30, what="the boot to end")
        await wait_for(pilot, lambda: "Status: stopped" in screen_text(app), what="stopped")
        assert "failed" not in screen_text(app)
        assert not rec.alive() and app.tasks == {}


async def test_a_server_that_never_answers_does_not_freeze_the_screen(port, tmp_path):
    """/health is probed in a worker: with the managed port held by a server that never answers
    (each probe waits out its 2 s timeout), the screen still takes keys at once."""
    import socket
    import sys
    import threading
    import time

    from app.core import proc

    hole = socket.socket()
    hole.bind(("127.0.0.1", port))
    hole.listen(16)  # connections are queued by the kernel, never answered
    holder = proc.spawn([sys.executable, "-c", "import time; time.sleep(60)"], new_session=True)
    held, release = threading.Event(), threading.Event()
    try:
        pidfiles.write_pidfile(pidfiles.PidRecord(
            pid=holder.pid, pgid=holder.pid, port=port, model="voxtral_tts", started_at=time.time(),
            log_path=str(tmp_path / "silent.log"), label="voxtral_tts",
            proc_start=procgroup.process_start_ticks(holder.pid)))
        app = HubApp(setup_wizard=False)
        async with app.run_test(size=(100, 40)) as pilot:
            screen = await open_servers(pilot)
            # A pause point, not a race with the probe's 2 s timeout (a loaded machine can take longer
            # than that to handle one key): each poll's worker, after its real /health probe of the
            # silent port, is held here until the menu is back. Had the UI thread waited for the poll,
            # the menu would never come back.
            real_status_line = screen.status_line

            def held_status_line():
                found = real_status_line()
                held.set()
                release.wait(60)
                return found

            screen.status_line = held_status_line
            await wait_for(pilot, held.is_set, what="a poll held after its probe")
            await pilot.press("escape")
            probe_in_flight_at_menu: list[bool] = []

            def back_at_menu() -> bool:
                if isinstance(app.screen, ServersScreen):
                    return False
                probe_in_flight_at_menu.append(screen._polling)
                return True

            await wait_for(pilot, back_at_menu, what="back to the menu")
            assert probe_in_flight_at_menu == [True], "the UI thread waited for a /health probe"
            release.set()
    finally:
        release.set()
        hole.close()
        os.killpg(holder.pid, 9)
        holder.wait(5)
        pidfiles.pid_file(port).unlink(missing_ok=True)
