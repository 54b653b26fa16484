"""Counts in words: "1 chapter", "2 chapters", never "1 chapters" or "chapter(s)"."""
from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """Return "1 chapter", "2 chapters" (or `many` for an irregular plural, e.g. plural(n, "body", "bodies"))."""
    return f"{count:,} {word if count == 1 else many or word + 's'}"
