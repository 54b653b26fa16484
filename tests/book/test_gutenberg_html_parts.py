"""Gutenberg HTML conventions (issue 32): a part's heading the contents does not link, announced where the part begins.

Each test names the convention, not a book; the HTML is invented."""
from __future__ import annotations

from tests.book.test_gutenberg_html_conventions import _book
from tests.book.test_gutenberg_html_unlisted import _PROSE

_ROMAN = ("I", "II", "III", "IV", "V", "VI")
_NAMES = ("THE CAUSEWAY", "THE MILL", "THE LOCK", "THE FERRY", "THE BRIDGE", "THE WEIR")


def _contents(groups: list[str] | None = None) -> str:
    """A contents that links each chapter's heading; with `groups`, a line of each part's name (no link) over its two."""
    rows = []
    for k, (r, n) in enumerate(zip(_ROMAN, _NAMES)):
        if groups and k % 2 == 0:
            rows.append(f'<p class="center">{groups[k // 2]}</p>')
        rows.append(f'<p><a href="#c{k}" class="pginternal">{r}. {n.title()}</a> {10 * k + 3}</p>')
    return "<h2>CONTENTS</h2>" + "".join(rows)


def _chapters(part_heading) -> str:
    """The chapters, each part's heading (when `part_heading(k)` gives one) set just above its first chapter."""
    body = []
    for k, (r, n) in enumerate(zip(_ROMAN, _NAMES)):
        part = part_heading(k)
        if part:
            body.append(f'<div class="pb" id="Page_{10 * k + 1}">{10 * k + 1}</div>{part}')
        body.append(f'<div class="pb" id="Page_{10 * k + 3}">{10 * k + 3}</div>')
        body.append(f'<h2 id="c{k}">Chapter {r}<br/>{n}</h2>' + _PROSE * 3)
    return "".join(body)


_PARTS = ("THE UPPER RIVER", "THE MIDDLE RIVER", "THE ESTUARY")


def test_a_parts_heading_the_contents_does_not_link_is_announced_with_its_first_chapter(tmp_path):
    # "Division II" <br> "THE MIDDLE RIVER" at the chapters' level, just above "Chapter III": the contents links the
    # chapters only (the parts' names are lines of it with no link). Read at the chapters' links, the part's heading
    # was the last words of the chapter before, and the part was never said where it begins.
    def part(k: int) -> str:
        return f"<h2>Division {_ROMAN[k // 2]}<br/>{_PARTS[k // 2]}</h2>" if k % 2 == 0 else ""

    book = _book(tmp_path, _contents(list(_PARTS)) + _chapters(part))
    titles = [c.title for c in book.chapters]
    assert titles == [(f"Division {_ROMAN[k // 2]}: {_PARTS[k // 2]}: " if k % 2 == 0 else "") + f"Chapter {r}: {n}"
                      for k, (r, n) in enumerate(zip(_ROMAN, _NAMES))]
    # the part's name is said once, where it begins, and not at the end of the chapter before
    assert "MIDDLE RIVER" not in " ".join(book.chapters[1].paragraphs)


def test_a_lone_heading_over_the_first_chapter_is_no_part(tmp_path):
    # The book's half-title ("THE RIVER BOOK") set over its first chapter alone: no part recurs, nothing to announce.
    book = _book(tmp_path, _contents() + _chapters(lambda k: "<h1>THE RIVER BOOK</h1>" if k == 0 else ""))
    assert [c.title for c in book.chapters] == [f"Chapter {r}: {n}" for r, n in zip(_ROMAN, _NAMES)]


def test_a_heading_after_a_chapters_text_with_text_of_its_own_stays_a_section(tmp_path):
    # "A NOTE ON THE TIDES" closes the chapters before the third and fifth, with a page of its own under it: a section
    # of the chapter before, never the next chapter's part.
    def section(k: int) -> str:
        return "<h3>A NOTE ON THE TIDES</h3>" + _PROSE if k in (2, 4) else ""

    book = _book(tmp_path, _contents() + _chapters(section))
    assert [c.title for c in book.chapters] == [f"Chapter {r}: {n}" for r, n in zip(_ROMAN, _NAMES)]
