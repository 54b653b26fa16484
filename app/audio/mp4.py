"""MP4 boxes (ISO/IEC 14496-12, QuickTime, iTunes) as functions, for the M4B writer (m4b.py).

A box is built as a tree whose size is known before anything is written: a
leaf is bytes or a `Streamed` (a size and a function that writes exactly that
many bytes), so a sample table of a million entries is written straight from
the chapter files, never held in memory. The layouts follow what ffmpeg's
`ipod` muxer writes, so the M4B means what the one ffmpeg made did.
"""
from __future__ import annotations

import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import BinaryIO, Union

_U32 = 0xFFFFFFFF
#: Durations past this take a version-1 box (64-bit), as ffmpeg decides: some readers take them as signed.
_I32 = 0x7FFFFFFF
#: The unity transformation matrix of mvhd/tkhd (16.16 and 2.30 fixed point).
_MATRIX = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
#: ISO-639-2/T "und", packed as mdhd wants it (three 5-bit letters, each minus 0x60).
LANG_UND = 0x55C4
#: Macintosh language code 0 (English): what ffmpeg gives the chapter text track.
LANG_MAC_ENGLISH = 0
#: The QuickTime text sample description ffmpeg gives a chapter track (tx3g-style fields:
#: display flags, justification, background, default text box, one style record, a font
#: table with one nameless font). Players only need it to be a valid text description.
_TEXT_SAMPLE_ENTRY = bytes.fromhex(
    "00000001" "0000" "00000000" "0000000000000000" "00000000" "0001" "0000" "00000000"
    "0000000d" "66746162" "0001" "0001" "00")
#: Appended to each chapter title sample: the text is UTF-8 ('encd' 0x100), as ffmpeg writes it.
_TEXT_ENCODING = struct.pack(">I4sI", 12, b"encd", 0x100)


@dataclass(frozen=True)
class Streamed:
    """A leaf of `size` bytes that `write` produces when the box is written."""

    size: int
    write: Callable[[BinaryIO], None]


Node = Union[bytes, "Box", Streamed]


class Box:
    """A box: its four-character type and its content, in order."""

    def __init__(self, kind: bytes, *children: Node):
        self.kind = kind
        self.children = children
        body = sum(len(c) if isinstance(c, bytes) else c.size for c in children)
        # A box over 4 GiB says so with a 64-bit size after its type.
        self.size = body + (8 if body + 8 <= _U32 else 16)

    def write(self, out: BinaryIO) -> None:
        if self.size <= _U32:
            out.write(struct.pack(">I4s", self.size, self.kind))
        else:
            out.write(struct.pack(">I4sQ", 1, self.kind, self.size))
        for child in self.children:
            if isinstance(child, bytes):
                out.write(child)
            else:
                child.write(out)


def full(kind: bytes, version: int, flags: int, *children: Node) -> Box:
    """Return a full box (version and flags first)."""
    return Box(kind, struct.pack(">I", version << 24 | flags), *children)


def header(kind: bytes, payload_size: int) -> bytes:
    """Return the header of a box whose `payload_size` bytes the caller writes after it (mdat)."""
    if payload_size + 8 <= _U32:
        return struct.pack(">I4s", payload_size + 8, kind)
    return struct.pack(">I4sQ", 1, kind, payload_size + 16)


def ftyp(major: bytes, minor: int, compatible: Iterable[bytes]) -> Box:
    return Box(b"ftyp", major, struct.pack(">I", minor), *compatible)


def mvhd(timescale: int, duration: int, next_track: int) -> Box:
    v = 1 if duration > _I32 else 0
    times = struct.pack(">QQIQ" if v else ">IIII", 0, 0, timescale, duration)
    rest = struct.pack(">IH10x", 0x10000, 0x100) + _MATRIX + bytes(24) + struct.pack(">I", next_track)
    return full(b"mvhd", v, 0, times + rest)


def tkhd(track: int, duration: int, *, enabled: bool, alternate_group: int, volume: int) -> Box:
    v = 1 if duration > _I32 else 0
    times = struct.pack(">QQI4xQ" if v else ">III4xI", 0, 0, track, duration)
    rest = struct.pack(">8xhhH2x", 0, alternate_group, volume) + _MATRIX + struct.pack(">II", 0, 0)
    # Flags: 2 = in the movie, 1 = enabled (played); the chapter track is in the movie, never played.
    return full(b"tkhd", v, 2 | int(enabled), times + rest)


def edts(duration: int) -> Box:
    """Return an edit list that plays the whole track from its first sample, trimming nothing."""
    v = 1 if duration > _I32 else 0
    entry = struct.pack(">QqI" if v else ">IiI", duration, 0, 0x10000)
    return Box(b"edts", full(b"elst", v, 0, struct.pack(">I", 1), entry))


def tref_chapters(track: int) -> Box:
    """Return the reference that names `track` as this track's chapter list (QuickTime `chap`)."""
    return Box(b"tref", Box(b"chap", struct.pack(">I", track)))


def mdhd(timescale: int, duration: int, language: int) -> Box:
    v = 1 if duration > _I32 else 0
    times = struct.pack(">QQIQ" if v else ">IIII", 0, 0, timescale, duration)
    return full(b"mdhd", v, 0, times + struct.pack(">HH", language, 0))


def hdlr(handler: bytes, name: str, *, manufacturer: bytes = bytes(4)) -> Box:
    return full(b"hdlr", 0, 0, struct.pack(">I4s4s8x", 0, handler, manufacturer) + name.encode() + b"\0")


def dinf() -> Box:
    """Return the data reference that says the samples are in this file."""
    return Box(b"dinf", full(b"dref", 0, 0, struct.pack(">I", 1), full(b"url ", 0, 1)))


def smhd() -> Box:
    return full(b"smhd", 0, 0, bytes(4))


def gmhd_text() -> Box:
    """Return the QuickTime base media header of a text track (what ffmpeg writes for chapters)."""
    gmin = full(b"gmin", 0, 0, struct.pack(">HHHHhH", 0x40, 0x8000, 0x8000, 0x8000, 0, 0))
    return Box(b"gmhd", gmin, Box(b"text", _MATRIX))


def stsd_mp4a(*, channels: int, rate: int, asc: bytes, avg_bitrate: int, max_bitrate: int, es_id: int) -> Box:
    """Return the sample description of AAC audio: an `mp4a` entry and its `esds`."""
    # QuickTime sound description v0: version, revision, vendor, channels, 16 bits,
    # compression id, packet size, rate as 16.16 (0 when it does not fit, as ffmpeg).
    sound = struct.pack(">6xH HHI HH HH I", 1, 0, 0, 0, channels, 16, 0, 0, (rate << 16) if rate <= 0xFFFF else 0)
    decoder_config = struct.pack(">BB3sII", 0x40, 0x15, bytes(3), max_bitrate, avg_bitrate) + _descriptor(5, asc)
    es = struct.pack(">HB", es_id, 0) + _descriptor(4, decoder_config) + _descriptor(6, b"\x02")
    esds = full(b"esds", 0, 0, _descriptor(3, es))
    return full(b"stsd", 0, 0, struct.pack(">I", 1), Box(b"mp4a", sound, esds))


def _descriptor(tag: int, body: bytes) -> bytes:
    """Return an MPEG-4 descriptor with its length in four 7-bit bytes (as ffmpeg writes it)."""
    n = len(body)
    size = bytes([0x80 | (n >> 21) & 0x7F, 0x80 | (n >> 14) & 0x7F, 0x80 | (n >> 7) & 0x7F, n & 0x7F])
    return bytes([tag]) + size + body


def stsd_text() -> Box:
    return full(b"stsd", 0, 0, struct.pack(">I", 1), Box(b"text", struct.pack(">6xH", 1) + _TEXT_SAMPLE_ENTRY))


def text_sample(title: str) -> bytes:
    """Return one chapter title as a QuickTime text sample."""
    text = _truncate_utf8(title, 0xFFFF)
    return struct.pack(">H", len(text)) + text + _TEXT_ENCODING


def stts(runs: list[tuple[int, int]]) -> Box:
    """Return the decoding times: runs of (sample count, duration each)."""
    return full(b"stts", 0, 0, struct.pack(">I", len(runs)), b"".join(struct.pack(">II", *r) for r in runs))


def stsc(runs: list[tuple[int, int]]) -> Box:
    """Return the sample-to-chunk table: (first chunk, samples per chunk) from that chunk on."""
    return full(b"stsc", 0, 0, struct.pack(">I", len(runs)), b"".join(struct.pack(">III", f, n, 1) for f, n in runs))


def stsz(count: int, write_sizes: Callable[[BinaryIO], None]) -> Box:
    """Return the sample size table; `write_sizes` writes `count` 32-bit big-endian sizes."""
    return full(b"stsz", 0, 0, struct.pack(">II", 0, count), Streamed(4 * count, write_sizes))


def chunk_offsets(count: int, write_offsets: Callable[[BinaryIO, bool], None], *, large: bool) -> Box:
    """Return `stco` (32-bit offsets) or, for `large` files, `co64`; `write_offsets(out, large)` writes them."""
    width = 8 if large else 4
    return full(b"co64" if large else b"stco", 0, 0, struct.pack(">I", count),
                Streamed(width * count, lambda out: write_offsets(out, large)))


def needs_co64(last_offset: int, limit: int = _U32) -> bool:
    """Return whether a chunk offset past `limit` needs 64-bit chunk offsets."""
    return last_offset > limit


def roll_groups(samples: int) -> list[Box]:
    """Return the sample groups that tell a decoder to start one AAC frame before a seek point."""
    sgpd = full(b"sgpd", 1, 0, struct.pack(">4sIIh", b"roll", 2, 1, -1))
    sbgp = full(b"sbgp", 0, 0, struct.pack(">4sIII", b"roll", 1, samples, 1))
    return [sgpd, sbgp]


#: The reverse-DNS owner of the freeform atoms iTunes, Mp3tag and Audiobookshelf read.
ITUNES_FREEFORM = "com.apple.iTunes"


def ilst(tags: list[tuple[bytes, str]], cover: tuple[bytes, bytes] | None, *,
         freeform: list[tuple[str, str]] = (), media_kind: int | None = None) -> Box:
    """Return the iTunes metadata list: UTF-8 text items, the media kind (`stik`), freeform
    `----:com.apple.iTunes:NAME` items, then the cover ((JPEG|PNG) kind, bytes)."""
    items: list[Node] = [Box(key, _data(1, value.encode("utf-8"))) for key, value in tags if value]
    if media_kind is not None:
        items.append(Box(b"stik", _data(21, bytes([media_kind]))))  # 21: a signed big-endian integer
    for name, value in freeform:
        if value:
            items.append(Box(b"----", full(b"mean", 0, 0, ITUNES_FREEFORM.encode()), full(b"name", 0, 0, name.encode()),
                             _data(1, value.encode("utf-8"))))
    if cover is not None:
        items.append(Box(b"covr", _data({b"jpeg": 13, b"png": 14}[cover[0]], cover[1])))
    return Box(b"ilst", *items)


def _data(kind: int, value: bytes) -> Box:
    return Box(b"data", struct.pack(">II", kind, 0), value)


def udta(ilst_box: Box, chapters: list[tuple[int, str]]) -> Box:
    """Return the user data: iTunes tags and, when there are chapters, the Nero chapter list."""
    meta = full(b"meta", 0, 0, hdlr(b"mdir", "", manufacturer=b"appl"), ilst_box)
    return Box(b"udta", meta, chpl(chapters)) if chapters else Box(b"udta", meta)


def chpl(chapters: list[tuple[int, str]]) -> Box:
    """Return Nero's chapter list: (start in 100 ns, title), at most 255 as its count is one byte."""
    body = [struct.pack(">IB", 0, min(len(chapters), 255))]
    for start, title in chapters[:255]:
        text = _truncate_utf8(title, 255)
        body.append(struct.pack(">QB", start, len(text)) + text)
    return full(b"chpl", 1, 0, *body)


def _truncate_utf8(text: str, limit: int) -> bytes:
    """Return at most `limit` bytes of UTF-8, never cutting a character in two."""
    data = text.encode("utf-8")
    return data if len(data) <= limit else data[:limit].decode("utf-8", "ignore").encode("utf-8")
