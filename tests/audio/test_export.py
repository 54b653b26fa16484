"""Chapter encoding and the stream-copy M4B mux, read back with real ffmpeg."""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from app.audio.assemble import PAUSES, ChapterAssembler
from app.audio.export import BookMeta, ChapterAudio, mux_m4b
from tests.media import media_duration, read_chapters
from app.audio.ffmpeg import ffmpeg_exe, run_ffmpeg
from app.book.model import Cover
from app.core.errors import ConfigError, OutputError

from .encoding import encode_chapter
from .signals import silence, tone, write_wav

TITLES = ["Chapter One: Begin", "Two = two; #2 \\ back", "Épilogue — the end"]
LENGTHS = [1.2, 0.7, 1.6]


def _probe(ff: str, path: Path) -> str:
    return subprocess.run([ff, "-hide_banner", "-i", str(path)], capture_output=True, text=True).stderr


def _global_tags(ff: str, path: Path) -> dict[str, str]:
    text = run_ffmpeg([ff, "-v", "error", "-i", str(path), "-f", "ffmetadata", "-"]).decode()
    head = text.split("[")[0]
    return dict(line.split("=", 1) for line in head.splitlines()[1:] if "=" in line)


def _decoded_frames(ff: str, path: Path, tmp: Path) -> int:
    out = tmp / f"{path.stem}.decoded.raw"
    run_ffmpeg([ff, "-i", str(path), "-map", "0:a", "-f", "s16le", "-ac", "1", str(out)])
    return out.stat().st_size // 2


@pytest.fixture(scope="module")
def cover(tmp_path_factory) -> Cover:
    ff = ffmpeg_exe()
    path = tmp_path_factory.mktemp("cover") / "cover.jpg"
    subprocess.run([ff, "-v", "error", "-f", "lavfi", "-i", "color=c=red:s=64x64", "-frames:v", "1", str(path)], check=True)
    return Cover(path.read_bytes(), "image/jpeg")


@pytest.fixture(scope="module")
def book(tmp_path_factory, cover):
    """Assemble, encode (.aac and .m4a alike) and mux a three-chapter book once for the module."""
    ff = ffmpeg_exe()
    tmp = tmp_path_factory.mktemp("book")
    meta = BookMeta("Test Book", "Ada Author", cover=cover, year="2024")
    chapters = []
    for i, (title, length) in enumerate(zip(TITLES, LENGTHS)):
        src = write_wav(tmp / f"src{i}.wav", np.concatenate([silence(0.1, 22050), tone(length, 22050, 300 + 100 * i)]), 22050)
        with ChapterAssembler(tmp / f"ch{i}.wav") as asm:
            asm.append(src, PAUSES["chapter"])
            wav = asm.finish()
        enc = encode_chapter(wav, tmp / f"ch{i}.aac", fmt="m4b", meta=meta, title=title, track=i + 1, total=3, ffmpeg=ff)
        chapters.append(ChapterAudio(title, enc))
    out = mux_m4b(chapters, tmp / "out" / "book.m4b", meta=meta, ffmpeg=ff)
    return out, chapters, meta, tmp


def test_chapter_markers_match_encoded_chapters(book, ff):
    out, chapters, _, _ = book
    read = read_chapters(out)
    assert [t for t, _, _ in read] == TITLES
    durations = [media_duration(c.path) for c in chapters]
    starts = np.cumsum([0.0] + durations[:-1])
    for (_, start, end), want_start, length in zip(read, starts, durations):
        assert start == pytest.approx(want_start, abs=0.002)
        assert end - start == pytest.approx(length, abs=0.002)
    # Each chapter is what was assembled: sound + margins + the chapter pause (+ AAC priming/padding).
    for length, dur in zip(LENGTHS, durations):
        assert length + PAUSES["chapter"] <= dur <= length + PAUSES["chapter"] + 0.2


def test_total_duration_is_sum_and_has_no_drift(book, ff, tmp_path):
    out, chapters, _, _ = book
    total = sum(media_duration(c.path) for c in chapters)
    assert media_duration(out) == pytest.approx(total, abs=0.02)
    # Decoded samples equal the timeline: no overlapping priming packets at chapter joins.
    assert _decoded_frames(ff, out, tmp_path) == pytest.approx(total * 22050, abs=2)


def test_book_metadata_and_cover(book, ff):
    out, _, _, tmp = book
    tags = _global_tags(ff, out)
    assert tags["title"] == "Test Book" and tags["artist"] == "Ada Author"
    assert tags["album"] == "Test Book" and tags["genre"] == "Audiobook"
    probe = _probe(ff, out)
    assert "Video: mjpeg" in probe and "(attached pic)" in probe
    assert "Audio: aac" in probe
    # Only the finished file is left in the output folder.
    assert [p.name for p in out.parent.iterdir()] == ["book.m4b"]


def test_mux_is_stream_copy(book, ff):
    """The muxed audio packets are byte-identical to the chapter files' (no re-encode)."""
    out, chapters, _, _ = book
    first = chapters[0].path
    a = subprocess.run([ff, "-v", "error", "-i", str(first), "-c", "copy", "-bsf:a", "aac_adtstoasc", "-f", "framemd5", "-"], capture_output=True, text=True).stdout
    b = subprocess.run([ff, "-v", "error", "-i", str(out), "-map", "0:a", "-c", "copy", "-f", "framemd5", "-"], capture_output=True, text=True).stdout
    hashes = lambda text: [line.split(",")[-1].strip() for line in text.splitlines() if not line.startswith("#")]
    ha, hb = hashes(a), hashes(b)
    # Every packet after the first (whose line also hashes the priming side data) is copied as-is.
    assert len(ha) > 10 and "".join(ha[1:]) in "".join(hb)


def test_failed_mux_keeps_existing_file(book, ff):
    out, chapters, meta, tmp = book
    good = out.read_bytes()
    broken = tmp / "broken.m4a"
    broken.write_bytes(b"not audio at all")
    with pytest.raises(OutputError) as info:
        mux_m4b([*chapters, ChapterAudio("Broken", broken)], out, meta=meta, ffmpeg=ff)
    assert out.read_bytes() == good
    assert [p.name for p in out.parent.iterdir()] == ["book.m4b"]
    assert info.value.log_path is not None and info.value.log_path.exists()


def test_mp3_chapter_has_tags_and_cover(book, ff, cover):
    _, _, meta, tmp = book
    mp3 = encode_chapter(tmp / "ch1.wav", tmp / "mp3" / "02 - Two.mp3", fmt="mp3", meta=meta, title=TITLES[1], track=2, total=3, ffmpeg=ff)
    tags = _global_tags(ff, mp3)
    assert tags["title"] == TITLES[1].replace("\\", "\\\\").replace("=", "\\=").replace(";", "\\;").replace("#", "\\#")
    assert tags["artist"] == "Ada Author" and tags["album"] == "Test Book" and tags["track"] == "2/3"
    probe = _probe(ff, mp3)
    assert "Audio: mp3" in probe and "(attached pic)" in probe
    assert media_duration(mp3) == pytest.approx(LENGTHS[1] + PAUSES["chapter"] + 0.04, abs=0.1)
    assert [p.name for p in mp3.parent.iterdir()] == [mp3.name]


def test_unreadable_cover_is_left_out(book, ff):
    _, chapters, _, tmp = book
    meta = BookMeta("T", "A", cover=Cover(b"\x00garbage, not an image", "image/webp"))
    out = mux_m4b(chapters[:1], tmp / "svg" / "b.m4b", meta=meta, ffmpeg=ff)
    assert "Video:" not in _probe(ff, out)
    assert len(read_chapters(out)) == 1


def test_ffmpeg_exe_configured(tmp_path, ff):
    assert ffmpeg_exe(ff) == ff
    with pytest.raises(ConfigError, match="not an executable"):
        ffmpeg_exe(str(tmp_path / "no-such-ffmpeg"))


def test_run_ffmpeg_failure_writes_log(tmp_path, ff):
    with pytest.raises(OutputError) as info:
        run_ffmpeg([ff, "-i", str(tmp_path / "missing.wav"), str(tmp_path / "x.m4a")])
    log = info.value.log_path
    assert log is not None and log.exists() and "missing.wav" in log.read_text()
    assert "-nostdin" in log.read_text()


def test_m4a_chapters_mux_without_drift(book, ff, tmp_path):
    """MP4 chapter files are remuxed to ADTS first, so their priming packets never overlap."""
    _, _, meta, tmp = book
    m4as = [ChapterAudio(t, encode_chapter(tmp / f"ch{i}.wav", tmp_path / f"c{i}.m4a", fmt="m4b", meta=meta,
                                           title=t, track=i + 1, total=3, ffmpeg=ff)) for i, t in enumerate(TITLES)]
    out = mux_m4b(m4as, tmp_path / "m4a.m4b", meta=meta, ffmpeg=ff)
    read = read_chapters(out)
    assert [t for t, _, _ in read] == TITLES
    assert _decoded_frames(ff, out, tmp_path) == pytest.approx(read[-1][2] * 22050, abs=25)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
