"""A listening model of the catalog, started beside the TTS server by the same lifecycle code (issue 13).

Both servers are the double, launched as the managed `sgl-omni` (tests/support.py):
the TTS one speaks Piper, the listening one (--model-path openai/whisper-large-v3-turbo)
hears the uploads with faster-whisper tiny.en on 0.1.9's verbose_json route.
"""
from __future__ import annotations

import json

import pytest

from app.backends.sglomni import catalog, pidfiles
from tests.pipeline.helpers import write_txt_book
from tests.sglomni.conftest import fake_venv, free_port  # noqa: F401  (fake_venv: the managed double)
from tests.support import processes_running_from

def test_the_asr_model_setting_picks_the_managed_listener_and_the_option_wins():
    from types import SimpleNamespace

    from app.backends.sglomni.asr import ManagedTranscriber, ServerTranscriber
    from app.request import ConvertRequest
    from app.convert import verify_settings
    from app.core.settings import Settings

    backend, book = SimpleNamespace(name="sglomni"), SimpleNamespace(language="en")
    conf = Settings(asr_model="whisper_large_v3_turbo")
    chosen = verify_settings(ConvertRequest(book=None), conf, backend, book).transcriber
    assert isinstance(chosen, ManagedTranscriber) and chosen.identity == "sglomni-asr:whisper_large_v3_turbo"
    assert chosen.server.spec is catalog.get_asr("whisper_large_v3_turbo")
    assert chosen.server.config == catalog.config_path("whisper_large_v3_turbo.yaml")
    url = verify_settings(ConvertRequest(book=None, asr_url="http://127.0.0.1:9"), conf, backend, book)
    assert type(url.transcriber) is ServerTranscriber


@pytest.mark.slow
def test_the_listening_model_boots_beside_the_tts_server_and_stops_with_the_run(
        tmp_path, run_cli, fake_venv, requests_log, monkeypatch):
    monkeypatch.setenv("SGO_DOUBLE_SPEECH", "piper")
    book = write_txt_book(tmp_path)
    out = tmp_path / "voyage.m4b"
    port = free_port()
    result = run_cli(book, "--backend", "sglomni", "--model", "moss_tts_local", "--port", port,
                     "--output", out, "--chunk-size", "8", "--verify", "--asr-model", "whisper_large_v3_turbo",
                     timeout=400)
    assert result.returncode == 0, result.stderr[-3000:]

    report = json.loads(out.with_suffix(".report.json").read_text())["verification"]
    assert report["listener"] == "sglomni-asr:whisper_large_v3_turbo"
    assert report["chunks_checked"] >= 6 and report["failing"] == []
    uploads = requests_log("/v1/audio/transcriptions")
    assert len(uploads) >= report["chunks_checked"]
    # The chunk's bytes go up as a file part; no local path is sent.
    assert all(u["audio_bytes"] > 1000 and u["fields"]["response_format"] == "verbose_json" for u in uploads)
    assert not any(str(tmp_path) in json.dumps(u) for u in uploads)
    asr_logs = list(tmp_path.glob("home/logs/sglomni-whisper_large_v3_turbo-*.log"))
    assert asr_logs and "--model-path openai/whisper-large-v3-turbo" in asr_logs[0].read_text()
    assert str(catalog.config_path("whisper_large_v3_turbo.yaml")) in asr_logs[0].read_text()
    # Both servers stopped with the run: no pid file, no process of the managed venv.
    assert pidfiles.all_pidfiles() == []
    assert processes_running_from(fake_venv.parent.parent) == []


@pytest.mark.slow
def test_an_unknown_listening_model_is_one_line_and_exit_2(tmp_path, run_cli, fake_venv):
    book = write_txt_book(tmp_path)
    result = run_cli(book, "--backend", "sglomni", "--model", "moss_tts_local", "--port", free_port(),
                     "--output", tmp_path / "x.m4b", "--verify", "--asr-model", "whisper_tiny", timeout=120)
    assert result.returncode == 2, result.stderr
    assert "Unknown listening model 'whisper_tiny'. Valid models: whisper_large_v3_turbo" in result.stderr
    assert "Traceback" not in result.stderr
