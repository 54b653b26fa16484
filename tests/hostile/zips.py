"""Zip containers written byte by byte, so a member can lie: its size, method or flags.

No code is shared with app/: the headers are packed here from the zip specification (APPNOTE
4.3.7 and 4.3.12), and a bomb's compressed bytes are made once per session and reused.
"""
from __future__ import annotations

import bz2
import functools
import lzma
import struct
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path

STORED, DEFLATE, BZIP2, LZMA = 0, 8, 12, 14
#: What a bomb member inflates to: over the readers' 64 MB cap for any one member.
BOMB_BYTES = 80 * 1024 * 1024
#: What a bomb member says it inflates to.
BOMB_CLAIM = 2_000


@dataclass(frozen=True)
class Member:
    name: str
    data: bytes = b""
    method: int = DEFLATE
    flags: int = 0
    #: Compressed bytes given as they are (a bomb); then crc and size describe the inflated data.
    raw: bytes | None = None
    crc: int = 0
    size: int = 0
    #: The uncompressed size written in the headers, when it should lie.
    claim: int | None = None


def _compress(data: bytes, method: int, *, fast: bool = False) -> bytes:
    """Compress data for a member; fast: the encoders' quickest settings (for 80 MB of zeros: ~4x quicker)."""
    if method == STORED:
        return data
    if method == DEFLATE:
        c = zlib.compressobj(1 if fast else 6, zlib.DEFLATED, -15)
        return c.compress(data) + c.flush()
    if method == BZIP2:
        return bz2.compress(data, 9)  # level 1 was no quicker on 80 MB of zeros (2.3 s against 1.9 s)
    if method == LZMA:
        return _lzma(data, fast=fast)
    return data  # a method nobody reads: the bytes only need to be there


def _lzma(data: bytes, *, fast: bool = False) -> bytes:
    filt = {"id": lzma.FILTER_LZMA1, "preset": 1}
    if fast:  # encoder-only settings: the properties in the header, so what a reader decodes, are the same
        filt.update(preset=0, mode=lzma.MODE_FAST, nice_len=273, mf=lzma.MF_HC3)
    props = lzma._encode_filter_properties(filt)  # noqa: SLF001 - the zip LZMA header carries them
    body = lzma.compress(data, format=lzma.FORMAT_RAW,
                         filters=[lzma._decode_filter_properties(lzma.FILTER_LZMA1, props)])  # noqa: SLF001
    return struct.pack("<BBH", 9, 4, len(props)) + props + body


#: One lock per method: two methods still compress side by side.
_bomb_locks: dict[int, threading.Lock] = {}


@functools.cache
def _bomb_unlocked(method: int) -> Member:
    zeros = b"\0" * BOMB_BYTES
    return Member("", raw=_compress(zeros, method, fast=True), method=method, crc=zlib.crc32(zeros),
                  size=BOMB_BYTES, claim=BOMB_CLAIM)


def bomb(method: int) -> Member:
    """Return a member template of BOMB_BYTES zeros compressed by method (made once per session).

    Locked: the cases are built three at a time, and an unlocked cache let two threads compress
    the same 80 MB at once.
    """
    with _bomb_locks.setdefault(method, threading.Lock()):
        return _bomb_unlocked(method)


def bomb_member(name: str, method: int) -> Member:
    template = bomb(method)
    return Member(name, method=method, raw=template.raw, crc=template.crc, size=template.size, claim=BOMB_CLAIM)


def write_zip(path: Path, members: list[Member]) -> Path:
    """Write the members in order, with a central directory; return path."""
    out = bytearray()
    central = bytearray()
    for m in members:
        name = m.name.encode()
        raw = m.raw if m.raw is not None else _compress(m.data, m.method)
        crc = m.crc if m.raw is not None else zlib.crc32(m.data)
        size = m.claim if m.claim is not None else (m.size if m.raw is not None else len(m.data))
        offset = len(out)
        out += struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 63, m.flags, m.method, 0, 0x5021, crc, len(raw), size,
                           len(name), 0) + name + raw
        central += struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 63, 63, m.flags, m.method, 0, 0x5021, crc,
                               len(raw), size, len(name), 0, 0, 0, 0, 0, offset) + name
    cd_at = len(out)
    out += central + struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(members), len(members), len(central),
                                 cd_at, 0)
    path.write_bytes(bytes(out))
    return path
