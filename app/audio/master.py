"""Loudness mastering: every chunk to one loudness before stitching, every chapter limited and measured as it is encoded.

Two steps, both with maintained meters, neither a pass over the whole book:
- level(): a chunk is measured with libebur128 (pyebur128; ITU-R BS.1770-4,
  EBU R128) and scaled to the target (less PCM_HEADROOM_DB, given back in the
  encode), so a hot or a quiet take does not stand out. Chunks at the target
  stitched with silent pauses make a chapter near it, so the chapter needs no
  loudness loop of its own;
- chapter_filter(): the chapter's encode gives the headroom back, runs a
  lookahead limiter (ffmpeg's alimiter) that keeps peaks under the true-peak
  ceiling, then ffmpeg's ebur128 meter, which prints the chapter's integrated
  loudness, range and true peak; parse_stats() reads that for the report.
A chapter the meter finds off target (the limiter took too much loudness, or
a peak between samples came too close to the ceiling) is encoded once more
from its chunks with a correction() (app/pipeline/progressive.py).

Until session 4 the chapter stage was ffmpeg's loudnorm (single-pass dynamic
mode). It oversamples to 192 kHz for true-peak detection and costs 3.3x the
AAC encode itself, to re-do a loudness the chunks already have; the limiter
and the meter cost a fraction of that (benchmarks/README.md, "Cheaper
mastering (session 4)").

Pauses stay true silence: leveling only multiplies samples (zero times a gain
is zero), and a limiter only ever lowers the gain.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

#: Default chapter target: audiobook platforms ask for about -23 to -18 dB RMS.
DEFAULT_LUFS = -20.0
#: Default true-peak ceiling (dBTP); platforms ask for -3 dB or lower.
DEFAULT_TRUE_PEAK = -3.0
#: Which chain masters a chapter; part of the chapter's file key, so chapters encoded by another
#: chain (loudnorm, before session 4) are encoded again rather than mixed with these in one book.
CHAIN = "limiter-v1"
#: Shortest chunk BS.1770 can gate (one 400 ms block); shorter ones are left as they are.
_MIN_SECONDS = 0.4
#: Largest gain one chunk may get: beyond this a chunk is noise or a fault, not a quiet take.
_MAX_GAIN_DB = 24.0
#: Sample peak a leveled chunk may reach in the 16-bit chapter PCM (the encode's limiter does the rest).
_SAMPLE_CEILING = 0.98
#: How far below the true-peak ceiling the limiter holds sample peaks. The limiter sees samples, not
#: the waveform between them, which peaks higher (0.5-0.9 dB measured on Piper speech and on
#: broadband noise at 22.05 kHz); the meter's true peak catches what still passes (CODEC_MARGIN_DB).
LIMITER_MARGIN_DB = 1.5
#: Room the chapter's PCM must leave under the ceiling for the lossy encoder: AAC and MP3 rebuild the
#: waveform from a band-limited spectrum and overshoot it (up to 1.0 dB measured, MP3 on noise).
CODEC_MARGIN_DB = 1.0
#: The limiter's lookahead and release (ms): a 5 ms lookahead catches a plosive before it passes;
#: a 50 ms release lets the gain recover between syllables without pumping.
_ATTACK_MS = 5
_RELEASE_MS = 50
#: Chunks go into the chapter's 16-bit PCM this much under the target, and the chapter filter gives it
#: back before its limiter: a voice whose peaks stand more than ~17 dB over its loudness (Piper's do)
#: would otherwise be held down by the PCM's full scale, not brought to the target.
PCM_HEADROOM_DB = 6.0
#: Gain (dB) every chapter's limiter gets on top of the headroom: what it typically takes off speech
#: (~0 off a voice with low peaks, more off one whose peaks stand high), so that most chapters land
#: within the tolerance on their first encode instead of being encoded twice. A backend that knows its
#: voice says so (Backend.limiter_makeup_db; Piper's is measured), else this middle value.
LIMITER_MAKEUP_DB = 0.4
#: How far a chapter's measured loudness may miss the target before it is encoded again with the
#: difference made up. The limiter takes ~0.7 LU off Piper's voice at -20 LUFS (its peaks stand high
#: over its loudness); the goal is 1 LU measured after the lossy encoder, which moves it by up to 0.3 LU.
TOLERANCE_LU = 0.5
#: A second encode lowers its limit by this many dB per dB the first one's true peak went over, plus
#: the room below: the true peak follows a lowered limit only about halfway, since more samples then
#: reach it (measured on speech-like noise: limit 0.7 dB lower, true peak 0.3 dB lower).
_RETRY_PEAK_FACTOR = 2.0
_RETRY_PEAK_ROOM_DB = 0.3
#: Lowest and highest targets accepted (BS.1770's absolute gate is -70 LUFS).
LUFS_RANGE = (-70.0, -5.0)


@dataclass(frozen=True)
class Target:
    """What a chapter is mastered to."""

    lufs: float = DEFAULT_LUFS
    true_peak: float = DEFAULT_TRUE_PEAK
    #: What the limiter is expected to take off this voice (dB), given back before it. Not in key():
    #: it only decides how often a chapter needs a second encode; either encode meets the target.
    makeup_db: float = LIMITER_MAKEUP_DB

    def key(self) -> str:
        """Return a short string that changes when the target or the chain does (part of a chapter's file key)."""
        return f"master:{CHAIN}:{self.lufs:g}:{self.true_peak:g}"


@dataclass(frozen=True)
class Correction:
    """What a chapter's second encode changes, from what its first one measured."""

    #: Gain (dB) added before the limiter: the loudness the first encode fell short by.
    gain_db: float = 0.0
    #: How much lower (dB) the limiter holds peaks: the true peak the first encode went over by.
    limit_db: float = 0.0

    def __bool__(self) -> bool:
        return bool(self.gain_db or self.limit_db)


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


def integrated_loudness(samples: np.ndarray, rate: int, silence_after: int = 0) -> float:
    """Return the integrated loudness (LUFS) of float samples (frames x channels) followed by
    `silence_after` frames of silence; -inf when all is gated out."""
    import numpy as np
    import pyebur128  # libebur128 in C: no scipy in the process (pyloudnorm's filters cost ~75 MB)

    state = pyebur128.R128State(samples.shape[1], rate, pyebur128.MeasurementMode.MODE_I)
    interleaved = np.ascontiguousarray(samples, dtype=np.float32).reshape(-1)
    state.add_frames(interleaved, samples.shape[0])
    if silence_after:
        state.add_frames(np.zeros(silence_after * samples.shape[1], dtype=np.float32), silence_after)
    return pyebur128.get_loudness_global(state)


def level(samples: np.ndarray, rate: int, lufs: float, pause_after: float = 0.0) -> np.ndarray:
    """Return the chunk (float32, frames x channels) scaled to `lufs` integrated loudness.

    The chunk is measured with the pause that follows it in the chapter: the 400 ms blocks BS.1770
    gates on straddle a chunk's end and its pause, and they count in the chapter's loudness (chunks
    measured alone made Piper chapters 0.4 LU under the target).
    """
    if samples.shape[0] < int(_MIN_SECONDS * rate):
        return samples
    import numpy as np  # here, not at the top: a cached re-run reads loudness records and needs no numpy

    loudness = integrated_loudness(samples, rate, int(round(pause_after * rate)))
    if not np.isfinite(loudness):
        return samples  # all below the absolute gate: nothing to level
    gain_db = float(np.clip(lufs - loudness, -_MAX_GAIN_DB, _MAX_GAIN_DB))
    gain = 10.0 ** (gain_db / 20.0)
    peak = float(np.abs(samples).max()) if samples.size else 0.0
    if peak * gain > _SAMPLE_CEILING:
        gain = _SAMPLE_CEILING / peak
    return (samples * np.float32(gain)).astype(np.float32)


def chapter_filter(target: Target, fix: Correction = Correction()) -> str:
    """Return the ffmpeg audio filter that brings a chapter's PCM to `target`, limits its peaks and measures it.

    `fix` is what a chapter encoded a second time changes (correction()).
    """
    limit = 10.0 ** ((target.true_peak - LIMITER_MARGIN_DB - fix.limit_db) / 20.0)
    # level=false: alimiter's default "auto level" would raise the output back to 0 dBFS.
    # latency=true: output aligned with the input (no 5 ms shift of every sentence timing) and the
    # lookahead flushed at the end. framelog=quiet: only the summary, not ten lines a second.
    return (f"volume={PCM_HEADROOM_DB + target.makeup_db + fix.gain_db:.2f}dB,"
            f"alimiter=limit={limit:.6f}:attack={_ATTACK_MS}:release={_RELEASE_MS}:level=false:latency=true,"
            "ebur128=peak=true:framelog=quiet")


def correction(measured: ChapterLoudness | None, target: Target) -> Correction:
    """Return what a second encode must change, or an empty Correction if the chapter measured on target.

    The limiter lowers peaks and with them some loudness (more for a voice whose peaks stand high), and
    a waveform can peak higher between samples than the limiter sees. Either beyond its tolerance, the
    chapter is encoded once more from its chunks with the shortfall added before the limiter and the
    limit lowered by the excess. Deterministic: the same chunks give the same two encodes.
    """
    if measured is None:
        return Correction()
    missed = target.lufs - measured.integrated
    over = measured.true_peak - (target.true_peak - CODEC_MARGIN_DB)
    if abs(missed) <= TOLERANCE_LU and over <= 0:
        return Correction()
    # Encoding again anyway: make up the whole shortfall, not only what is beyond the tolerance.
    return Correction(gain_db=round(missed, 2),
                      limit_db=round(_RETRY_PEAK_FACTOR * over + _RETRY_PEAK_ROOM_DB, 2) if over > 0 else 0.0)


_SUMMARY_VALUE = r"(?m)^\s*{label}:\s+(-?(?:[\d.]+|inf))\b"


def parse_stats(ffmpeg_output: str) -> ChapterLoudness | None:
    """Return what ebur128 printed in its summary, or None if it printed none (or measured only silence)."""
    start = ffmpeg_output.rfind("Summary:")
    if start < 0:
        return None
    summary = ffmpeg_output[start:]
    values = []
    for label in ("I", "LRA", "Peak"):
        found = re.search(_SUMMARY_VALUE.format(label=label), summary)
        if found is None:
            return None
        values.append(float(found.group(1)))
    if not all(math.isfinite(v) for v in values):
        return None  # a silent chapter: no loudness to report (and JSON has no -inf)
    return ChapterLoudness(*values)
