"""Both chapter lists of the M4B, read back by three independent readers.

Players read either the Nero `chpl` list or the QuickTime chapter text track
(Apple Books, iOS: only the latter). Chapters of minutes and of over an hour
must show in both: Debian's ffprobe, mutagen (Nero list) and a small atom
reader of our own in the tests (QuickTime track) each check the file.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from mutagen.mp4 import MP4

from app.audio.export import BookMeta, ChapterAudio, mux_m4b
from app.audio.ffmpeg import ffmpeg_exe, run_ffmpeg

from .mp4atoms import qt_chapters, top_level_boxes

FFPROBE = "/usr/bin/ffprobe"
#: Every chapter over three minutes, the middle one over an hour (silence encodes fast at 8 kHz).
LENGTHS = [190.0, 3700.0, 185.0]
TITLES = ["One: the start", "Two: the long middle", "Three — Épilogue"]


pytestmark = pytest.mark.slow  # an hour of audio to encode and mux: ~6 s of CPU


@pytest.fixture(scope="module")
def m4b(tmp_path_factory) -> tuple[Path, list[float]]:
    ff = ffmpeg_exe()
    tmp = tmp_path_factory.mktemp("chapters")
    chapters = []
    for i, (title, length) in enumerate(zip(TITLES, LENGTHS)):
        path = tmp / f"ch{i}.aac"
        run_ffmpeg([ff, "-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono", "-t", str(length),
                    "-c:a", "aac", "-b:a", "16k", "-f", "adts", str(path)])
        chapters.append(ChapterAudio(title, path))
    out = mux_m4b(chapters, tmp / "book.m4b", meta=BookMeta("Long Book", "A. Author"), ffmpeg=ff)
    lengths = [_packets(c.path) * 1024 / 8000 for c in chapters]  # AAC: 1024 samples a packet
    return out, [0.0, lengths[0], lengths[0] + lengths[1]]


def _packets(path: Path) -> int:
    """Return the AAC packets in a file, counted by ffprobe (not by the app's own ADTS reader)."""
    probe = FFPROBE if Path(FFPROBE).exists() else "ffprobe"
    run = subprocess.run([probe, "-v", "error", "-count_packets", "-select_streams", "a:0", "-show_entries",
                          "stream=nb_read_packets", "-of", "csv=p=0", str(path)],
                         capture_output=True, text=True, timeout=60, check=True)
    return int(run.stdout.strip())


def test_ffprobe_finds_the_quicktime_chapter_track_and_three_chapters(m4b):
    path, starts = m4b
    if not Path(FFPROBE).exists():
        pytest.skip("Debian's ffprobe is not installed (run scripts/system-deps.sh)")
    run = subprocess.run([FFPROBE, "-v", "warning", "-show_chapters", "-of", "json", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert "Referenced QT chapter track not found" not in run.stderr
    assert "invalid" not in run.stderr.lower()
    chapters = json.loads(run.stdout)["chapters"]
    assert [c["tags"]["title"] for c in chapters] == TITLES
    assert [float(c["start_time"]) for c in chapters] == pytest.approx(starts, abs=0.05)


def test_nero_chapter_list_read_by_mutagen(m4b):
    path, starts = m4b
    chapters = MP4(path).chapters
    assert chapters is not None and len(chapters) == 3
    assert [c.title for c in chapters] == TITLES
    assert [c.start for c in chapters] == pytest.approx(starts, abs=0.05)


def test_quicktime_text_track_has_one_sample_per_chapter_at_its_start(m4b):
    path, starts = m4b
    chapters = qt_chapters(path)
    assert [c.title for c in chapters] == TITLES
    assert [c.start for c in chapters] == pytest.approx(starts, abs=0.05)
    # Each sample lasts its chapter: the hour-long one did not wrap around 32 bits.
    assert [c.duration for c in chapters][:2] == pytest.approx([starts[1], starts[2] - starts[1]], abs=0.05)
    assert chapters[1].duration > 3600


def test_the_index_comes_before_the_audio_without_a_second_pass(m4b):
    # The writer sizes the index from the ADTS headers first: no reserve to guess, no file rewritten.
    assert top_level_boxes(m4b[0]) == [b"ftyp", b"moov", b"mdat"]
