"""The cast as the machine-readable JSON of --export-cast."""
from __future__ import annotations

from app.cast.model import Cast


def cast_to_json(cast: Cast) -> dict:
    """Return the cast as {"characters": [...], "quotes": [...]}, one quote entry per quotation in book order."""
    return {
        "characters": [{"name": c.name, "aliases": list(c.aliases), "gender": c.gender, "lines": c.lines}
                       for c in cast.characters],
        "quotes": [{"chapter": q.chapter, "text": q.text, "speaker": q.speaker, "method": q.method,
                    "confidence": q.confidence} for q in cast.quotes],
    }
