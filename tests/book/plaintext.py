"""Small plain-text books written by the tests: hard-wrapped prose and a reading of it."""
from __future__ import annotations

from app.book import load_book


def hard_wrapped(n: int, word: str) -> str:
    """A hard-wrapped paragraph of n words (ten a line), as Gutenberg's plain texts are."""
    return "\n".join([" ".join([word] * 10)] * (n // 10)) + "."


def read_text_book(tmp_path, body: str):
    """Write body as a .txt book in tmp_path and read it with the app."""
    path = tmp_path / "b.txt"
    path.write_text(body, encoding="utf-8")
    return load_book(path)
