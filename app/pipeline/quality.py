"""Sanity checks on a chunk's audio before it is cached.

A TTS model can run away (babble for minutes), stop early, or return silence;
a server can return something that is not audio at all. Each is caught here
by duration-per-word and level checks, so it is retried with another seed
instead of being stitched into the book.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app.audio import wav as wavinfo
from app.core.errors import BadAudio

#: Speech is ~2.5 words a second; these bounds are generous on purpose, so only
#: clear faults trip them (a slow narrator is ~1.5 w/s, a fast one ~4).
MIN_SECONDS_PER_WORD = 0.08
MAX_SECONDS_PER_WORD = 2.5
#: Seconds a short chunk ("Yes.") may take regardless of its word count.
SLACK_SECONDS = 6.0
#: Peak level (of full scale) below which a chunk counts as silent.
SILENCE_PEAK = 0.01


@dataclass(frozen=True)
class ChunkAudio:
    seconds: float
    sample_rate: int
    channels: int


def _spoken_words(text: str) -> int:
    return len(re.findall(r"\w+", text))


def check_chunk_audio(path: Path, text: str) -> ChunkAudio:
    """Return the chunk's audio facts, or raise BadAudio if it cannot be speech of `text`."""
    # app.audio.wav reads every format the assembler converts (float, 24-bit, extensible),
    # where the stdlib `wave` module rejects float WAVs as unreadable.
    info = wavinfo.read_info(path)
    rate, channels, frames = info.sample_rate, info.channels, info.frames
    seconds = frames / rate
    words = _spoken_words(text)
    if words:
        if seconds > MAX_SECONDS_PER_WORD * words + SLACK_SECONDS:
            raise BadAudio(f"Runaway audio: {seconds:.1f} s for {words} words")
        if words >= 4 and seconds < MIN_SECONDS_PER_WORD * words:
            raise BadAudio(f"Audio too short: {seconds:.2f} s for {words} words")
        if _peak(path, info) < SILENCE_PEAK:
            raise BadAudio(f"Silent audio for {words} words")
    return ChunkAudio(seconds, rate, channels)


#: Bytes of samples read at a time: a hundred workers checking 48 kHz stereo
#: chunks at once must not each hold a whole chunk (and its float copy).
_BLOCK_FRAMES = 1 << 15


def _block_peak(raw: bytes, info: wavinfo.WavInfo) -> float:
    """Return the peak level (of full scale) of one block of samples."""
    w = info.sample_width
    if info.format_tag == wavinfo.FORMAT_FLOAT:
        samples = np.frombuffer(raw, dtype="<f4" if w == 4 else "<f8")
        return float(np.abs(samples).max()) if samples.size else 0.0
    if w == 1:
        samples = np.frombuffer(raw, dtype=np.uint8).astype(np.int16) - 128
    elif w == 3:
        samples = np.frombuffer(raw, dtype=np.uint8)[2::3].astype(np.int8).astype(np.int16)  # the top byte
        w = 1
    elif w == 2:
        samples = np.frombuffer(raw, dtype="<i2").astype(np.int32)
    else:
        samples = np.frombuffer(raw, dtype="<i4").astype(np.int64)
    return float(np.abs(samples).max()) / (1 << (8 * w - 1)) if samples.size else 0.0


def _peak(path: Path, info: wavinfo.WavInfo) -> float:
    """Return the peak level (of full scale) of the WAV's samples, read block by block."""
    block = _BLOCK_FRAMES * info.frame_bytes
    remaining = info.frames * info.frame_bytes
    peak = 0.0
    with open(path, "rb") as fh:
        fh.seek(info.data_offset)
        while remaining > 0:
            raw = fh.read(min(block, remaining))
            if not raw:
                break
            remaining -= len(raw)
            raw = raw[: len(raw) - len(raw) % info.frame_bytes]
            peak = max(peak, _block_peak(raw, info))
    return peak
