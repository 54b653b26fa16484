"""Print, per literature title, the book's own contents entries against the chapters the app finds.

    PYTHONPATH=<checkout> python tests/literature/measure.py

"agree" counts chapters whose title names the entry at their position (corpus.contents_agree; a part's
entry folded into the next chapter's title is passed over); a Preface standing before the listing is not
counted against a book. AUDIOBOOK_LITERATURE points at another folder of the same layout.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.book import load_book  # noqa: E402
from tests.literature.corpus import TITLES, contents_agree, expected_contents, words  # noqa: E402

print("| title | contents | chapters | matched | spoken 'Project Gutenberg' | author |")
print("| --- | ---: | ---: | ---: | ---: | --- |")
for t in TITLES:
    expected = expected_contents(t)
    book = load_book(t.file)
    got = [c.title for c in book.chapters]
    if t.file.suffix == ".epub":
        agree = sum(1 for g, e in zip(got, expected) if words(g) == words(e))
    else:
        agree = len(expected) - sum(1 for _, e in contents_agree(got, expected) if e)
    pg = sum(p.count("Project Gutenberg") for c in book.chapters for p in c.paragraphs)
    print(f"| {t.key} | {len(expected)} | {len(book.chapters)} | {agree} | {pg} | {book.author} |")
