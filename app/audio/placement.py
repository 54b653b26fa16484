"""Where a chunk's speech landed in its chapter: what the assembler reports and the read-along times.

Its own module (no numpy): a cached re-run reads placements from chapter sidecars
without loading the assembler.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Placement:
    """Where an appended chunk's speech landed in the chapter, in chapter seconds.

    Read-along outputs time sentences from these: exact at the chunk's ends,
    and the quiet gaps inside are where a sentence boundary can fall.
    """

    #: First and last sample of speech (after trimming), before the pause.
    start: float
    end: float
    #: Seconds cut from the head of the chunk's own WAV, to map chunk-relative times.
    lead_trim: float
    #: Quiet stretches inside the speech, (start, end) in chapter seconds.
    gaps: tuple[tuple[float, float], ...] = ()


__all__ = ["Placement"]
