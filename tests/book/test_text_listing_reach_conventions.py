"""Plain-text contents listings that name fewer chapters than the body heads, or go by another label (issue 32,
round txt26).

- A listing of the first part's chapters only ("Part I.--THE FARM." over I-III): the body's later parts ("PART
  II." over "CHAPTER I." ...) count their chapters from one again; they are the book's chapters too.
- "INDEX." standing where a contents stands (before the text) over names ending in their pages is the contents
  by an older name; an index at the back stays an index.
- No label at all: a paragraph of five or more names near the top, each ending in its page or year in a column
  ("A Walk by the Weir        1909"), lists the pieces the body heads by the same names.
- A short named piece before the first chapter ("DEDICATION.", "PREFATORY NOTE", "NOTE TO THE SECOND EDITION"),
  set apart over a few sentences, is a chapter as the printed book heads it; over a line only, front matter.
"""
from __future__ import annotations

from tests.book.plaintext import hard_wrapped, read_text_book

_TEXT = "\n\n".join(hard_wrapped(300, w) for w in ("fern", "gorse", "heath", "brook", "stone"))


def _parts_book(listed_parts: int) -> str:
    parts = {"THE FARM": ["THE BARN", "THE ORCHARD", "THE MILL"], "THE TOWN": ["THE MARKET", "THE FAIR"],
             "THE SEA": ["THE HARBOUR", "THE STORM"]}
    rows, body = [], []
    for p, (part, names) in enumerate(parts.items(), start=1):
        roman = "I" * p
        if p <= listed_parts:
            rows.append(f"     Part {roman}.--{part}.\n")
            rows += [f"     {'I' * n if n < 4 else 'IV'}. {name}                                   {9 * n + 30 * p}\n"
                     for n, name in enumerate(names, start=1)]
        body.append(f"PART {roman}.\n\n{part}.\n\n\n\n")
        body += [f"CHAPTER {'I' * n}.\n\n{name}.\n\n\n{_TEXT}\n\n\n\n" for n, name in enumerate(names, start=1)]
    return ("THE COUNTRY YEAR\n\nBY ANN LEE\n\n\n\n\n     CONTENTS.\n\n\n" + "\n".join(rows)
            + "\n\n\n\n" + "".join(body))


def test_later_parts_counting_from_one_after_a_listing_of_the_first_part(tmp_path):
    book = read_text_book(tmp_path, _parts_book(listed_parts=1))
    titles = [c.title for c in book.chapters]
    assert len(titles) == 7, titles
    assert "The Harbour" in titles[5] and "The Storm" in titles[6]


def test_a_listing_of_every_part_reads_as_before(tmp_path):
    # The guard: a listing naming all three parts gives the same seven chapters.
    book = read_text_book(tmp_path, _parts_book(listed_parts=3))
    assert len(book.chapters) == 7


_PIECES = ["The Walk by the Weir", "A Letter from the Mill", "Winter on the Downs", "The Toll Gate",
           "An Evening at the Fair", "The Last Ferry"]


def _pieces(label: str, trailer: str = "") -> str:
    listing = "\n".join(f"  {name:<40}{5 + 12 * n:>6}" for n, name in enumerate(_PIECES))
    head = f"{label}\n\n\n{listing}" if label else listing
    body = "\n\n\n\n".join(f"{name}\n\n\n{_TEXT}" for name in _PIECES)
    return f"COUNTRY PIECES\n\nBY ANN LEE\n\n\n\n\n{head}\n\n\n\n\n{body}{trailer}"


def test_an_index_before_the_text_over_paged_names_is_the_contents(tmp_path):
    book = read_text_book(tmp_path, _pieces("INDEX."))
    assert [c.title.casefold() for c in book.chapters] == [n.casefold() for n in _PIECES]


def test_names_in_a_column_of_pages_near_the_top_list_the_pieces(tmp_path):
    book = read_text_book(tmp_path, _pieces(""))
    assert [c.title.casefold() for c in book.chapters] == [n.casefold() for n in _PIECES]


def test_an_index_at_the_back_is_no_contents(tmp_path):
    # A book headed by "CHAPTER" lines with its index of names at the back: the index names no chapter.
    chapters = "\n\n\n\n".join(f"CHAPTER {'I' * n}.\n\n\n{_TEXT}" for n in range(1, 4))
    index = "INDEX.\n\n\n" + "\n".join(f"  {name:<40}{5 + 12 * n:>6}" for n, name in enumerate(_PIECES))
    book = read_text_book(tmp_path, f"A BOOK\n\nBY ANN LEE\n\n\n\n\n{chapters}\n\n\n\n\n{index}\n")
    assert [c.title for c in book.chapters] == ["Chapter I", "Chapter II", "Chapter III"]


def _front(dedication_words: int) -> str:
    dedication = " ".join(["To my friend of the mill, who kept the wheel turning."] * (dedication_words // 10))
    chapters = "\n\n\n\n".join(f"CHAPTER {'I' * n}.\n\n\n{_TEXT}" for n in range(1, 4))
    return f"A BOOK\n\nBY ANN LEE\n\n\n\n\nDEDICATION.\n\n\n{dedication}\n\n\n\n\n{chapters}\n"


def test_a_dedication_set_apart_before_the_first_chapter_is_a_chapter(tmp_path):
    # A short named piece the printed book heads ("DEDICATION.", "PREFATORY NOTE", "NOTE TO THE SECOND EDITION").
    book = read_text_book(tmp_path, _front(40))
    assert [c.title for c in book.chapters][:2] == ["Dedication", "Chapter I"]


def test_a_dedication_of_a_line_stays_front_matter(tmp_path):
    # The guard: a heading over a few words only (a title page's line) is no chapter.
    book = read_text_book(tmp_path, _front(10))
    assert book.chapters[0].title == "Chapter I"
