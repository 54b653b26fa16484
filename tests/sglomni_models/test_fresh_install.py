"""A fresh machine (empty envs folder): every sglomni command that needs the managed venv says one line.

Real CLI subprocesses. `nvidia-smi` is a stand-in executable on PATH: one that lists a GPU,
or one that fails as it does without a driver, so both answers are tested on any machine.
"""
from __future__ import annotations

import os
import socket
import wave
from pathlib import Path

import pytest

from app.backends.sglomni import catalog
from tests.pipeline.helpers import write_txt_book

#: One catalog model per family (the family's upstream request builder / pipeline).
FAMILIES = ("qwen3_tts_0_6b_base", "qwen3_tts_0_6b_customvoice", "qwen3_tts_1_7b_voicedesign", "higgs_audio_v3_tts",
            "moss_tts", "moss_tts_local", "voxtral_tts", "dots_tts_mf", "fish_s2_pro", "zonos2")
SETUP_LINE = "Run: python audiobook.py backends sglomni setup"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _nvidia_smi(folder: Path, *, gpu: bool) -> dict[str, str]:
    """Put an `nvidia-smi` on PATH that lists one GPU, or fails like a machine without a driver."""
    folder.mkdir(parents=True, exist_ok=True)
    exe = folder / "nvidia-smi"
    body = 'echo "NVIDIA RTX A5000, 8.6"' if gpu else 'echo "NVIDIA-SMI has failed" >&2; exit 9'
    exe.write_text(f"#!/bin/sh\n{body}\n")
    exe.chmod(0o755)
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


def _clip(path: Path) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(b"\x01\x00" * 16000)
    return path


def _voice_args(key: str, tmp_path: Path) -> list[str]:
    spec = catalog.get(key)
    if spec.request.instructions == "required":
        return ["--instructions", "A calm narrator."]
    if spec.reference_required:
        return ["--clone", str(_clip(tmp_path / "clip.wav")), "--transcription", "The clip's words."]
    return []


def _one_error_line(result) -> str:
    lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, result.stderr
    assert "This is a bug" not in result.stderr and "Traceback" not in result.stderr
    return lines[0]


@pytest.mark.parametrize("key", FAMILIES)
@pytest.mark.parametrize("command", ["start", "convert"])
def test_without_the_venv_one_line_names_setup(tmp_path, run_cli, key, command):
    env = _nvidia_smi(tmp_path / "bin", gpu=True)
    port = str(_free_port())
    if command == "start":
        result = run_cli("backends", "sglomni", "start", key, "--port", port, env=env, timeout=120)
    else:
        book = write_txt_book(tmp_path)
        result = run_cli(book, "--backend", "sglomni", "--model", key, "--port", port,
                         "--output", tmp_path / "out.m4b", *_voice_args(key, tmp_path), env=env, timeout=120)
    assert result.returncode == 4, result.stderr
    line = _one_error_line(result)
    assert "not set up" in line and SETUP_LINE in line
    assert not (Path(os.environ["AUDIOBOOK_ENVS"]) / "sglomni").exists(), "nothing half-made"


@pytest.mark.parametrize("command", ["start", "convert"])
def test_without_a_gpu_that_is_said_first_with_the_alternatives(tmp_path, run_cli, command):
    env = _nvidia_smi(tmp_path / "bin", gpu=False)
    if command == "start":
        result = run_cli("backends", "sglomni", "start", "moss_tts_local", "--port", str(_free_port()), env=env)
    else:
        result = run_cli(write_txt_book(tmp_path), "--backend", "sglomni", "--model", "moss_tts_local",
                         "--port", str(_free_port()), "--output", tmp_path / "out.m4b", env=env)
    assert result.returncode == 4, result.stderr
    line = _one_error_line(result)
    assert line.startswith("error: SGLang-Omni serves TTS on NVIDIA GPUs only")
    assert "--backend piper" in line and "--api-url" in line
    assert "install" not in line and "setup" not in line


def test_install_without_the_venv_downloads_and_names_setup_for_the_companions(tmp_path, run_cli):
    """`install` needs the venv only for companion packages: it says so and goes on (no Hub here: it fails
    on the download, after the line)."""
    env = {**_nvidia_smi(tmp_path / "bin", gpu=True), "HF_ENDPOINT": f"http://127.0.0.1:{_free_port()}",
           "HF_HUB_ETAG_TIMEOUT": "2", "HF_HUB_DOWNLOAD_TIMEOUT": "2"}
    result = run_cli("backends", "sglomni", "install", "zonos2", env=env, timeout=180)
    assert SETUP_LINE.removeprefix("Run: ") in result.stdout + result.stderr
    assert "zonos2 (bf16 fallback)" in result.stdout, "the install output names the model as it will launch"
    assert result.returncode == 4 and _one_error_line(result).startswith("error: Downloading Zyphra/zonos2 failed")
