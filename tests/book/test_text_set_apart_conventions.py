"""Plain-text headings known by how the book sets its chapter headings apart, one convention per test (issue 32).

Many Gutenberg texts set every heading after four blank lines; a heading no rule reads ("PUBLISHERS'
NOTE.", "A PROEM") is still set so, and the book-level pass (app/book/structure/layout.py) takes it.
"""
from __future__ import annotations

from tests.book.plaintext import hard_wrapped, read_text_book

_GAP = "\n\n\n\n\n"


def _chapter(label: str, words: int = 200) -> str:
    return f"{label}\n\n{hard_wrapped(words, 'prose')}\n\n{hard_wrapped(60, 'more')}"


def _book(*sections: str, top: str = "A TREATISE ON TIDES\n\nBy Ann Lee") -> str:
    return top + _GAP + _GAP.join(sections) + "\n"


def test_headings_before_chapter_one_set_apart_as_the_chapters_are_chapters(tmp_path):
    # A publishers' note and a proem, set after four blank lines as "CHAPTER I." is: chapters of their own,
    # though no heading word names them. The title repeated over chapter one heads no text: no chapter.
    chapters = [_chapter(f"CHAPTER {n}. THE {w} TIDE") for n, w in (("I", "FIRST"), ("II", "SECOND"), ("III", "THIRD"))]
    text = _book(_chapter("PUBLISHERS' NOTE."), _chapter("A PROEM ON METHOD"), "A TREATISE ON TIDES.", *chapters)
    book = read_text_book(tmp_path, text)
    assert [c.title for c in book.chapters] == [
        "Publishers' Note", "A Proem on Method", "Chapter I. The First Tide", "Chapter II. The Second Tide",
        "Chapter III. The Third Tide"]


def test_a_line_set_apart_between_consecutive_chapters_is_a_section(tmp_path):
    # "CHAPTER II" then "CHAPTER III": the numbering leaves nothing out between them, so a line in capitals set
    # as far apart there ("DRAINS") heads a section of chapter two.
    chapters = [_chapter(f"CHAPTER {n}") for n in ("I", "II")] + [_chapter("DRAINS"), _chapter("CHAPTER III")]
    book = read_text_book(tmp_path, _book(*chapters))
    assert [c.title for c in book.chapters] == ["Chapter I", "Chapter II", "Chapter III"]
    assert "Drains" not in [c.title for c in book.chapters]


def test_a_line_set_apart_after_the_closing_line_is_no_chapter(tmp_path):
    # After the book's "THE END" a line set apart heads a publisher's list or an advertisement: back matter.
    chapters = [_chapter(f"CHAPTER {n}") for n in ("I", "II", "III")] + ["THE END", _chapter("WORTH READING")]
    book = read_text_book(tmp_path, _book(*chapters))
    assert [c.title for c in book.chapters][:3] == ["Chapter I", "Chapter II", "Chapter III"]
    assert "Worth Reading" not in [c.title for c in book.chapters]


def test_a_publishers_list_set_apart_after_the_last_chapter_is_no_chapter(tmp_path):
    # No closing line, but the heading names a publisher's list ("NEW BOOKS OF THE SEASON"): matter.
    chapters = [_chapter(f"CHAPTER {n}") for n in ("I", "II", "III")] + [_chapter("NEW BOOKS OF THE SEASON")]
    book = read_text_book(tmp_path, _book(*chapters))
    assert "New Books of the Season" not in [c.title for c in book.chapters]


def test_an_afterword_set_apart_after_the_last_chapter_is_a_chapter(tmp_path):
    # The author's life after the last chapter, set as the chapters are, with no closing line before it.
    chapters = [_chapter(f"CHAPTER {n}") for n in ("I", "II", "III")] + [_chapter("VITA")]
    book = read_text_book(tmp_path, _book(*chapters))
    assert [c.title for c in book.chapters] == ["Chapter I", "Chapter II", "Chapter III", "Vita"]


def test_the_title_page_set_apart_is_no_chapter(tmp_path):
    # The title set after four blank lines, its by-line below it and a long notice after: a title page.
    top = "Produced by volunteers"
    title_page = f"THE TIDES OF THE NORTH\n\n\nGathered from old letters\nBy Ann Lee\n\n{hard_wrapped(200, 'notice')}"
    chapters = [_chapter(f"CHAPTER {n}") for n in ("I", "II", "III")]
    book = read_text_book(tmp_path, _book(title_page, *chapters, top=top))
    assert [c.title for c in book.chapters if c.title.startswith("Chapter")] == ["Chapter I", "Chapter II", "Chapter III"]
    assert "The Tides of the North" not in [c.title for c in book.chapters]


def test_a_wide_gap_used_everywhere_is_no_heading_layout(tmp_path):
    # Four blank lines before many paragraphs, not only before the headings: the gap marks nothing, so a
    # line in capitals after it ("A NOTE") stays in the text.
    filler = _GAP.join(f"{hard_wrapped(40, 'aside')}" for _ in range(5))
    chapters = [_chapter(f"CHAPTER {n}") + _GAP + filler for n in ("I", "II", "III")]
    book = read_text_book(tmp_path, _book(_chapter("A NOTE"), *chapters))
    assert [c.title for c in book.chapters if c.title != "A Note"] == ["Chapter I", "Chapter II", "Chapter III"]
    assert "A Note" not in [c.title for c in book.chapters]


def test_text_before_a_title_page_and_its_first_heading_is_front_matter(tmp_path):
    # A publisher's advertisements, then the title page (by-line, copyright), then "INTRODUCTION" and numbered
    # chapters: everything before the first heading is front matter, however long, not a chapter of the book.
    ads = "\n\n".join(hard_wrapped(60, "stores") for _ in range(6))
    title_page = "HOW TO SAIL\n\nBY ANN LEE\n\nCOPYRIGHT, 1905 BY A PUBLISHER"
    chapters = [_chapter("INTRODUCTION")] + [_chapter(f"CHAPTER {n}") for n in ("I", "II", "III")]
    book = read_text_book(tmp_path, _book(ads, title_page, *chapters, top="PUBLISHER'S NOTICE"))
    assert [c.title for c in book.chapters] == ["Introduction", "Chapter I", "Chapter II", "Chapter III"]


def test_a_title_in_capitals_over_its_by_line_is_no_piece_of_a_collection(tmp_path):
    # Pieces headed by their names in capitals after a wide gap; the title page's title, set the same way but
    # over "BY" and the author's name, is the title page, not the first piece.
    title_page = "TALES OF THE SHORE\n\nBY\nANN LEE\n\nA PUBLISHER, NEW YORK\n\n" + hard_wrapped(30, "imprint")
    pieces = [_chapter(n) for n in ("THE HARBOUR", "THE FERRY", "THE LIGHTHOUSE")]
    book = read_text_book(tmp_path, _book(title_page, *pieces, top="Produced by volunteers"))
    assert [c.title for c in book.chapters][-3:] == ["The Harbour", "The Ferry", "The Lighthouse"]
    assert "Tales of the Shore" not in [c.title for c in book.chapters]


def test_a_preface_before_a_collections_first_piece_is_a_chapter(tmp_path):
    # A collection heads its pieces by their names alone, in capitals, set apart; the preface before the first
    # piece is set in title case, not in capitals as they are, yet names a part of the book: a chapter of its
    # own, not part of a chapter titled by the book with the title page.
    pieces = "\n\n\n\n".join(_chapter(f"THE {w} WELL") for w in ("OLD", "DEEP", "DRY", "SALT"))
    text = ("TALES OF THE WELLS\n\nBy Ann Lee\n\nPRINTED BY THE PRESS OF A TOWN, 1901\n\n\n"
            f"Preface.\n\n{hard_wrapped(350, 'preface')}\n\n\n\n{pieces}\n")
    book = read_text_book(tmp_path, text)
    assert [c.title for c in book.chapters] == ["Preface", "The Old Well", "The Deep Well", "The Dry Well",
                                                "The Salt Well"]


def test_a_title_set_apart_after_a_collections_index_is_no_piece(tmp_path):
    # A collection's pieces headed by their names in capitals; after the book's "INDEX." a publisher's notice set
    # as the pieces are ("UNRIVALLED OFFERS.") is an advertisement, not a piece.
    pieces = "\n\n\n\n".join(_chapter(f"THE {w} WELL") for w in ("OLD", "DEEP", "DRY"))
    index = "INDEX.\n\n\nBarn, the old, 3, 9\nBell, the ferry, 12"
    text = f"TALES OF THE WELLS\n\n\n\n{pieces}\n\n\n\n{index}\n\n\n\n{_chapter('UNRIVALLED OFFERS.')}\n"
    book = read_text_book(tmp_path, text)
    assert [c.title for c in book.chapters][:3] == ["The Old Well", "The Deep Well", "The Dry Well"]
    assert "Unrivalled Offers" not in [c.title for c in book.chapters]


def test_an_index_that_names_what_it_indexes_ends_a_collection_as_an_index_does(tmp_path):
    # "INDEX TO THE PLATES." over the painters' names in capitals, each over a list of works: the
    # book's apparatus, not a collection of pieces named by painter.
    essay = _chapter("THE PAINTERS OF THE LAGOON", 400)
    works = "\n\n\n".join(f"{name}.\n\n{hard_wrapped(60, 'work')}" for name in ("ANNA DA RIVA", "PIERO DEL PONTE",
                                                                                  "MARCO DELLA TORRE", "LUCA BASSO"))
    text = f"THE PAINTERS OF THE LAGOON\n\n\n\n{essay}\n\n\n\nINDEX TO THE PLATES.\n\n\n{works}\n"
    book = read_text_book(tmp_path, text)
    assert not any("Riva" in c.title or "Basso" in c.title for c in book.chapters), [c.title for c in book.chapters]
