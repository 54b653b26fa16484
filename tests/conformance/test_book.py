"""A small book through `audiobook.py` into an M4B: via sglang-omni's router, and via the app's managed boot."""
from __future__ import annotations

import pytest

import re
import subprocess
from pathlib import Path

from app.core import paths
from app.backends.sglomni import pidfiles
from tests.media import read_chapters
from app.backends.sglomni import server as lifecycle
from tests.pipeline.helpers import CHAPTERS, FFMPEG, titles, write_txt_book

from .conformance_harness import free_port, make_fake_managed_venv, server_env

pytestmark = pytest.mark.conformance


def audio_stream(path: Path) -> tuple[int, str]:
    """Return (sample rate, channel layout) of the file's audio stream as ffmpeg reports it."""
    info = subprocess.run([FFMPEG, "-hide_banner", "-i", str(path)], capture_output=True, text=True).stderr
    m = re.search(r"Audio: .*?, (\d+) Hz, (\w+)", info)
    assert m, info
    return int(m.group(1)), m.group(2)


def test_book_through_the_real_router_into_m4b(tmp_path, run_cli, routed_moss):
    router, workers = routed_moss
    before = [len(w.records()) for w in workers]
    book = write_txt_book(tmp_path)
    out = tmp_path / "voyage.m4b"
    result = run_cli(book, "--backend", "sglomni", "--model", "moss_tts_local", "--api-url", router.url,
                     "--output", out, "--chunk-size", "8", "--language", "English", timeout=400)
    assert result.returncode == 0, result.stderr[-3000:]
    assert [t for t, _, _ in read_chapters(out)] == titles(CHAPTERS)
    # The chapter audio keeps the model's format (MOSS-TTS-Local: 48 kHz stereo).
    assert audio_stream(out) == (48000, "stereo")
    served = [len(w.records()) - b for w, b in zip(workers, before)]
    assert all(n > 0 for n in served), f"round robin should reach both workers: {served}"
    texts = " ".join(r["text"] for w in workers for r in w.records())
    first_words = next(iter(CHAPTERS.values())).split()[:3]
    assert " ".join(first_words) in texts


def test_managed_boot_of_the_real_cli_converts_and_stops(tmp_path, run_cli, conf_python, monkeypatch):
    """The app's lifecycle code launches `sgl-omni serve` (the real CLI, CPU pipeline) and stops it."""
    envs = tmp_path / "envs"
    workdir = tmp_path / "server"
    workdir.mkdir()
    make_fake_managed_venv(envs, conf_python, extra_env={
        k: v for k, v in server_env(workdir).items() if k in ("SPEAKER_SAMPLES_DIR", "HF_HUB_OFFLINE")})
    monkeypatch.setenv("AUDIOBOOK_ENVS", str(envs))
    port = free_port()
    book = write_txt_book(tmp_path)
    out = tmp_path / "voyage.m4b"
    result = run_cli(book, "--backend", "sglomni", "--model", "moss_tts_local", "--port", port,
                     "--output", out, "--chunk-size", "8", timeout=400)
    assert result.returncode == 0, result.stderr[-3000:]
    assert [t for t, _, _ in read_chapters(out)] == titles(CHAPTERS)
    assert audio_stream(out) == (48000, "stereo")
    assert pidfiles.read_pidfile(port) is None
    assert lifecycle.port_is_free("127.0.0.1", port), "the managed server was stopped"
    logs = list(paths.logs_dir().glob("sglomni-moss_tts_local-*.log"))
    assert logs and "Uvicorn running on http://127.0.0.1:%d" % port in logs[0].read_text()


def test_a_book_completes_against_the_real_admission_answering_503(tmp_path, run_cli, conf_python):
    """The real 0.1.9 HTTP app answers upstream's QueueFullError with 503; the book still completes.

    3 requests run and 2 wait; the app starts with more in flight, so the queue overflows at once.
    """
    from .conftest import cpu_server

    srv = cpu_server(conf_python, tmp_path / "server", "moss_tts_local",
                     env={"CONFORMANCE_MAX_RUNNING": "3", "CONFORMANCE_MAX_QUEUED": "2"}).start()
    try:
        srv.wait()
        book = write_txt_book(tmp_path)
        out = tmp_path / "voyage.m4b"
        result = run_cli(book, "--backend", "sglomni", "--model", "moss_tts_local", "--api-url", srv.url,
                         "--output", out, "--chunk-size", "4", "--language", "English", timeout=600)
        assert result.returncode == 0, result.stderr[-3000:]
        busy = [line for line in result.stderr.splitlines() if line.startswith("server busy")]
        assert busy and "HTTP 503: The request queue is full" in busy[0], result.stderr[-3000:]
        # A re-take after verification is the same text with another seed; a 503 retry resent twice is not.
        requests = [(r["text"], r["params"].get("seed")) for r in srv.records()]
        assert len({t for t, _ in requests}) >= 6, requests
        assert len(requests) == len(set(requests)), "every chunk's take reached the pipeline once"
        assert [t for t, _, _ in read_chapters(out)] == titles(CHAPTERS)
    finally:
        srv.stop()
