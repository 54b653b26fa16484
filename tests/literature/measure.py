"""Print, per literature title, the book's own contents entries against the chapters the app finds.

    PYTHONPATH=<checkout> python tests/literature/measure.py

"agree" counts chapters whose title names the entry at the same position (corpus.agrees); a Preface
standing before the listing is not counted against a book.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.book import load_book  # noqa: E402
from tests.literature.corpus import TITLES, agrees, expected_contents, words  # noqa: E402

print("| title | contents | chapters | agree | spoken 'Project Gutenberg' | author |")
print("| --- | ---: | ---: | ---: | ---: | --- |")
for t in TITLES:
    expected = expected_contents(t)
    book = load_book(t.file)
    got = [c.title for c in book.chapters]
    if t.file.suffix != ".epub":
        while got and len(got) > len(expected) and words(got[0])[:1] == ["preface"] and not agrees(got[0], expected[0]):
            got = got[1:]
    agree = sum(1 for g, e in zip(got, expected) if (words(g) == words(e) if t.file.suffix == ".epub" else agrees(g, e)))
    pg = sum(p.count("Project Gutenberg") for c in book.chapters for p in c.paragraphs)
    print(f"| {t.key} | {len(expected)} | {len(book.chapters)} | {agree} | {pg} | {book.author} |")
