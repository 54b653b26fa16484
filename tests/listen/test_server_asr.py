"""Listening through a server's /v1/audio/transcriptions (--asr-url), against a real HTTP process.

The server is the benchmark load generator (benchmarks/loadgen_server.py): it
answers speech requests with noise and transcription uploads with the text it
spoke for those exact bytes, in sglang-omni 0.1.9's verbose_json schema.
"""
from __future__ import annotations

import json

import pytest

from app.backends.sglomni.asr import ServerTranscriber
from app.core.http import Endpoint
from app.core.errors import ServerUnavailable
from benchmarks import runcli
from tests.pipeline.helpers import write_txt_book
from tests.sglomni.conftest import free_port


@pytest.fixture
def loadgen():
    port = free_port()
    server = runcli.start_loadgen(port, 50.0, "--asr-rtf", "0", max_seconds=300)
    yield f"http://127.0.0.1:{port}"
    runcli.stop(server)


def test_server_transcriber_uploads_the_bytes_and_reads_verbose_json(loadgen, tmp_path):
    wav = tmp_path / "chunk.wav"
    with Endpoint(loadgen) as ep:
        ep.download("POST", "/v1/audio/speech", wav, json={"input": "Gulls followed the boat.", "seed": 1})
    heard = ServerTranscriber(loadgen).transcribe(wav, language="en")
    assert heard.text == "Gulls followed the boat."
    assert heard.language == "en" and heard.segments and heard.segments[0].end > 0
    assert heard.words == ()  # the route gives segment timings only


def test_a_dead_asr_server_is_one_clear_error(tmp_path):
    wav = tmp_path / "x.wav"
    wav.write_bytes(b"RIFF0000WAVE")
    with pytest.raises(ServerUnavailable, match="Cannot connect"):
        ServerTranscriber(f"http://127.0.0.1:{free_port()}").transcribe(wav)


@pytest.mark.slow
def test_a_run_listens_with_asr_url(loadgen, tmp_path, run_cli):
    book = write_txt_book(tmp_path)
    out = tmp_path / "b.m4b"
    result = run_cli(book, "--backend", "sglomni", "--model", "moss_tts_local", "--api-url", loadgen,
                     "--asr-url", loadgen, "--output", out, timeout=300)
    assert result.returncode == 0, result.stderr
    report = json.loads(out.with_suffix(".report.json").read_text())
    assert report["verification"]["listener"].startswith("server:http://127.0.0.1")
    assert report["verification"]["chunks_checked"] >= 3 and report["verification"]["failing"] == []
