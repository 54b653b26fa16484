"""Inflate one zip member through a byte counter, whatever its compression method.

Python's zipfile bounds what one read() inflates only for deflate: a 3 KB bzip2 or LZMA
member can expand to gigabytes inside a single call, before any cap the caller passes is
looked at. Here the raw bytes are read from the member's local header on and fed to a
decompressor with `max_length`, so memory never exceeds the cap plus one buffer. Methods
this tool cannot bound or read (implode, shrink, deflate64, PPMd, zstd, ...) and encrypted
members (ZipCrypto or AES) are refused with a line naming them, before a byte is inflated.
"""
from __future__ import annotations

import bz2
import lzma
import struct
import zipfile
import zlib
from pathlib import Path

from app.core.errors import CorruptBook, ProtectedBook

#: Compression methods read here: stored, deflate, bzip2, LZMA.
READABLE = {0: "stored", 8: "deflate", 12: "bzip2", 14: "LZMA"}
#: Names of the methods refused, for the message.
METHOD_NAMES = {1: "shrink", 2: "reduce", 3: "reduce", 4: "reduce", 5: "reduce", 6: "implode", 9: "deflate64",
                10: "PKWARE DCL implode", 18: "IBM TERSE", 19: "LZ77", 20: "zstd (old id)", 93: "zstd",
                94: "MP3", 95: "xz", 96: "JPEG", 97: "WavPack", 98: "PPMd", 99: "AES encryption"}
_CHUNK = 64 * 1024
_HINT = "Open it in the program that made it and save an unprotected copy with ordinary compression"


def check_member(book: str, info: zipfile.ZipInfo) -> None:
    """Refuse an encrypted member, or one compressed by a method that cannot be inflated with a bound."""
    if info.flag_bits & 0x1 or info.compress_type == 99:
        kind = "AES" if info.compress_type == 99 else ("strong" if info.flag_bits & 0x40 else "ZipCrypto")
        raise ProtectedBook(f"{book}: {info.filename!r} is encrypted ({kind} password protection)", hint=_HINT)
    if info.compress_type not in READABLE:
        name = METHOD_NAMES.get(info.compress_type, "unknown")
        raise CorruptBook(
            f"{book}: {info.filename!r} uses zip compression method {info.compress_type} ({name}), which this tool "
            f"cannot read with a size bound (it reads {', '.join(READABLE.values())})", hint=_HINT)


class _Stored:
    def __init__(self) -> None:
        self.eof = False
        self._pending = b""

    def feed(self, data: bytes, limit: int) -> bytes:
        data = self._pending + data
        self._pending = data[limit:]
        return data[:limit]

    def more(self, limit: int) -> bytes:
        return self.feed(b"", limit)


class _Deflate:
    def __init__(self) -> None:
        self._d = zlib.decompressobj(-15)

    @property
    def eof(self) -> bool:
        return self._d.eof

    def feed(self, data: bytes, limit: int) -> bytes:
        return self._d.decompress(self._d.unconsumed_tail + data, limit)

    def more(self, limit: int) -> bytes:
        return self._d.decompress(self._d.unconsumed_tail, limit) if self._d.unconsumed_tail else b""


class _Bounded:
    """bz2/lzma decompressors: `max_length` caps each call; buffered input is drained with b""."""

    def __init__(self, make) -> None:
        self._make = make
        self._d = None
        self._header = b""

    @property
    def eof(self) -> bool:
        return self._d is not None and self._d.eof

    def feed(self, data: bytes, limit: int) -> bytes:
        if self._d is None:
            self._header += data
            made = self._make(self._header)
            if made is None:
                return b""
            self._d, data = made
        if self._d.eof:
            return b""
        return self._d.decompress(data, limit)

    def more(self, limit: int) -> bytes:
        if self._d is None or self._d.eof or self._d.needs_input:
            return b""
        return self._d.decompress(b"", limit)


def _bzip2(header: bytes):
    return bz2.BZ2Decompressor(), header


def _lzma(header: bytes):
    # The zip LZMA header: version (2 bytes), properties size (2 bytes), the LZMA1 properties.
    if len(header) < 4:
        return None
    (size,) = struct.unpack("<H", header[2:4])
    if len(header) < 4 + size:
        return None
    props = header[4:4 + size]
    try:
        filt = lzma._decode_filter_properties(lzma.FILTER_LZMA1, props)  # noqa: SLF001 - zipfile does the same
    except lzma.LZMAError as exc:
        raise zipfile.BadZipFile(f"bad LZMA properties ({exc})") from None
    return lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[filt]), header[4 + size:]


def _decompressor(method: int):
    if method == 0:
        return _Stored()
    if method == 8:
        return _Deflate()
    return _Bounded(_bzip2 if method == 12 else _lzma)


def _raw_start(fh, info: zipfile.ZipInfo) -> None:
    fh.seek(info.header_offset)
    header = fh.read(30)
    if len(header) < 30 or header[:4] != b"PK\x03\x04":
        raise zipfile.BadZipFile(f"bad local header for {info.filename!r}")
    name_len, extra_len = struct.unpack("<HH", header[26:30])
    fh.seek(info.header_offset + 30 + name_len + extra_len)


def stream_member(path: Path, info: zipfile.ZipInfo, limit: int, *, book: str | None = None) -> bytes:
    """Return the member's bytes, at most `limit` of them (a longer member returns limit bytes: the caller
    compares). Raises zipfile.BadZipFile on damaged data, a CRC mismatch, or a member holding more or
    fewer bytes than it declares (inflated no further than one byte past the declaration)."""
    check_member(book or path.name, info)
    # One byte past the declared size is enough to catch a member that lies about it.
    want = min(limit, info.file_size + 1)
    try:
        data = _inflate(path, info, want)
    except (zlib.error, lzma.LZMAError, EOFError, ValueError) as exc:
        raise zipfile.BadZipFile(f"{info.filename!r} is damaged ({exc})") from None
    except OSError as exc:  # bz2's "Invalid data stream"
        raise zipfile.BadZipFile(f"{info.filename!r} is damaged ({exc})") from None
    if len(data) > info.file_size:
        raise zipfile.BadZipFile(f"{info.filename!r} holds more than the {info.file_size:,} bytes it declares "
                                 "(it may be a zip bomb)")
    if len(data) < want and len(data) != info.file_size:
        raise zipfile.BadZipFile(f"{info.filename!r} holds {len(data):,} bytes, not the {info.file_size:,} it declares")
    return data


def _inflate(path: Path, info: zipfile.ZipInfo, limit: int) -> bytes:
    decomp = _decompressor(info.compress_type)
    out: list[bytes] = []
    got = 0
    crc = 0
    with open(path, "rb") as fh:
        _raw_start(fh, info)
        left = info.compress_size
        while got < limit:
            piece = decomp.more(limit - got)
            if not piece:
                if left <= 0 or decomp.eof:
                    break
                raw = fh.read(min(_CHUNK, left))
                if not raw:
                    raise zipfile.BadZipFile(f"{info.filename!r} is truncated")
                left -= len(raw)
                piece = decomp.feed(raw, limit - got)
            out.append(piece)
            got += len(piece)
            crc = zlib.crc32(piece, crc)
    data = b"".join(out)
    if got < limit and crc != info.CRC:
        raise zipfile.BadZipFile(f"bad CRC-32 for {info.filename!r}")
    return data
