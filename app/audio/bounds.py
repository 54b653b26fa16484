"""How much audio a chunk of text can plausibly be: the bound on every answer a server sends.

A server that runs away, trickles or never stops sending must not hold a request
forever or grow a file without limit. The bound is generous on purpose (twice the
pipeline's runaway check, app/pipeline/quality.py), so only clear faults trip it.
"""
from __future__ import annotations

import re

#: A very slow narrator with long pauses: seconds per spoken word.
SECONDS_PER_WORD = 2.5
#: Seconds any chunk may take regardless of its words ("Yes." with a breath around it).
SLACK_SECONDS = 6.0
#: Margin over the plausible length before an answer counts as hostile.
MARGIN = 2.0
#: The largest audio a TTS server sends here: 48 kHz, stereo, 32-bit float.
MAX_BYTES_PER_SECOND = 48_000 * 2 * 4
#: Room for headers (RIFF, fmt, LIST chunks) beyond the samples.
HEADER_BYTES = 64 << 10


def max_speech_seconds(text: str) -> float:
    """Return the most seconds of speech `text` can plausibly take, with margin."""
    words = len(re.findall(r"\w+", text))
    return MARGIN * (SECONDS_PER_WORD * words + SLACK_SECONDS)


def max_answer_bytes(text: str) -> int:
    """Return the most bytes a WAV answer for `text` may hold."""
    return int(max_speech_seconds(text) * MAX_BYTES_PER_SECOND) + HEADER_BYTES


__all__ = ["max_speech_seconds", "max_answer_bytes", "SECONDS_PER_WORD", "SLACK_SECONDS", "MARGIN"]
