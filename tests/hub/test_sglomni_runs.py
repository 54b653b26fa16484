"""Generate runs and server discovery against the sglang-omni server double (real HTTP, real process)."""
from __future__ import annotations

import json
import os
import sys
import time
import wave

import pytest

from app.core import proc, settings
from app.core import http as http_mod
from app.backends.sglomni import pidfiles
from app.backends.sglomni import catalog, server
from app.hub.app import HubApp
from app.hub.run_screen import RunScreen
from app.hub.servers import ServersScreen
from tests.hub.conftest import DOUBLE, free_port, screen_text, wait_for
from tests.hub.test_generate import choose_sglomni

pytestmark = pytest.mark.hub

BOOK = ("The Lighthouse\n\n" + " ".join(
    f"Sentence {n} tells of the keeper, who climbed the stairs at dusk." for n in range(1, 41)) + "\n")


@pytest.fixture
def external_double(tmp_path):
    """Start the double by hand, as a user would start sgl-omni on another machine; return its URL."""
    port = free_port()
    log = open(tmp_path / "external.log", "wb")
    p = proc.spawn([sys.executable, str(DOUBLE), "serve", "--model-path", "mistralai/Voxtral-4B-TTS-2603",
                    "--port", str(port), "--host", "127.0.0.1", "--model-name", "voxtral_tts"],
                   env={"SGO_DOUBLE_SPEECH": "tone"}, stdout=log, new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while http_mod.probe_json(url, "/health", timeout=1) is None:
        assert time.monotonic() < deadline, "the double did not come up"
        time.sleep(0.05)
    yield url
    os.killpg(p.pid, 9)
    p.wait(5)
    log.close()


async def pick_model(pilot, key: str) -> None:
    await pilot.press("tab", "home", *(["down"] * list(catalog.CATALOG).index(key)))
    assert pilot.app.screen.model_key == key


async def test_cancel_then_resume_on_the_managed_double(double_venv, port, tmp_path, monkeypatch):
    record = tmp_path / "requests.jsonl"
    monkeypatch.setenv("SGO_DOUBLE_RECORD", str(record))
    monkeypatch.setenv("SGO_DOUBLE_SLOW", "0.7")
    book = tmp_path / "lighthouse.txt"
    # More chunks than the 96 an unpinned run sends at once, so some are still queued at Cancel.
    book.write_text("The Lighthouse\n\n" + " ".join(
        f"Sentence {n} tells of the keeper, who climbed the stairs at dusk." for n in range(1, 131)) + "\n")
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        form = app.screen
        form.query_one("#book").value = str(book)
        await choose_sglomni(pilot)
        await pick_model(pilot, "voxtral_tts")
        form.query_one("#voice").value = "voice:casual_male"
        form.query_one("#chunk").value = "12"
        await pilot.press("ctrl+r")
        run = app.screen
        assert isinstance(run, RunScreen)
        # Cancel while the first batch of requests is in flight (the double sleeps 0.7 s in each):
        # those finish and are kept, the queued rest is dropped.
        await wait_for(pilot, lambda: record.exists() and '"/v1/audio/speech"' in record.read_text(),
                       timeout=40, what="the first speech request")
        await pilot.press("c")
        await wait_for(pilot, lambda: run.outcome, timeout=30, what="the cancel")
        assert run.outcome == "cancelled", screen_text(app)
        assert "press R to resume" in screen_text(app)
        assert "stopped" in run.query_one("#chapters").get_row_at(0)
        first_done = run.stats.done
        assert 1 <= first_done < run.stats.total
        assert pidfiles.read_pidfile(port) is None  # the run stopped the server it started
        await pilot.press("r")  # resume
        await wait_for(pilot, lambda: run.outcome, timeout=60, what="the resumed run")
        assert run.outcome == "done", screen_text(app)
        # Finished chunks were not rendered again: those done at the cancel, and the requests in flight
        # then, which drain and are kept (their progress events may reach the screen after the outcome).
        assert run.stats.cached >= first_done
        assert run.output.is_file() and run.output.suffix == ".m4b"
        assert "Done:" in screen_text(app)
    speech = [json.loads(line) for line in record.read_text().splitlines() if '"/v1/audio/speech"' in line]
    assert speech and all(r["json"].get("voice") == "casual_male" for r in speech)
    assert len(speech) <= run.stats.total, "a chunk was rendered twice across the cancel and the resume"


async def test_remote_server_is_discovered_and_its_voices_offered(external_double, tmp_path):
    from app.backends.sglomni import client
    from app.core.http import Endpoint

    wav = tmp_path / "clip.wav"
    with wave.open(str(wav), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(b"\0\0" * 16000)
    with Endpoint(external_double) as ep:  # uploaded through the server's own API, as a user would
        client.upload_voice(ep, "lighthouse_keeper", wav)
    conf = settings.Settings()
    conf.sglomni.remote_url = external_double
    conf.verify = "off"  # the double speaks a tone
    settings.save(conf)
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, ServersScreen)
        await wait_for(pilot, lambda: f"Remote server {external_double}: healthy, hosts voxtral_tts"
                       in screen_text(app), what="the remote probe")
        await pilot.press("escape", "g")
        await pilot.pause()
        form = app.screen
        await choose_sglomni(pilot)
        await pick_model(pilot, "voxtral_tts")
        await wait_for(pilot, lambda: "voice:lighthouse_keeper" in [v for _, v in form.query_one("#voice")._options],
                       what="the server's uploaded voice in the menu")
