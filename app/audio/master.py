"""Loudness mastering: every chunk to one loudness before stitching, every chapter to a target as it is encoded.

Two steps, both with maintained meters, neither a pass over the whole book:
- level(): a chunk is measured with pyloudnorm (ITU-R BS.1770-4) and scaled to
  the target, so a hot or a quiet take does not stand out in its chapter;
- chapter_filter(): the chapter's encode runs ffmpeg's loudnorm (EBU R128,
  true-peak limiter with oversampling) to the target integrated loudness and
  true peak, and prints what it measured on its output; parse_stats() reads
  that for the report.
Pauses stay true silence: both steps only multiply samples, and zero times a
gain is zero.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

#: Default chapter target: audiobook platforms ask for about -23 to -18 dB RMS.
DEFAULT_LUFS = -20.0
#: Default true-peak ceiling (dBTP); platforms ask for -3 dB or lower.
DEFAULT_TRUE_PEAK = -3.0
#: Loudness range loudnorm aims at; leveled speech sits well inside it.
TARGET_LRA = 7.0
#: Shortest chunk BS.1770 can gate (one 400 ms block); shorter ones are left as they are.
_MIN_SECONDS = 0.4
#: Largest gain one chunk may get: beyond this a chunk is noise or a fault, not a quiet take.
_MAX_GAIN_DB = 24.0
#: Sample peak a leveled chunk may reach in the 16-bit chapter WAV (the encode's limiter does the rest).
_SAMPLE_CEILING = 0.98
#: Room the limiter leaves below the ceiling for the lossy encoder: AAC and MP3 rebuild the
#: waveform from a band-limited spectrum and overshoot the limited peaks by up to ~0.7 dB.
CODEC_MARGIN_DB = 1.0
#: Lowest and highest targets loudnorm accepts.
LUFS_RANGE = (-70.0, -5.0)


@dataclass(frozen=True)
class Target:
    """What a chapter is mastered to."""

    lufs: float = DEFAULT_LUFS
    true_peak: float = DEFAULT_TRUE_PEAK

    def key(self) -> str:
        """Return a short string that changes when the target does (part of a chapter's file key)."""
        return f"master:{self.lufs:g}:{self.true_peak:g}"


@dataclass(frozen=True)
class ChapterLoudness:
    """What the encode's meter measured on a chapter's output."""

    integrated: float
    range: float
    true_peak: float

    def as_dict(self) -> dict:
        return {"integrated_lufs": self.integrated, "range_lu": self.range, "true_peak_dbtp": self.true_peak}

    @classmethod
    def from_dict(cls, data: dict) -> "ChapterLoudness":
        return cls(float(data["integrated_lufs"]), float(data["range_lu"]), float(data["true_peak_dbtp"]))


def level(samples: np.ndarray, rate: int, lufs: float) -> np.ndarray:
    """Return the chunk (float32, frames x channels) scaled to `lufs` integrated loudness."""
    if samples.shape[0] < int(_MIN_SECONDS * rate):
        return samples
    import numpy as np  # here, not at the top: a cached re-run reads loudness records and needs no numpy
    import pyloudnorm  # scipy.signal takes seconds to import: only runs that master pay for it

    loudness = pyloudnorm.Meter(rate).integrated_loudness(samples.astype(np.float64))
    if not np.isfinite(loudness):
        return samples  # all below the absolute gate: nothing to level
    gain_db = float(np.clip(lufs - loudness, -_MAX_GAIN_DB, _MAX_GAIN_DB))
    gain = 10.0 ** (gain_db / 20.0)
    peak = float(np.abs(samples).max()) if samples.size else 0.0
    if peak * gain > _SAMPLE_CEILING:
        gain = _SAMPLE_CEILING / peak
    return (samples * np.float32(gain)).astype(np.float32)


def chapter_filter(target: Target, sample_rate: int) -> str:
    """Return the ffmpeg audio filter that masters a chapter to `target` during its encode."""
    # loudnorm works at 192 kHz internally (true-peak detection); resample back to the chapter's rate.
    ceiling = target.true_peak - CODEC_MARGIN_DB
    return (f"loudnorm=I={target.lufs:g}:TP={ceiling:g}:LRA={TARGET_LRA:g}:print_format=json,"
            f"aresample={sample_rate}")


_STATS = re.compile(r"\{[^{}]*\"output_i\"[^{}]*\}", re.S)


def parse_stats(ffmpeg_output: str) -> ChapterLoudness | None:
    """Return the output loudness loudnorm printed, or None if it printed none."""
    found = _STATS.findall(ffmpeg_output)
    if not found:
        return None
    try:
        data = json.loads(found[-1])
        return ChapterLoudness(float(data["output_i"]), float(data["output_lra"]), float(data["output_tp"]))
    except (ValueError, KeyError):
        return None
