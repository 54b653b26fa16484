"""The app's own M4B writer against ffmpeg's MP4 muxer on the same ADTS chapters.

Each output is read by independent readers (Debian's ffprobe, mutagen, ffmpeg's
decoder, the tests' own atom reader), never by the code that wrote it.
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import threading
import tracemalloc
from pathlib import Path

import pytest
from mutagen.mp4 import MP4

from app.audio import m4b, mp4
from app.audio.export import BookMeta, ChapterAudio, mux_m4b
from app.audio.ffmpeg import ffmpeg_exe, run_ffmpeg
from app.book.model import Cover
from app.core.errors import Cancelled, OutputError

from .ffmpeg_mux import ffmpeg_m4b
from .mp4atoms import top_level_boxes, tracks

FFPROBE = shutil.which("ffprobe")
pytestmark = pytest.mark.skipif(FFPROBE is None, reason="ffprobe is installed by scripts/system-deps.sh")

TITLES = ["Chapitre premier — l'été", "第二章：雨", "Épilogue 🎧 (the end)"]
SECONDS = [1.3, 0.6, 2.1]
RATE = 48000


def _probe(path: Path, *args: str) -> dict:
    run = subprocess.run([FFPROBE, "-v", "error", *args, "-of", "json", str(path)], capture_output=True, text=True,
                         check=True, timeout=60)
    return json.loads(run.stdout)


def _packets(path: Path) -> int:
    """Return the AAC packets ffprobe counts in a file."""
    data = _probe(path, "-count_packets", "-select_streams", "a:0", "-show_entries", "stream=nb_read_packets")
    return int(data["streams"][0]["nb_read_packets"])


def _pcm(path: Path) -> str:
    """Return the hash of the decoded audio (ffmpeg's AAC decoder, 32-bit float, every sample)."""
    pcm = run_ffmpeg([ffmpeg_exe(), "-v", "error", "-i", str(path), "-map", "0:a", "-f", "f32le", "-"])
    assert len(pcm) > 0
    return hashlib.sha256(pcm).hexdigest()


def _adts(path: Path, seconds: float, freq: int, *, rate: int = RATE, channels: int = 2) -> Path:
    run_ffmpeg([ffmpeg_exe(), "-f", "lavfi", "-i", f"sine=f={freq}:r={rate}:d={seconds}", "-ac", str(channels),
                "-c:a", "aac", "-b:a", "96k", "-f", "adts", str(path)])
    return path


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """Three ADTS chapters, a JPEG cover, and the M4B ffmpeg's muxer makes of them."""
    tmp = tmp_path_factory.mktemp("m4b")
    paths = [_adts(tmp / f"ch{i}.aac", s, 300 + 150 * i) for i, s in enumerate(SECONDS)]
    cover = tmp / "cover.jpg"
    run_ffmpeg([ffmpeg_exe(), "-f", "lavfi", "-i", "testsrc=size=80x60", "-frames:v", "1", str(cover)])
    meta = BookMeta("Le Livre — été", "Zoë Écrivain", cover=Cover(cover.read_bytes(), "image/jpeg"), year="2025")
    tags = {"title": meta.title, "artist": meta.author, "album_artist": meta.author, "album": meta.title,
            "genre": "Audiobook", "date": meta.year}
    reference = ffmpeg_m4b(list(zip(TITLES, paths)), tmp / "ffmpeg.m4b", tags=tags, cover=cover, rate=RATE,
                           frames=[_packets(p) for p in paths])
    ours = mux_m4b([ChapterAudio(t, p) for t, p in zip(TITLES, paths)], tmp / "out" / "ours.m4b", meta=meta,
                   ffmpeg=ffmpeg_exe())
    return ours, reference, paths, cover, tmp


def test_chapters_match_ffmpegs_mux_to_the_millisecond(inputs):
    ours, reference, *_ = inputs
    got, want = _probe(ours, "-show_chapters")["chapters"], _probe(reference, "-show_chapters")["chapters"]
    assert [c["tags"]["title"] for c in got] == TITLES
    marks = lambda chapters: [(c["start"], c["end"], c["time_base"]) for c in chapters]
    assert marks(got) == marks(want)
    assert len(mp4_chapters := MP4(ours).chapters) == 3
    assert [c.title for c in mp4_chapters] == TITLES  # the Nero list too


def test_decoded_audio_is_sample_for_sample_ffmpegs(inputs):
    ours, reference, paths, *_ = inputs
    assert _pcm(ours) == _pcm(reference)
    assert _packets(ours) == sum(_packets(p) for p in paths)


def test_streams_and_tags_say_what_ffmpegs_file_says(inputs):
    ours, reference, *_ = inputs
    got, want = (_probe(p, "-show_format", "-show_streams") for p in (ours, reference))
    keys = ("codec_name", "profile", "codec_type", "codec_tag_string", "sample_rate", "channels", "channel_layout",
            "time_base", "start_pts", "duration_ts", "duration", "nb_frames", "width", "height")
    describe = lambda info: [({k: s.get(k) for k in keys}, s["disposition"], s.get("tags")) for s in info["streams"]]
    assert describe(got) == describe(want)
    assert [s["disposition"]["attached_pic"] for s in got["streams"]] == [0, 0, 1]
    ffmpeg_only = {"encoder", "major_brand", "compatible_brands"}
    tags = {k: v for k, v in got["format"]["tags"].items() if k not in ffmpeg_only}
    # Ours says it is an audiobook (iTunes `stik` 2), which ffmpeg's ipod muxer does not write.
    assert tags.pop("media_type") == "2"
    assert tags == {k: v for k, v in want["format"]["tags"].items() if k not in ffmpeg_only}
    assert tags["title"] == "Le Livre — été" and tags["artist"] == "Zoë Écrivain" and tags["date"] == "2025"
    assert got["format"]["tags"]["major_brand"] == "M4B "
    assert got["format"]["duration"] == want["format"]["duration"]


def test_ffprobe_and_ffmpegs_decoder_warn_of_nothing_more_than_in_ffmpegs_file(inputs):
    ours, reference, *_ = inputs

    def warnings(path: Path) -> list[str]:
        probe = subprocess.run([FFPROBE, "-v", "warning", "-show_chapters", "-show_streams", str(path)],
                               capture_output=True, text=True, timeout=60).stderr
        decode = subprocess.run([ffmpeg_exe(), "-v", "warning", "-i", str(path), "-map", "0:a", "-f", "null", "-"],
                                capture_output=True, text=True, timeout=60).stderr
        return sorted(re.sub(r" @ 0x[0-9a-f]+", "", line) for line in (probe + decode).splitlines())

    assert warnings(ours) == warnings(reference)


def test_mutagen_reads_the_tags_and_the_cover(inputs):
    ours, _, _, cover, _ = inputs
    tags = MP4(ours).tags
    assert tags["\xa9nam"] == ["Le Livre — été"] and tags["\xa9alb"] == ["Le Livre — été"]
    assert tags["\xa9ART"] == ["Zoë Écrivain"] and tags["aART"] == ["Zoë Écrivain"]
    assert tags["\xa9gen"] == ["Audiobook"] and tags["\xa9day"] == ["2025"]
    [picture] = tags["covr"]
    assert bytes(picture) == cover.read_bytes() and picture.imageformat == picture.FORMAT_JPEG


def test_the_index_comes_first_and_the_file_holds_nothing_else(inputs):
    ours, *_ = inputs
    assert top_level_boxes(ours) == [b"ftyp", b"moov", b"mdat"]
    assert [p.name for p in ours.parent.iterdir()] == ["ours.m4b"]


def test_past_the_32_bit_offset_limit_the_chunk_offsets_are_64_bit(inputs, tmp_path):
    """A 4 GiB book is not practical here: the limit is a parameter, crossed by a small book."""
    ours, reference, paths, *_ = inputs
    chapters = [m4b.ChapterAudio(t, p) for t, p in zip(TITLES, paths)]
    small, large = tmp_path / "stco.m4b", tmp_path / "co64.m4b"
    for path, limit in ((small, 0xFFFFFFFF), (large, 4096)):
        with open(path, "wb") as fh:
            m4b.write_m4b(fh, chapters, tags={"title": "T"}, co64_above=limit)
    audio = {p: next(t for t in tracks(p) if t.handler == b"soun") for p in (small, large)}
    assert len(audio[small].offsets) == len(audio[large].offsets) >= 1
    raw, before = large.read_bytes(), small.read_bytes()
    # Each chunk offset points at the same audio in both files (the 64-bit table moved it on).
    assert [raw[o:o + 64] for o in audio[large].offsets] == [before[o:o + 64] for o in audio[small].offsets]
    assert b"co64" in raw and b"stco" in raw  # the audio's table is co64; the titles' stays stco
    assert b"co64" not in small.read_bytes()
    assert _pcm(large) == _pcm(reference)
    assert mp4.needs_co64(2**32, 2**32 - 1) and not mp4.needs_co64(2**32 - 1, 2**32 - 1)


def test_crc_protected_frames_are_copied_without_their_crc(inputs, tmp_path):
    ours, _, paths, *_ = inputs
    protected = tmp_path / "crc.aac"
    protected.write_bytes(_with_crc(paths[0].read_bytes()))
    a, b = tmp_path / "a.m4b", tmp_path / "b.m4b"
    for out, path in ((a, paths[0]), (b, protected)):
        with open(out, "wb") as fh:
            m4b.write_m4b(fh, [m4b.ChapterAudio("One", path)], tags={})
    assert _pcm(a) == _pcm(b)


def _with_crc(data: bytes) -> bytes:
    """Return the ADTS stream with protection_absent cleared and a 2-byte CRC field after each header."""
    out, pos = bytearray(), 0
    while pos < len(data):
        length = ((data[pos + 3] & 0x03) << 11) | (data[pos + 4] << 3) | (data[pos + 5] >> 5)
        head = bytearray(data[pos:pos + 7])
        head[1] &= 0xFE
        new = length + 2
        head[3] = (head[3] & 0xFC) | (new >> 11)
        head[4] = (new >> 3) & 0xFF
        head[5] = (head[5] & 0x1F) | ((new & 0x07) << 5)
        out += head + b"\xAB\xCD" + data[pos + 7:pos + length]
        pos += length
    return bytes(out)


@pytest.mark.parametrize("damage", ["truncated", "garbage-inside", "two-blocks-a-frame", "not-adts"])
def test_a_damaged_chapter_file_is_refused_in_one_line(inputs, tmp_path, damage):
    _, _, paths, *_ = inputs
    data = paths[1].read_bytes()
    if damage == "truncated":
        data = data[:-5]
    elif damage == "garbage-inside":
        data = data[:700] + b"\x00" * 40 + data[700:]
    elif damage == "two-blocks-a-frame":
        data = data[:6] + bytes([data[6] | 0x01]) + data[7:]
    else:
        data = b"ID3 not an ADTS stream at all"
    bad = tmp_path / "bad.aac"
    bad.write_bytes(data)
    out = tmp_path / "book.m4b"
    with pytest.raises(OutputError) as info, open(out, "wb") as fh:
        m4b.write_m4b(fh, [m4b.ChapterAudio("One", paths[0]), m4b.ChapterAudio("Two", bad)], tags={})
    line = info.value.one_line()
    assert str(bad) in line and "'Two'" in line and "Delete that file" in line and "\n" not in line


def test_chapters_of_different_formats_are_refused(inputs, tmp_path):
    _, _, paths, *_ = inputs
    mono = _adts(tmp_path / "mono.aac", 0.5, 440, rate=24000, channels=1)
    with pytest.raises(OutputError, match="one M4B holds one audio format") as info, \
            open(tmp_path / "b.m4b", "wb") as fh:
        m4b.write_m4b(fh, [m4b.ChapterAudio("One", paths[0]), m4b.ChapterAudio("Mono", mono)], tags={})
    assert "24000 Hz" in info.value.message and "48000 Hz" in info.value.message


def test_the_book_mux_converts_a_chapter_of_another_format_to_the_first_ones(inputs, tmp_path):
    """A server that answered a chapter's first chunk at another rate gave that chapter another format (CI)."""
    _, _, paths, *_ = inputs
    mono = _adts(tmp_path / "mono.aac", 0.5, 440, rate=24000, channels=1)
    out = mux_m4b([ChapterAudio("One", paths[0]), ChapterAudio("Mono", mono), ChapterAudio("Three", paths[2])],
                  tmp_path / "mixed.m4b", meta=BookMeta("Mixed", "A"), ffmpeg=ffmpeg_exe())
    stream = _probe(out, "-show_streams", "-select_streams", "a:0")["streams"][0]
    assert (int(stream["sample_rate"]), stream["channels"]) == (RATE, 2)
    chapters = _probe(out, "-show_chapters")["chapters"]
    assert [c["tags"]["title"] for c in chapters] == ["One", "Mono", "Three"]
    middle = float(chapters[1]["end_time"]) - float(chapters[1]["start_time"])
    # Its length kept: the source's priming and last frame, then the new encode's, at most.
    assert 0.5 <= middle <= 0.5 + 2 * 1024 / 24000 + 2 * 1024 / RATE
    assert not list(tmp_path.glob(".mixed*"))  # no temp file left beside the output
    assert mono.is_file()  # the chapter file itself is left alone


def test_a_set_cancel_stops_the_mux_and_keeps_the_good_file(inputs, tmp_path):
    _, _, paths, *_ = inputs
    out = tmp_path / "book.m4b"
    out.write_bytes(b"the good one")
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled, match="resume"):
        mux_m4b([ChapterAudio("One", paths[0])], out, meta=BookMeta("B", "A"), ffmpeg=ffmpeg_exe(), cancel=cancel)
    assert out.read_bytes() == b"the good one"
    assert [p.name for p in tmp_path.iterdir()] == ["book.m4b"]


def test_the_writers_memory_does_not_grow_with_the_book(inputs, tmp_path):
    """Ten times the frames, the same peak: the index is streamed, never listed per frame."""
    _, _, paths, *_ = inputs
    frames = paths[2].read_bytes()  # ~100 frames of 48 kHz stereo, ~26 KB
    peaks = []
    for copies in (48, 480):  # ~1.2 MB (a few read blocks: past warming up) and ~12 MB; ~5,000 and ~50,000 frames
        book = tmp_path / f"{copies}.aac"
        book.write_bytes(frames * copies)
        tracemalloc.start()
        try:
            with open(tmp_path / f"{copies}.m4b", "wb") as fh:
                m4b.write_m4b(fh, [m4b.ChapterAudio("One", book), m4b.ChapterAudio("Two", paths[0])], tags={"title": "T"})
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert _packets(tmp_path / f"{copies}.m4b") == _packets(book) + _packets(paths[0])
    assert peaks[1] - peaks[0] < 128 * 1024, peaks


def test_at_22050_hz_mono_the_marks_and_samples_are_ffmpegs_too(tmp_path):
    """Rates whose frames are no whole number of milliseconds: the marks round as ffmpeg's did."""
    paths = [_adts(tmp_path / f"c{i}.aac", s, 500 + 90 * i, rate=22050, channels=1)
             for i, s in enumerate((0.9, 1.7, 0.4))]
    titles = ["a", "b", "c"]
    reference = ffmpeg_m4b(list(zip(titles, paths)), tmp_path / "ffmpeg.m4b", tags={"title": "T"}, cover=None,
                           rate=22050, frames=[_packets(p) for p in paths])
    ours = tmp_path / "ours.m4b"
    with open(ours, "wb") as fh:
        m4b.write_m4b(fh, [m4b.ChapterAudio(t, p) for t, p in zip(titles, paths)], tags={"title": "T"})
    marks = lambda path: [(c["start"], c["end"]) for c in _probe(path, "-show_chapters")["chapters"]]
    assert marks(ours) == marks(reference) and len(marks(ours)) == 3
    assert _pcm(ours) == _pcm(reference)


def test_past_255_chapters_the_quicktime_list_has_them_all(inputs, tmp_path):
    """Nero's list counts chapters in one byte (ffmpeg's stopped at 255 too); Apple's track has no such limit."""
    _, _, paths, *_ = inputs
    data = paths[0].read_bytes()
    frame = data[:((data[3] & 0x03) << 11) | (data[4] << 3) | (data[5] >> 5)]
    chapters = []
    for i in range(300):
        path = tmp_path / f"{i}.aac"
        path.write_bytes(frame * 2)
        chapters.append(m4b.ChapterAudio(f"Kapitel {i + 1} — ü", path))
    out = tmp_path / "many.m4b"
    with open(out, "wb") as fh:
        m4b.write_m4b(fh, chapters, tags={"title": "T"})
    found = _probe(out, "-show_chapters")["chapters"]
    assert [c["tags"]["title"] for c in found] == [c.title for c in chapters]
    assert [c.title for c in MP4(out).chapters] == [c.title for c in chapters[:255]]
