"""A small book through the CLI, the sglomni backend and the double, into an M4B."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.core import http as http_mod
from app.backends.sglomni import pidfiles
from tests.media import read_chapters
from app.backends.sglomni import server
from tests.pipeline.helpers import CHAPTERS, titles, write_txt_book

from tests.support import processes_running_from

from .conftest import free_port

pytestmark = pytest.mark.slow


def our_processes(envs: Path) -> list[int]:
    """Return live pids whose command line runs from the throwaway managed venv."""
    return processes_running_from(envs)


def test_api_url_run_produces_the_m4b_and_leaves_the_server_running(tmp_path, run_cli, external_double,
                                                                     requests_log):
    url = external_double("moss_tts_local")
    book = write_txt_book(tmp_path)
    out = tmp_path / "voyage.m4b"
    result = run_cli(book, "--backend", "sglomni", "--model", "moss_tts_local", "--api-url", url,
                     "--output", out, "--chunk-size", "8", timeout=240)
    assert result.returncode == 0, result.stderr
    assert [t for t, _, _ in read_chapters(out)] == titles(CHAPTERS)
    bodies = [r["json"] for r in requests_log("/v1/audio/speech")]
    assert bodies and all(b["response_format"] == "wav" and isinstance(b["seed"], int) for b in bodies)
    assert http_mod.probe_json(url, "/health")[1]["status"] == "healthy", "an external server is left running"


def test_managed_run_boots_converts_and_leaves_no_process(tmp_path, run_cli, fake_venv, requests_log):
    book = write_txt_book(tmp_path)
    out = tmp_path / "voyage.m4b"
    port = free_port()
    result = run_cli(book, "--backend", "sglomni", "--model", "moss_tts_local", "--port", port,
                     "--output", out, "--chunk-size", "8", timeout=240)
    assert result.returncode == 0, result.stderr
    assert [t for t, _, _ in read_chapters(out)] == titles(CHAPTERS)
    assert requests_log("/v1/audio/speech"), "the managed double synthesized the book"
    assert pidfiles.read_pidfile(port) is None
    assert our_processes(fake_venv.parent.parent) == [], "no orphan of the managed server"


def _long_chapter_book(folder: Path) -> Path:
    sentences = " ".join(f"Sentence number {n} walks slowly along the quiet shore of the bay." for n in range(1, 25))
    path = folder / "long.txt"
    path.write_text(f"Chapter 1: Shore\n\n{sentences}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("answer, words_cap", [("", 80), ("t\n", 120), ("S\n", 80)])
def test_higgs_chunk_size_question_on_the_console(tmp_path, run_cli, external_double, requests_log,
                                                  answer, words_cap):
    """Above Higgs's 80-word window the CLI asks [S/t/c]; a closed stdin (unattended) clamps."""
    url = external_double("higgs_audio_v3_tts", "bosonai/higgs-audio-v3-tts-4b")
    result = run_cli(_long_chapter_book(tmp_path), "--backend", "sglomni", "--model", "higgs_audio_v3_tts",
                     "--api-url", url, "--chunk-size", "120", "--output", tmp_path / "h.m4b",
                     input=answer, timeout=240)
    assert result.returncode == 0, result.stderr
    assert "[S]et chunk to 80" in result.stderr
    assert ("Chunk size set to 80 words" in result.stderr) == (answer != "t\n")
    bodies = [r["json"] for r in requests_log("/v1/audio/speech")]
    longest = max(len(b["input"].split()) for b in bodies)
    assert longest <= words_cap
    if answer != "t\n":
        assert all(b["max_new_tokens"] == 3000 for b in bodies)


def test_higgs_question_answered_cancel_stops_before_any_request(tmp_path, run_cli, external_double, requests_log):
    url = external_double("higgs_audio_v3_tts", "bosonai/higgs-audio-v3-tts-4b")
    result = run_cli(_long_chapter_book(tmp_path), "--backend", "sglomni", "--model", "higgs_audio_v3_tts",
                     "--api-url", url, "--chunk-size", "120", "--output", tmp_path / "h.m4b", input="c\n")
    assert result.returncode == 2
    assert "--chunk-size 80" in result.stderr
    assert requests_log("/v1/audio/speech") == []


def test_list_voices_prints_presets_and_uploaded_voices(tmp_path, run_cli, external_double):
    from app.backends.sglomni import client
    from app.core.http import Endpoint

    url = external_double("voxtral_tts", "mistralai/Voxtral-4B-TTS-2603")
    clip = tmp_path / "narrator.wav"
    import wave
    with wave.open(str(clip), "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(24000)
        w.writeframes((b"\x10\x20" * 24000 * 3))
    with Endpoint(url) as ep:
        client.upload_voice(ep, "my_narrator", clip, ref_text="Hello.")
    result = run_cli("--list-voices", "--api-url", url)
    assert result.returncode == 0, result.stderr
    names = result.stdout.split()
    assert "my_narrator" in names and "casual_male" in names


def test_a_zonos2_book_converts_with_no_request_carrying_a_seed(tmp_path, run_cli, external_double, requests_log):
    """ZONOS2's 0.1.9 request builder refuses any seed (the double answers 500 as upstream does)."""
    import json
    import shutil
    import subprocess
    import wave

    url = external_double("zonos2", "Zyphra/zonos2")
    clip = tmp_path / "narrator.wav"
    with wave.open(str(clip), "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(24000)
        w.writeframes(b"\x10\x20" * 24000 * 2)
    out = tmp_path / "voyage.m4b"
    result = run_cli(write_txt_book(tmp_path), "--backend", "sglomni", "--api-url", url, "--clone", clip,
                     "--transcription", "The narrator's words.", "--output", out, "--chunk-size", "8", timeout=240)
    assert result.returncode == 0, result.stderr
    assert "on sglomni zonos2" in result.stderr + result.stdout, "the header names the served model"
    bodies = [r["json"] for r in requests_log("/v1/audio/speech")]
    assert bodies and all("seed" not in b and b["max_new_tokens"] == 12288 for b in bodies)
    probe = subprocess.run([shutil.which("ffprobe") or "ffprobe", "-v", "error", "-show_chapters", "-show_streams",
                            "-of", "json", str(out)], capture_output=True, text=True, check=True)
    info = json.loads(probe.stdout)
    assert [c["tags"]["title"] for c in info["chapters"]] == titles(CHAPTERS)
    assert int(info["streams"][0]["sample_rate"]) == 44100
