"""Read and check WAV headers without loading the audio.

Python's `wave` module (3.11) refuses IEEE-float and WAVE_FORMAT_EXTENSIBLE
files, which TTS servers send, so the RIFF chunks are walked here directly.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from app.core.errors import BadAudio

#: wFormatTag values this app can decode.
FORMAT_PCM = 1
FORMAT_FLOAT = 3
FORMAT_EXTENSIBLE = 0xFFFE

#: Size fields streaming servers write when the length is unknown up front.
_UNKNOWN_SIZES = (0, 0xFFFFFFFF)

#: Sample rates and channel counts beyond these are not audio a TTS server makes but a broken
#: or hostile header (a rate of 0xFFFFFFF0 would crash the assembler's resampler later).
MAX_SAMPLE_RATE = 384_000
MAX_CHANNELS = 8

#: Stop walking chunks after this many bytes of header (a WAV's fmt/data come early).
_MAX_HEADER_SCAN = 1 << 20


@dataclass(frozen=True)
class WavInfo:
    """What a WAV holds: its format and where its samples are."""

    sample_rate: int
    channels: int
    #: Bytes per sample of one channel (2 for 16-bit).
    sample_width: int
    frames: int
    #: FORMAT_PCM or FORMAT_FLOAT (extensible files are resolved to their subformat).
    format_tag: int = FORMAT_PCM
    #: Byte offset of the first sample.
    data_offset: int = 44

    @property
    def duration(self) -> float:
        return self.frames / self.sample_rate if self.sample_rate else 0.0

    @property
    def seconds(self) -> float:
        """Return the duration in seconds (the name the HTTP client's callers use)."""
        return self.duration

    @property
    def frame_bytes(self) -> int:
        return self.sample_width * self.channels


def read_info(path: Path) -> WavInfo:
    """Return the WavInfo of the WAV file at `path`, raising BadAudio when it is not one."""
    path = Path(path)
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            return _parse(fh, size, str(path))
    except OSError as exc:
        raise BadAudio(f"Cannot read audio file {path}: {exc.strerror or exc}") from None


def validate_wav_bytes(data: bytes) -> WavInfo:
    """Return the WavInfo of a WAV body, raising BadAudio for truncated, empty or non-WAV bodies."""
    import io

    return _parse(io.BytesIO(data), len(data), "the audio response")


def duration(path: Path) -> float:
    """Return the length of the WAV file at `path` in seconds."""
    return read_info(path).duration


def _parse(fh: BinaryIO, size: int, what: str) -> WavInfo:
    head = fh.read(12)
    if len(head) < 12 or head[:4] not in (b"RIFF", b"RF64") or head[8:12] != b"WAVE":
        raise BadAudio(f"{what} is not a WAV file ({_describe(head)})", hint="The TTS server returned something other than audio; check its log")
    fmt: tuple[int, int, int, int] | None = None
    pos = 12
    while pos + 8 <= min(size, _MAX_HEADER_SCAN):
        fh.seek(pos)
        chunk_id, chunk_size = struct.unpack("<4sI", fh.read(8))
        body = pos + 8
        if chunk_id == b"fmt ":
            fmt = _parse_fmt(fh.read(min(chunk_size, 40)), what)
        elif chunk_id == b"data":
            if fmt is None:
                raise BadAudio(f"{what} has its audio before its format header")
            return _info(fmt, body, chunk_size, size, what)
        pos = body + chunk_size + (chunk_size & 1)
    raise BadAudio(f"{what} is truncated: no audio data found", hint="Retry the chunk; the server may have died mid-answer")


def _parse_fmt(raw: bytes, what: str) -> tuple[int, int, int, int]:
    if len(raw) < 16:
        raise BadAudio(f"{what} has a truncated format header")
    tag, channels, rate, _, _, bits = struct.unpack("<HHIIHH", raw[:16])
    if tag == FORMAT_EXTENSIBLE and len(raw) >= 26:
        # The subformat GUID starts with the real format tag.
        tag = struct.unpack("<H", raw[24:26])[0]
    return tag, channels, rate, bits


def _info(fmt: tuple[int, int, int, int], offset: int, data_size: int, size: int, what: str) -> WavInfo:
    tag, channels, rate, bits = fmt
    width = bits // 8
    supported = (tag == FORMAT_PCM and bits in (8, 16, 24, 32)) or (tag == FORMAT_FLOAT and bits in (32, 64))
    if not supported or not 1 <= channels <= MAX_CHANNELS or not 1000 <= rate <= MAX_SAMPLE_RATE:
        raise BadAudio(
            f"{what} is not PCM audio (format {tag}, {bits} bits, {channels} channels, {rate} Hz)",
            hint="Ask the server for 'wav' (PCM) output",
        )
    available = size - offset
    if data_size in _UNKNOWN_SIZES or (data_size > available and data_size == 0x7FFFFFFF):
        data_size = available
    elif data_size > available:
        raise BadAudio(f"{what} is truncated: {available} of {data_size} audio bytes", hint="Retry the chunk; the connection may have dropped")
    frames = data_size // (width * channels)
    if frames == 0:
        raise BadAudio(f"{what} contains no audio", hint="Retry the chunk or check the text it was given")
    return WavInfo(rate, channels, width, frames, tag, offset)


def _describe(head: bytes) -> str:
    text = head.lstrip()[:5].lower()
    if text.startswith((b"<!doc", b"<html", b"<?xml")):
        return "it is an HTML/XML page"
    if text.startswith((b"{", b"[")):
        return "it is JSON"
    if not head:
        return "it is empty"
    return f"it starts with {head[:12]!r}"
