"""Plain-text contents listings in shapes the reader took for headings or cut short (issue 32, round txt23).

- Entries over synopses (an analytical contents): "CONTENTS." over each piece's name in capitals, a paragraph
  of its topics under it, no page after the name. Each name comes back in the body over a piece many times
  as long; the later one is the heading, and the listing with the title page is the front matter.
- A page number wrapped onto a line of its own under its entry's leaders does not end the listing.
- Names in sentence case, each ending in its page in the listing's column of pages, are entries.
- The next part after the listing's last ("PART II" after "PART I"'s chapters) does not end it, though set off wider.
- One line underlined by dashes (a table's caption) does not make a plain text Markdown.
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


def test_names_in_sentence_case_in_a_column_of_pages_are_entries(tmp_path):
    # "      The siege of the town          59": a listing's names in sentence case, each ending in its page
    # as the ones above do; the body heads each in capitals. A name that reads as a sentence does not end
    # the listing while the column of pages goes on.
    names = ["First days", "Up and down the river", "The siege of the town", "A well-earned rest",
             "At work again", "Home at last"]
    listing = "CONTENTS\n\n  A GUNNER'S DIARY:\n" + "\n".join(
        f"      {n:<40}{20 * k + 1:>5}" for k, n in enumerate(names)) + "\n\n  INDEX" + " " * 36 + "369"
    text = "\n\n".join(hard_wrapped(300, w) for w in "wvx")
    body = "\n\n\n\n".join(f"{n.upper()}\n\n\n{text}" for n in names)
    book = read_text_book(tmp_path, f"A GUNNER'S DIARY\n\nBY ANN LEE\n\n\n\n\n{listing}\n\n\n\n\n{body}")
    assert [c.title.casefold() for c in book.chapters] == [n.casefold() for n in names]


def test_a_table_caption_over_a_rule_does_not_make_the_text_markdown(tmp_path):
    # One line underlined by dashes in a long plain text (a table's caption over its rule) is no setext
    # heading that divides the book: its "CHAPTER I" ... headings are its chapters.
    prose = "\n\n".join(["We set out at dawn, and the track ran north through the scrub all day long."] * 40)
    chapters = "\n\n\n\n".join(f"CHAPTER {r}\n\n\n{prose}" for r in ("I", "II", "III", "IV"))
    table = (" TABLE SHOWING THE DISTANCES TRAVELLED.\n ---------------------------------------\n"
             "  Camp      Miles\n  First       12\n  Second      30")
    book = read_text_book(tmp_path, f"A JOURNEY\n\nBY ANN LEE\n\n\n\n\n{chapters}\n\n\n\n{table}\n")
    assert [c.title for c in book.chapters] == ["Chapter I", "Chapter II", "Chapter III", "Chapter IV"]


def test_a_part_listed_after_its_chapters_does_not_end_the_listing_though_set_off_wider(tmp_path):
    # "PART I" / its chapters / three blank lines / "PART II" / its chapters: the listing goes on to the
    # second part, so its chapters, numbered from one again, are found under it.
    parts = {"PART I": ["THE CAMP", "HARD TIMES"], "PART II": ["THE RUSH", "UNKNOWN COUNTRY", "THE RETURN"]}
    listing = "CONTENTS\n\n" + "\n\n\n\n".join(f"{part}\n\n" + "\n".join(
        f"CHAPTER {'I' * n}    {name}" for n, name in enumerate(names, start=1)) for part, names in parts.items())
    text = "\n\n".join(hard_wrapped(300, w) for w in "wvx")
    body = "\n\n\n\n".join(f"{part}\n\n\n\n" + "\n\n\n\n".join(
        f"CHAPTER {'I' * n}\n\n{name}\n\n\n{text}" for n, name in enumerate(names, start=1)) for part, names in parts.items())
    book = read_text_book(tmp_path, f"THE GOLD FIELDS\n\nBY ANN LEE\n\n\n\n\n{listing}\n\n\n\n\n{body}")
    assert [c.title.split("Chapter ")[-1] for c in book.chapters] == [
        "I: The Camp", "II: Hard Times", "I: The Rush", "II: Unknown Country", "III: The Return"]
