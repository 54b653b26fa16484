"""The cast as --export-cast writes it: the characters found and every quotation, machine-readable.

The shape is issue 25's: {"characters": [{"name", "aliases", "gender", "lines"}],
"quotes": [{"chapter", "text", "speaker", "method", "confidence"}]}, quotes in book order.
Added to it: "paragraph" (so a reader can find each quote again), "by_narrator" (a line of the
first-person narrator, whose speaker is null like an unknown one) and "first_person".
"""
from __future__ import annotations

from typing import Any

from app.cast.model import Cast


def cast_to_json(cast: Cast) -> dict[str, Any]:
    """Return `cast` as the --export-cast JSON object."""
    return {
        "first_person": cast.first_person,
        "characters": [{"name": c.name, "aliases": list(c.aliases), "gender": c.gender, "lines": c.lines}
                       for c in cast.characters],
        "quotes": [{"chapter": q.chapter, "paragraph": q.paragraph, "text": q.text, "speaker": q.speaker,
                    "method": q.method, "confidence": round(float(q.confidence), 3),
                    "by_narrator": q.by_narrator} for q in cast.quotes],
    }
