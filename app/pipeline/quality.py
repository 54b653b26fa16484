"""Sanity checks on a chunk's audio before it is cached.

A TTS model can run away (babble for minutes), stop early, or return silence;
a server can return something that is not audio at all. Each is caught here
by duration-per-word and level checks, so it is retried with another seed
instead of being stitched into the book.
"""
from __future__ import annotations

import re
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app.errors import BadAudio

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
    try:
        with wave.open(str(path), "rb") as wav:
            rate, channels, width, frames = (wav.getframerate(), wav.getnchannels(),
                                             wav.getsampwidth(), wav.getnframes())
            data = wav.readframes(frames)
    except (wave.Error, EOFError, OSError) as exc:
        raise BadAudio(f"The backend returned audio that is not a readable WAV ({exc})") from None
    if width != 2 or frames == 0 or rate <= 0:
        raise BadAudio(f"The backend returned empty or non-16-bit audio ({frames} frames, {width * 8}-bit)")
    seconds = frames / rate
    words = _spoken_words(text)
    if words:
        if seconds > MAX_SECONDS_PER_WORD * words + SLACK_SECONDS:
            raise BadAudio(f"Runaway audio: {seconds:.1f} s for {words} words")
        if words >= 4 and seconds < MIN_SECONDS_PER_WORD * words:
            raise BadAudio(f"Audio too short: {seconds:.2f} s for {words} words")
        samples = np.frombuffer(data, dtype="<i2")
        if samples.size and np.abs(samples).max() < SILENCE_PEAK * 32768:
            raise BadAudio(f"Silent audio for {words} words")
    return ChunkAudio(seconds, rate, channels)
