"""Add ID3v2.4 frames to an MP3 whose tag ffmpeg wrote: the frames its writer cannot make (COMM, TIT3).

ffmpeg's ID3 muxer writes text frames and TXXX, but a "comment" becomes TXXX:comment, never the
COMM frame players show as the comment, and a subtitle has no key for TIT3. The tag is read
(ID3v2.4 header, frames up to the padding), the new frames go after the existing ones (any of
the same id replaced), and the file is written anew: header, frames, then the audio copied as is.
Standard library only (mutagen stays an independent reader in the tests).
"""
from __future__ import annotations

import shutil
import struct
from pathlib import Path

_HEADER = 10
#: A tag larger than this is not one ffmpeg wrote for a chapter (a cover is a few hundred KB).
MAX_TAG_BYTES = 64 * 1024 * 1024
_UTF8 = b"\x03"


class ID3Error(ValueError):
    """The file does not start with an ID3v2.4 tag this module can extend."""


def _syncsafe(n: int) -> bytes:
    return bytes(((n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F))


def _unsyncsafe(b: bytes) -> int:
    return (b[0] << 21) | (b[1] << 14) | (b[2] << 7) | b[3]


def text_frame(frame_id: str, text: str) -> tuple[str, bytes]:
    """Return a UTF-8 text frame body (TIT3 and the other T*** frames)."""
    return frame_id, _UTF8 + text.encode("utf-8")


def comment_frame(text: str, language: str = "eng") -> tuple[str, bytes]:
    """Return a COMM frame body: UTF-8, a language, an empty short description, the text."""
    return "COMM", _UTF8 + language.encode("ascii", "replace")[:3].ljust(3, b" ") + b"\x00" + text.encode("utf-8")


def _frames(body: bytes) -> list[tuple[str, bytes, bytes]]:
    """Return (id, flags, data) of each frame of a v2.4 tag body, stopping at the padding."""
    frames, pos = [], 0
    while pos + _HEADER <= len(body) and body[pos] != 0:
        frame_id = body[pos:pos + 4].decode("latin-1")
        size = _unsyncsafe(body[pos + 4:pos + 8])
        if not frame_id.isalnum() or pos + _HEADER + size > len(body):
            raise ID3Error(f"a damaged frame at byte {pos} of the tag")
        frames.append((frame_id, body[pos + 8:pos + 10], body[pos + _HEADER:pos + _HEADER + size]))
        pos += _HEADER + size
    return frames


def add_frames(path: Path, new: list[tuple[str, bytes]]) -> None:
    """Rewrite `path` with `new` frames in its ID3v2.4 tag (replacing frames of the same id)."""
    path = Path(path)
    tmp = path.with_name(f"{path.name}.id3")
    try:
        with open(path, "rb") as src:
            header = src.read(_HEADER)
            if len(header) < _HEADER or header[:3] != b"ID3" or header[3] != 4 or header[5] & 0xF0:
                raise ID3Error("it has no plain ID3v2.4 tag (no unsynchronisation, extended header or footer)")
            size = _unsyncsafe(header[6:10])
            if size > MAX_TAG_BYTES:
                raise ID3Error(f"its tag says {size:,} bytes")
            body = src.read(size)
            replaced = {frame_id for frame_id, _ in new}
            kept = [f for f in _frames(body) if f[0] not in replaced]
            out = b"".join(fid.encode("latin-1") + _syncsafe(len(data)) + flags + data for fid, flags, data in kept)
            out += b"".join(fid.encode("latin-1") + _syncsafe(len(data)) + b"\x00\x00" + data for fid, data in new)
            with open(tmp, "wb") as dst:
                dst.write(b"ID3" + bytes((4, 0, 0)) + _syncsafe(len(out)) + out)
                shutil.copyfileobj(src, dst, 1 << 20)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


__all__ = ["add_frames", "text_frame", "comment_frame", "ID3Error"]
