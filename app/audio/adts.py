"""Measure raw AAC (ADTS) files exactly by walking their frame headers."""
from __future__ import annotations

from pathlib import Path

#: Sample rates by the ADTS sampling_frequency_index.
_RATES = (96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350)
#: Samples one AAC-LC raw data block decodes to.
_BLOCK_SAMPLES = 1024


def is_adts(path: Path) -> bool:
    """Return whether the file starts with an ADTS frame header."""
    with open(path, "rb") as fh:
        head = fh.read(2)
    return len(head) == 2 and head[0] == 0xFF and head[1] & 0xF6 == 0xF0


def adts_duration(path: Path) -> float:
    """Return the decoded length in seconds: blocks x 1024 samples / rate, priming included.

    This is exactly the span the file occupies when concatenated, unlike
    ffmpeg's bitrate estimate for ADTS.
    """
    return adts_measure(path)[0]


def adts_measure(path: Path) -> tuple[float, int]:
    """Return the decoded length in seconds and the number of frames (an MP4 sample each)."""
    samples = 0
    rate = 0
    frames = 0
    with open(path, "rb") as fh:
        while True:
            head = fh.read(7)
            if len(head) < 7 or head[0] != 0xFF or head[1] & 0xF6 != 0xF0:
                break
            rate = _RATES[(head[2] >> 2) & 0x0F]
            length = ((head[3] & 0x03) << 11) | (head[4] << 3) | (head[5] >> 5)
            if length < 7:
                break
            samples += ((head[6] & 0x03) + 1) * _BLOCK_SAMPLES
            frames += 1
            fh.seek(length - 7, 1)
    return (samples / rate if rate else 0.0), frames
