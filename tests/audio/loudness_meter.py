"""An independent meter: Debian's ffmpeg with its ebur128 filter, over each chapter of a finished book.

Not the app's bundled ffmpeg and not its loudnorm: the EBU R128 meter of the
system ffmpeg (installed by scripts/system-deps.sh), chapter spans read with ffprobe.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Measured:
    integrated: float
    lra: float
    true_peak: float


def system_tool(name: str) -> str:
    path = shutil.which(name, path="/usr/bin:/usr/local/bin")
    if path is None:
        pytest.fail(f"{name} is missing: run `bash scripts/system-deps.sh`")
    return path


def chapter_spans(media: Path) -> list[tuple[float, float]]:
    """Return (start, end) seconds of every chapter, read by ffprobe."""
    out = subprocess.run([system_tool("ffprobe"), "-v", "error", "-show_chapters", "-of", "json", str(media)],
                         capture_output=True, text=True, check=True).stdout
    return [(float(c["start_time"]), float(c["end_time"])) for c in json.loads(out)["chapters"]]


def measure(media: Path, start: float = 0.0, end: float | None = None) -> Measured:
    """Return the integrated loudness, loudness range and true peak of a span, by ebur128."""
    span = ["-ss", f"{start:.3f}"] + (["-to", f"{end:.3f}"] if end is not None else [])
    text = subprocess.run([system_tool("ffmpeg"), "-nostdin", "-hide_banner", "-nostats", *span, "-i", str(media),
                           "-af", "ebur128=peak=true", "-f", "null", "-"],
                          capture_output=True, text=True, check=True).stderr
    summary = text[text.rindex("Summary:"):]
    value = lambda label: float(re.search(rf"{label}:\s+(-?[\d.]+|-inf)", summary).group(1))  # noqa: E731
    return Measured(value("I"), value("LRA"), value("Peak"))


def silent_fraction(media: Path, start: float, end: float, floor_db: float = -60.0) -> float:
    """Return the share of 10 ms windows in a span whose RMS is below `floor_db` dBFS."""
    import numpy as np

    raw = subprocess.run([system_tool("ffmpeg"), "-nostdin", "-v", "error", "-ss", f"{start:.3f}", "-to",
                          f"{end:.3f}", "-i", str(media), "-ac", "1", "-ar", "16000", "-f", "f32le", "-"],
                         capture_output=True, check=True).stdout
    samples = np.frombuffer(raw, dtype="<f4")
    windows = samples[: len(samples) // 160 * 160].reshape(-1, 160)
    rms = 20 * np.log10(np.sqrt((windows ** 2).mean(axis=1)) + 1e-12)
    return float((rms < floor_db).mean()) if len(rms) else 0.0
