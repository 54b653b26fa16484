"""Listening through the real sglang-omni 0.1.9 POST /v1/audio/transcriptions (issue 13).

The server is upstream's CLI, launcher, FastAPI route and Whisper response adapter
with the vendored whisper_large_v3_turbo.yaml; only the ASR stage is the CPU
coordinator's faster-whisper (cpu_listener.py), so what the route answers is what
tiny.en hears in the uploaded bytes.
"""
from __future__ import annotations

import json

import pytest

from app.core import paths
from app.backends.sglomni import pidfiles
from app.backends.sglomni import server as lifecycle
from app.backends.sglomni.asr import ServerTranscriber
from tests.pipeline.helpers import write_txt_book

from .conformance_harness import free_port, make_fake_managed_venv, server_env

pytestmark = pytest.mark.conformance


def test_the_real_route_answers_verbose_json_with_segment_timings(conf_python, tmp_path, speech_clip):
    from .conftest import cpu_server

    srv = cpu_server(conf_python, tmp_path / "asr", "whisper_large_v3_turbo").start()
    try:
        srv.wait()
        heard = ServerTranscriber(srv.url, model="whisper_large_v3_turbo").transcribe(speech_clip, language="en")
    finally:
        srv.stop()
    assert "narrator speaking clearly" in heard.text.lower()
    assert heard.segments and all(0 <= s.start < s.end <= heard.duration + 0.05 for s in heard.segments)
    assert "<|" not in heard.text, "the real adapter strips Whisper's timestamp tokens"
    [record] = srv.records()
    assert record["kind"] == "transcription" and record["params"]["task"] == "transcribe"
    assert record["audio_bytes"] == speech_clip.stat().st_size


def test_a_verified_managed_book_listens_beside_the_tts_server(tmp_path, run_cli, conf_python, monkeypatch):
    """--asr-model: the app's lifecycle code boots the real CLI twice (TTS, then ASR), converts, stops both."""
    envs, workdir = tmp_path / "envs", tmp_path / "server"
    workdir.mkdir()
    record = tmp_path / "pipeline.jsonl"
    make_fake_managed_venv(envs, conf_python, extra_env={
        **{k: v for k, v in server_env(workdir).items() if k in ("SPEAKER_SAMPLES_DIR", "HF_HUB_OFFLINE")},
        "CONFORMANCE_RECORD": str(record)})
    monkeypatch.setenv("AUDIOBOOK_ENVS", str(envs))
    port = free_port()
    book = write_txt_book(tmp_path)
    out = tmp_path / "voyage.m4b"
    result = run_cli(book, "--backend", "sglomni", "--model", "moss_tts_local", "--port", port, "--output", out,
                     "--chunk-size", "8", "--verify", "--asr-model", "whisper_large_v3_turbo", timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]

    report = json.loads(out.with_suffix(".report.json").read_text())["verification"]
    assert report["listener"] == "sglomni-asr:whisper_large_v3_turbo"
    assert report["chunks_checked"] >= 6 and report["failing"] == [], report
    rows = [json.loads(line) for line in record.read_text().splitlines()]
    heard = [r for r in rows if r.get("kind") == "transcription"]
    spoken = [r for r in rows if r.get("config_cls") == "MossTTSLocalPipelineConfig"]
    assert len(heard) == len(spoken) >= report["chunks_checked"], "every take was heard by the real route"
    logs = {p.name: p.read_text() for p in paths.logs_dir().glob("sglomni-*.log")}
    asr_log = next(text for name, text in logs.items() if "whisper_large_v3_turbo" in name)
    assert "POST /v1/audio/transcriptions HTTP/1.1\" 200" in asr_log
    assert pidfiles.all_pidfiles() == [], "both servers stopped with the run"
    assert lifecycle.port_is_free("127.0.0.1", port)
