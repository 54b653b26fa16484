"""A small, independent MP4 atom reader for the tests: the QuickTime chapter text track.

It shares nothing with the app's MP4 writer (app/audio/mp4.py, m4b.py): it walks the boxes
of ISO/IEC 14496-12 and QuickTime, finds the track the audio track's
`tref/chap` names, and returns each text sample's start, duration and title.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path

_CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"udta", b"tref", b"edts", b"dinf"}


@dataclass
class Track:
    track_id: int = 0
    handler: bytes = b""
    timescale: int = 0
    duration: int = 0
    chap_refs: list[int] = field(default_factory=list)
    stts: list[tuple[int, int]] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    offsets: list[int] = field(default_factory=list)
    stsc: list[tuple[int, int]] = field(default_factory=list)


@dataclass(frozen=True)
class QtChapter:
    start: float
    duration: float
    title: str


def _boxes(data: bytes, start: int, end: int):
    """Yield (type, payload start, payload end) of the boxes between start and end."""
    pos = start
    while pos + 8 <= end:
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[pos + 8:pos + 16])[0]
            header = 16
        elif size == 0:
            size = end - pos
        if size < header or pos + size > end:
            raise ValueError(f"bad box {kind!r} at {pos}")
        yield kind, pos + header, pos + size
        pos += size


def _read_track(data: bytes, start: int, end: int, track: Track) -> None:
    for kind, lo, hi in _boxes(data, start, end):
        body = data[lo:hi]
        if kind in _CONTAINERS:
            _read_track(data, lo, hi, track)
        elif kind == b"chap":
            track.chap_refs = list(struct.unpack(f">{len(body) // 4}I", body))
        elif kind == b"tkhd":
            track.track_id = struct.unpack(">I", body[20:24] if body[0] == 1 else body[12:16])[0]
        elif kind == b"mdhd":
            if body[0] == 1:
                track.timescale, track.duration = struct.unpack(">IQ", body[20:32])
            else:
                track.timescale, track.duration = struct.unpack(">II", body[12:20])
        elif kind == b"hdlr":
            track.handler = body[8:12]
        elif kind == b"stts":
            n = struct.unpack(">I", body[4:8])[0]
            track.stts = [struct.unpack(">II", body[8 + 8 * i:16 + 8 * i]) for i in range(n)]
        elif kind == b"stsz":
            fixed, n = struct.unpack(">II", body[4:12])
            track.sizes = [fixed] * n if fixed else list(struct.unpack(f">{n}I", body[12:12 + 4 * n]))
        elif kind == b"stco":
            n = struct.unpack(">I", body[4:8])[0]
            track.offsets = list(struct.unpack(f">{n}I", body[8:8 + 4 * n]))
        elif kind == b"co64":
            n = struct.unpack(">I", body[4:8])[0]
            track.offsets = list(struct.unpack(f">{n}Q", body[8:8 + 8 * n]))
        elif kind == b"stsc":
            n = struct.unpack(">I", body[4:8])[0]
            track.stsc = [struct.unpack(">II", body[8 + 12 * i:16 + 12 * i]) for i in range(n)]


def tracks(path: Path) -> list[Track]:
    """Return every track of an MP4 file."""
    data = Path(path).read_bytes()
    found = []
    for kind, lo, hi in _boxes(data, 0, len(data)):
        if kind == b"moov":
            for sub, slo, shi in _boxes(data, lo, hi):
                if sub == b"trak":
                    track = Track()
                    _read_track(data, slo, shi, track)
                    found.append(track)
    return found


def _sample_offsets(track: Track) -> list[int]:
    """Return the file offset of each sample, from the chunk offsets and samples-per-chunk runs."""
    offsets = []
    sample = 0
    for chunk_no, chunk_offset in enumerate(track.offsets, start=1):
        per_chunk = next(n for first, n in reversed(track.stsc) if first <= chunk_no)
        pos = chunk_offset
        for _ in range(per_chunk):
            if sample >= len(track.sizes):
                break
            offsets.append(pos)
            pos += track.sizes[sample]
            sample += 1
    return offsets


def qt_chapters(path: Path) -> list[QtChapter]:
    """Return the chapters of the text track the audio track's tref/chap references (empty when none)."""
    all_tracks = tracks(path)
    audio = next((t for t in all_tracks if t.handler == b"soun"), None)
    if audio is None or not audio.chap_refs:
        return []
    text = next((t for t in all_tracks if t.track_id in audio.chap_refs), None)
    if text is None:
        return []
    data = Path(path).read_bytes()
    durations = [d for count, d in text.stts for _ in range(count)]
    chapters, clock = [], 0
    for offset, size, duration in zip(_sample_offsets(text), text.sizes, durations):
        length = struct.unpack(">H", data[offset:offset + 2])[0]
        title = data[offset + 2:offset + 2 + length].decode("utf-8")
        chapters.append(QtChapter(clock / text.timescale, duration / text.timescale, title))
        clock += duration
    return chapters


def top_level_boxes(path: Path) -> list[bytes]:
    """Return the file's top-level MP4 box types in order (read here, not by the app)."""
    kinds = []
    with open(path, "rb") as fh:
        while head := fh.read(8):
            size, kind = int.from_bytes(head[:4], "big"), head[4:]
            if size == 1:
                size = int.from_bytes(fh.read(8), "big") - 8
            kinds.append(kind)
            fh.seek(size - 8, 1)
    return kinds
