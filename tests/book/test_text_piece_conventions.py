"""Plain-text books whose opening, or whose pieces, hold chapters the rules missed (issue 32, round txt17:
classes of the development draws' .txt editions).

Each test writes a small book in the convention and reads it with the app; the expected chapters are written out.
"""
from __future__ import annotations

from tests.book.plaintext import hard_wrapped, read_text_book

_ADVERTISED = "FERRYMAN TINKER QUARRY MILLER SMITH BAKER COOPER DRAPER CARTER WEAVER MASON GLAZIER".split()
#: A title page, a publisher's list long enough to be read as an unlisted opening (300 words and more), a dedication.
_TITLE_PAGE = ("THE LAMPLIGHTER'S BOY\n\nOr,\n\nLife Among the Harbour Lanes.\n\n\n\n"
               + "\n\n".join(f"THE TALE OF THE {w}. By the author. A story of the town and the sea, told for the young "
                             "reader. Cloth, one shilling." for w in _ADVERTISED)
               + "\n\n\n\nTO MY FRIENDS OF THE QUAY\n\nTHIS STORY IS AFFECTIONATELY DEDICATED.")


def test_an_opening_that_ends_in_a_dedication_is_front_matter(tmp_path):
    # A title page, a publisher's list (over 300 words) and a dedication ("... IS AFFECTIONATELY DEDICATED."), then
    # "PREFACE." and "CHAPTER I." ...: the dedication ends the front of the book, as a title page's imprint does.
    chapters = "\n\n\n\n".join(f"CHAPTER {n}.\n\n{t}\n\n\n{hard_wrapped(200, 'rowed')}" for n, t in
                                zip(["I", "II", "III"], ["THE LANTERN", "THE QUAY", "THE STORM"]))
    text = f"{_TITLE_PAGE}\n\n\n\n\nPREFACE.\n\n\n{hard_wrapped(80, 'wrote')}\n\n\n\n\n{chapters}"
    book = read_text_book(tmp_path, text)
    assert [c.title for c in book.chapters] == [
        "Preface", "Chapter I: The Lantern", "Chapter II: The Quay", "Chapter III: The Storm"]


def test_a_chapter_one_right_under_a_piece_s_title_is_read():
    # A piece's title stands right over its "CHAPTER I" (one blank line), and the rules chose the title and the
    # piece's "CHAPTER II" set apart further on: the first chapter is there under the title, and is added. A
    # "CHAPTER I" with prose between it and the title is not (it is the prose's, a quotation).
    from app.book.structure.gaps import fill_first_chapter
    from app.book.structure.lines import Heading, paragraphs
    prose = hard_wrapped(200, "sailed")
    text = (f"The Lantern\n\nCHAPTER I\n\nA START\n\n\n{prose}\n\n\n\n\nCHAPTER II\n\nA WIND\n\n\n{prose}"
            f"\n\n\n\n\nThe Quay\n\n{prose}\n\nCHAPTER I\n\n{prose}\n\n\n\n\nCHAPTER II\n\n\n{prose}")
    paras = paragraphs(text.split("\n"))
    at = {p.text: j for j, p in reversed(list(enumerate(paras)))}
    seconds = [j for j, p in enumerate(paras) if p.text == "CHAPTER II"]
    chosen = [Heading(at["The Lantern"], "named", "", None, "The Lantern"), Heading(seconds[0], "named", "", None, "CHAPTER II"),
              Heading(at["The Quay"], "named", "", None, "The Quay"), Heading(seconds[1], "named", "", None, "CHAPTER II")]
    got = fill_first_chapter(chosen, paras)
    added = [c for c in got if c not in chosen]
    assert [(c.para, c.word, c.number, c.subtitle) for c in added] == [(at["The Lantern"] + 1, "chapter", 1, "")]


def test_a_piece_in_two_chapters_keeps_both(tmp_path):
    # A collection listed by name: one tale runs over "CHAPTER I" and "CHAPTER II", the others are one piece
    # each. The tale's two chapters are chapters of the book, as a tale in three or more is.
    names = ["The Lantern", "The Quay", "The Storm", "The Tide"]
    contents = "CONTENTS\n\n\n" + "\n".join(f"{n:<40}{5 + 9 * k:>4}" for k, n in enumerate(names))
    tale = "\n\n\n\n".join(f"CHAPTER {n}\n\n\n{hard_wrapped(300, 'sailed')}" for n in ("I", "II"))
    pieces = [f"{names[0].upper()}\n\n\n\n{tale}"] + [f"{n.upper()}\n\n\n{hard_wrapped(400, 'rowed')}" for n in names[1:]]
    book = read_text_book(tmp_path, "HARBOUR TALES\n\n\n\n" + contents + "\n\n\n\n\n" + "\n\n\n\n\n".join(pieces))
    titles = [c.title for c in book.chapters]
    assert len(titles) == 5, titles
    assert titles[-3:] == ["The Quay", "The Storm", "The Tide"], titles
