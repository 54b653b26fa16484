"""A contents listing whose entries stand over synopses, as a plain text sets an analytical contents (issue 32).

"CONTENTS." over each piece's name in capitals, a paragraph of its topics under it ("The Mill--A Flood--The
Ferry"), and no page numbers: the reader may take the entries for headings, since each is set apart as the
body's headings are. Each name comes back in the body over a piece many times as long; the later one is
the heading, and the listing with the title page is the front matter (round txt23).
"""
from __future__ import annotations

from tests.book.plaintext import hard_wrapped, read_text_book

_NAMES = ["THE MILL ON THE MARSH", "STORIES OF THE FERRY", "IS THE TOWER OLD?", "THE MOLE AT HOME",
          "WINTER ON THE DOWNS", "THE LAST FAIR"]


def _synopsis(k: int) -> str:
    # "Origin of the Mill, 11.--The Flood, 12.--Fishing with / Nets, 13 ...": the topics with their pages,
    # run on and wrapped, most lines ending in a word.
    # A long synopsis runs over two paragraphs.
    half = ["\n".join(f"  Topic {chr(65 + k)}{n} of the Piece, {10 * k + n + 1}.--The Mill and the Wheel, "
                      f"{10 * k + n + 2}.--Fishing with" for n in range(h, h + 3)) + " Nets." for h in (0, 3)]
    return "\n\n".join(half)


def _book(names: list[str]) -> str:
    stop = [n if n.endswith("?") else f"{n}." for n in names]
    listing = "CONTENTS.\n\n\n" + "\n\n\n".join(f"  {n}\n\n{_synopsis(k)}" for k, n in enumerate(stop))
    text = "\n\n".join(hard_wrapped(300, w) for w in "wvxyzwv")
    body = "\n\n\n\n\n".join(f"{n}\n\n\n{text}" for n in stop)
    return f"CURIOUS NOTES OF A COUNTRYSIDE\n\nBY ANN LEE\n\n\n\n\n{listing}\n\n\n\n\n{body}"


def test_entries_over_synopses_are_not_chapters(tmp_path):
    # Nor is the title page with the listing a chapter titled by the book: it is the front matter.
    book = read_text_book(tmp_path, _book(_NAMES))
    assert [c.title.upper() for c in book.chapters] == [n.upper() for n in _NAMES]


def test_a_lone_short_piece_whose_name_comes_back_stays_a_chapter(tmp_path):
    # No listing: a short piece whose name a later piece repeats ("STORIES OF THE FERRY", "... AGAIN"),
    # with no short neighbour like it: one short piece is no listing's entry.
    names = [*_NAMES[:4], "STORIES OF THE FERRY AGAIN", "THE LAST FAIR"]
    short = "\n".join(["The ferry crossed at dawn, and the river ran high and brown under it all day."] * 5)
    text = "\n\n".join([short.replace("ferry", "barge")] * 30)
    body = "\n\n\n\n\n".join(f"{n}\n\n\n{short if k == 1 else text}" for k, n in enumerate(names))
    book = read_text_book(tmp_path, f"CURIOUS NOTES OF A COUNTRYSIDE\n\nBY ANN LEE\n\n\n\n\n{body}")
    assert [c.title.upper() for c in book.chapters] == names


def test_a_page_number_wrapped_onto_its_own_line_does_not_end_the_listing(tmp_path):
    # "  II. THE GUILDS . . . . . . . ." / "58": the entry's page set back on the next line. The listing of
    # two books' chapters goes on past it, so each book's "CHAPTER I" is its own chapter.
    parts = {"BOOK THE FIRST": ["THE FAIRS", "THE GUILDS"], "BOOK THE SECOND": ["THE PORTS", "THE BANKS", "THE MINTS"]}
    rows, page = [], 3
    for part, names in parts.items():
        rows.append(f"_{part}_")
        for n, name in enumerate(names, start=1):
            numeral = "I" * n if n < 4 else "IV"
            dots = " ." * (26 - len(name) // 2)
            rows.append(f"  {numeral}. {name}{dots}\n{page}" if (part, n) == ("BOOK THE FIRST", 2)
                        else f"  {numeral}. {name}{dots}   {page}")
            page += 20
    listing = "CONTENTS\n\n\n" + "\n\n".join(rows)
    text = "\n\n".join(hard_wrapped(300, w) for w in "wvx")
    body = "\n\n\n\n".join(f"{part}\n\n\n\n" + "\n\n\n\n".join(
        f"CHAPTER {'I' * n}\n{name}\n\n\n{text}" for n, name in enumerate(names, start=1)) for part, names in parts.items())
    book = read_text_book(tmp_path, f"THE OLD TRADES\n\nBY ANN LEE\n\n\n\n\n{listing}\n\n\n\n\n{body}")
    assert [c.title.split("Chapter ")[-1] for c in book.chapters] == [
        "I: The Fairs", "II: The Guilds", "I: The Ports", "II: The Banks", "III: The Mints"]
