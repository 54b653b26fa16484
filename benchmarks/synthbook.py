"""Write a synthetic TXT book of about N hours of speech (2.6 words a second)."""
from __future__ import annotations

import random
from pathlib import Path

WORDS = ("the harbour light turned slowly over grey water while gulls cried above the old stone pier "
         "and somewhere beyond the headland a bell rang for the evening tide").split()


def write_book(path: Path, hours: float, chapters: int = 30, seed: int = 1) -> Path:
    """Write the book to `path` and return it; each chapter is one heading and many paragraphs."""
    rng = random.Random(seed)
    total_words = int(hours * 3600 * 2.6)
    per_chapter = total_words // chapters
    with open(path, "w", encoding="utf-8") as fh:
        for c in range(1, chapters + 1):
            fh.write(f"Chapter {c}: Part {c}\n\n")
            left = per_chapter
            while left > 0:
                n = min(left, rng.randint(8, 30))
                words = [rng.choice(WORDS) for _ in range(n)]
                fh.write(" ".join(words).capitalize() + ".\n\n" if rng.random() < 0.2 else
                         " ".join(words).capitalize() + ". ")
                left -= n
            fh.write("\n\n")
    return path
