"""Shared helpers for end-to-end tests: tiny books and reading results back."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import imageio_ffmpeg
import numpy as np

ROOT_HINT = Path(__file__).resolve().parents[2]
FFMPEG = imageio_ffmpeg.get_ffmpeg_exe()

CHAPTERS = {
    "The Harbour": "The boat left the harbour at dawn. Gulls followed it out past the lighthouse.",
    "The Storm": "By noon the sky had turned grey. Mr. Smith tied the sails down and waited.",
    "The Return": "They came home two days later. Everyone on the pier was cheering.",
}


def write_txt_book(folder: Path, chapters: dict[str, str] = CHAPTERS, name: str = "voyage.txt") -> Path:
    """Write a TXT book with one 'Chapter N: Title' heading per chapter."""
    parts = [f"Chapter {n}: {title}\n\n{text}\n" for n, (title, text) in enumerate(chapters.items(), 1)]
    path = folder / name
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def titles(chapters: dict[str, str]) -> list[str]:
    """Return the chapter titles the TXT heading lines produce."""
    return [f"Chapter {n}: {title}" for n, title in enumerate(chapters, 1)]


def chunk_files(cache_root: Path) -> dict[str, float]:
    """Return {cached chunk WAV name: mtime} under a cache folder."""
    return {p.name: p.stat().st_mtime for p in (cache_root / "chunks").rglob("*.wav")
            if not p.name.startswith(".")}


def synthesized_count(stderr: str) -> int:
    """Return the number of chunks a run synthesized, from its final plain-progress line."""
    m = re.search(r"([\d,]+) chunks? synthesized", stderr)
    assert m, f"no summary line in output:\n{stderr}"
    return int(m.group(1).replace(",", ""))


def peak_level(path: Path) -> float:
    """Decode any audio file with ffmpeg and return its peak level (0..1)."""
    raw = subprocess.run([FFMPEG, "-nostdin", "-v", "error", "-i", str(path), "-f", "s16le", "-ac", "1", "-"],
                         capture_output=True, check=True).stdout
    samples = np.frombuffer(raw, dtype="<i2")
    return float(np.abs(samples).max()) / 32768 if samples.size else 0.0
