"""Plain-text chapter headings whose title is set over more than one line (issue 32, round txt21).

Each test writes a small book in the convention and reads it with the app; the expected chapters are written out.
"""
from __future__ import annotations

from tests.book.plaintext import hard_wrapped, read_text_book

_TITLES = [("THE FIRST HARBOUR", "THE NORTH SHORE AND THE REEF"), ("THE SECOND HARBOUR", "THE ISLANDS"),
           ("THE THIRD HARBOUR", "THE TOWN AND ITS TRADE")]


def test_a_title_over_two_paragraphs_above_the_text_is_one_title(tmp_path):
    # "CHAPTER 1" / "THE FIRST HARBOUR" / "THE NORTH SHORE AND THE REEF", each a blank line from the next, and the
    # text two blank lines below: both title lines name the chapter, and neither is read as its text.
    text = "\n\n\n\n".join(f"CHAPTER {n}\n\n{a}\n\n{b}\n\n\n{hard_wrapped(200, 'rowed')}"
                           for n, (a, b) in enumerate(_TITLES, 1))
    book = read_text_book(tmp_path, f"HARBOURS\n\n\n\n{text}")
    assert [c.title for c in book.chapters] == [
        "Chapter 1: The First Harbour: The North Shore and the Reef", "Chapter 2: The Second Harbour: The Islands",
        "Chapter 3: The Third Harbour: The Town and Its Trade"]
    assert not any("NORTH SHORE" in p for c in book.chapters for p in c.paragraphs[1:])


def test_a_line_in_capitals_as_close_to_the_text_as_to_the_title_is_the_text_s(tmp_path):
    # The same layout, but the text stands a blank line below the second line too: it is the text's first line (a
    # section's name, a dateline), not the title's.
    text = "\n\n\n\n".join(f"CHAPTER {n}\n\n{a}\n\n{b}\n\n{hard_wrapped(200, 'rowed')}"
                           for n, (a, b) in enumerate(_TITLES, 1))
    book = read_text_book(tmp_path, f"HARBOURS\n\n\n\n{text}")
    assert [c.title for c in book.chapters] == [
        "Chapter 1: The First Harbour", "Chapter 2: The Second Harbour", "Chapter 3: The Third Harbour"]


def test_a_label_whose_line_runs_on_into_a_long_title_is_a_heading(tmp_path):
    # "_Chapter II. The Night the Lamp Went Out on the Pier and the Boats Came In Late._" / "_The Ferryman
    # Counts Them_": the label is set off by its stop and the title wraps; its first line alone is longer than a
    # heading line may be.
    names = ["The Day We Came Down to the Harbour and Met the Old Ferryman. How He Taught Us the", "Tides",
             "The Night the Lamp Went Out on the Pier and the Boats Came In Late. The", "Ferryman Counts Them",
             "The Storm That Came in the Night and What It Left on the Shore. The", "Wreck and Its Cargo"]
    heads = [f"_Chapter {n}. {names[2 * k]}\n{names[2 * k + 1]}_" for k, n in enumerate(["I", "II", "III"])]
    assert all(len(h.split("\n")[0].split()) > 14 for h in heads)
    book = read_text_book(tmp_path, "HARBOURS\n\n\n\n" + "\n\n\n\n".join(
        f"{h}\n\n\n{hard_wrapped(200, 'rowed')}" for h in heads))
    assert [c.title.split(":")[0] for c in book.chapters] == ["Chapter I", "Chapter II", "Chapter III"]
    assert book.chapters[1].title.endswith("Ferryman Counts Them")


def test_a_part_s_page_with_its_picture_is_no_chapter(tmp_path):
    # "PART ONE" / "[Illustration]" / "The Stones of the Ancients", then "CHAPTER 1": the part's page holds its
    # name and a picture's mark, no text; it is no chapter of its own, and the mark is not its name. A part's page
    # with a caption ("[Illustration: A cut stone]") and no name is no chapter either.
    prose = hard_wrapped(200, "polished")
    text = ("THE BOOK OF STONES\n\n\n\nPART ONE\n\n[Illustration]\n\nThe Stones of the Ancients\n\n\n\n"
            f"CHAPTER 1\n\nTHE FIRST STONE\n\n\n{prose}\n\n\n\nCHAPTER 2\n\nTHE SECOND STONE\n\n\n{prose}\n\n\n\n"
            f"PART TWO\n\n[Illustration: A cut stone]\n\n\n\nCHAPTER 3\n\nTHE THIRD STONE\n\n\n{prose}\n\n\n\n"
            f"CHAPTER 4\n\nTHE FOURTH STONE\n\n\n{prose}")
    titles = [c.title for c in read_text_book(tmp_path, text).chapters]
    assert len(titles) == 4, titles
    assert [t.split("Chapter")[-1] for t in titles] == [" 1: The First Stone", " 2: The Second Stone",
                                                         " 3: The Third Stone", " 4: The Fourth Stone"]
    assert not any("Illustration" in t for t in titles)
