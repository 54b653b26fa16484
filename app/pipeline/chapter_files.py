"""An encoded chapter's sidecar: its length and where each chunk's speech landed.

The sidecar lets a cached re-run write new outputs (a read-along EPUB,
captions) from chapters encoded earlier without stitching or synthesizing
anything again. A sidecar from before placements were kept reads as "not
done", so that chapter is stitched once more from its cached chunks.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from app.audio.placement import Placement
from app.core.files import write_bytes_atomic

#: Sidecars larger than this are not a chapter's (about 100 bytes per chunk).
_MAX_SIDECAR_BYTES = 16 * 1024 * 1024


@dataclass
class ChapterRecord:
    """A finished chapter: its encoded files by kind ("m4b" = AAC, "mp3") and its placements."""

    title: str
    audio_seconds: float
    sample_rate: int
    placements: list[Placement]
    files: dict[str, Path] = field(default_factory=dict)
    #: The encode's measured loudness (app/audio/master.py ChapterLoudness.as_dict()), when mastered.
    loudness: dict | None = None


def sidecar_path(target: Path) -> Path:
    return target.with_suffix(".json")


def write_sidecar(target: Path, record: ChapterRecord) -> None:
    """Record the chapter beside its encoded file `target`."""
    data = {"audio_seconds": record.audio_seconds, "sample_rate": record.sample_rate,
            "placements": [[p.start, p.end, p.lead_trim, [list(g) for g in p.gaps]] for p in record.placements],
            "loudness": record.loudness}
    write_bytes_atomic(sidecar_path(target), json.dumps(data).encode())


def read_sidecar(target: Path, title: str) -> ChapterRecord | None:
    """Return the chapter recorded beside `target`, or None if it is missing, damaged or from before placements."""
    path = sidecar_path(target)
    try:
        if not target.exists() or path.stat().st_size > _MAX_SIDECAR_BYTES:
            return None
        data = json.loads(path.read_text())
        placements = [Placement(float(a), float(b), float(lead), tuple((float(x), float(y)) for x, y in gaps))
                      for a, b, lead, gaps in data["placements"]]
        loudness = data.get("loudness")
        return ChapterRecord(title, float(data["audio_seconds"]), int(data["sample_rate"]), placements,
                             loudness=loudness if isinstance(loudness, dict) else None)
    except (OSError, ValueError, KeyError, TypeError):
        return None
