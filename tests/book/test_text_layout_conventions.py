"""Plain-text heading layouts, one convention per test (issue 32, sixth and seventh rounds).

Each test writes a small invented book in the convention and reads it with the app.
"""
from __future__ import annotations

from app.book import load_book
from app.book.formats.txt import ReadOptions, load_text
from app.book.structure.headings import _laid_out_like
from app.book.structure.lines import Heading, clean_line, paragraphs
from tests.book.plaintext import hard_wrapped, read_text_book


def test_a_label_over_its_title_and_a_by_line_is_set_as_the_other_headings(tmp_path):
    # Where a listing names its pieces without numbers, every line set apart as the headings it matched is
    # a heading: "CHAPTER FOUR / The New Wharf / by Ulla Quill" (a chapter by another hand) too, though it
    # runs to three lines.
    names = ["The Harbour", "The Mill Race", "The Toll Road", "The New Wharf"]
    heads = [f"CHAPTER {w}\n{n}" for n, w in zip(names, ["ONE", "TWO", "THREE", "FOUR"])]
    heads[-1] += "\nby Ulla Quill"
    text = "\n\n\n\n".join(f"{h}\n\n\n{hard_wrapped(60, 'w')}" for h in heads)
    paras = paragraphs(text.split("\n"))
    at = [j for j, p in enumerate(paras) if p.text.startswith("CHAPTER")]
    matched = [Heading(j, "named", "", None, clean_line(paras[j].text)) for j in at[:3]]
    found = _laid_out_like(matched, paras, 0)
    assert [h.para for h in found] == at
    assert found[-1].label == "CHAPTER FOUR The New Wharf by Ulla Quill"


def test_figures_over_a_rule_are_a_column_total_not_a_heading(tmp_path):
    # A column of sums closed by a rule and its total: "----" under "3120  12  2" is no setext heading.
    table = ("  for cloth                    1774    14     9\n\n  for wine                      796    12    11\n"
             "                              ----------------\n                              2570    26    20\n"
             "                              ----------------")
    book = read_text_book(tmp_path, f"ON TRADE\n\n\n{hard_wrapped(80, 'w')}\n\n{table}\n\n{hard_wrapped(80, 'v')}\n")
    assert len(book.chapters) == 1 and not any(ch.isdigit() for ch in book.chapters[0].title)
    assert any("2570" in p for p in book.chapters[0].paragraphs)


def test_text_before_a_first_heading_numbered_one_is_front_matter(tmp_path):
    # A producer's note on the book, then its title line, then "CHAPTER ONE.": the note is no chapter.
    rule = "_" * 72
    note = f"The Long Road, by A. Writer.\n\n{rule}\n{hard_wrapped(400, 'note')}\n\n{rule}\nTHE LONG ROAD, BY A. WRITER."
    body = "\n\n\n\n".join(f"CHAPTER {w}.\n\nA TITLE {w}.\n\n{hard_wrapped(80, 'w')}" for w in ("ONE", "TWO", "THREE"))
    path = tmp_path / "b.txt"
    path.write_text(f"{note}\n\n\n\n{body}\n", encoding="utf-8")
    book = load_book(path)
    assert [c.title.split(":")[0] for c in book.chapters] == ["Chapter One", "Chapter Two", "Chapter Three"]
    # With --include-matter the note is read, as front matter.
    kept = load_text(path, path.read_bytes(), ReadOptions(include_matter=True))
    assert any("note note" in p for c in kept.chapters for p in c.paragraphs)


def test_a_listing_of_parts_alone_leaves_the_chapters_inside_them_chapters(tmp_path):
    # The contents names "PROLOGUE" and two parts; the body numbers its chapters from one in each part.
    contents = "CONTENTS\n\n  PROLOGUE     1\n  PART I       9\n  PART II     40"
    inner = "\n\n\n\n".join(f"CHAPTER {r}\n\n\n{hard_wrapped(60, 'w')}" for r in ("I", "II", "III"))
    body = (f"PROLOGUE\n\n\n{hard_wrapped(60, 'p')}\n\n\n\nPART I\n\n\n\n{inner}\n\n\n\nPART II\n\n\n\n{inner}")
    book = read_text_book(tmp_path, f"A TALE\n\n\n\n{contents}\n\n\n\n\n{body}\n")
    titles = [c.title for c in book.chapters]
    assert len(titles) == 7 and titles[0] == "Prologue"
    assert titles[1].startswith("Part I") and titles[1].endswith("Chapter I")
    assert titles[6].startswith("Part II") and titles[6].endswith("Chapter III")


def _collection(titles: list[str], gap: str = "\n\n\n\n") -> str:
    """A collection of short pieces, each a capitals title set apart by two blank lines over its prose."""
    pieces = [f"{t}{gap}{hard_wrapped(40, 'w')}\n\n{hard_wrapped(30, 'rain')}" for t in titles]
    return "THE BOOK OF SMALL THINGS\n\nby Odo Fenn\n\n\n" + "\n\n\n".join(pieces) + "\n"


def test_capitals_titles_set_apart_head_the_pieces_of_a_collection(tmp_path):
    # No "Chapter", no listing: each piece's name alone, in capitals, after a wider gap than its paragraphs.
    titles = ["THE LAMPLIGHTER.", "A WET MORNING.", "THE TOLL KEEPER'S DOG.", "MARKET DAY."]
    book = read_text_book(tmp_path, _collection(titles, "\n\n"))
    assert [c.title for c in book.chapters] == ["The Lamplighter", "A Wet Morning", "The Toll Keeper's Dog",
                                                "Market Day"]
    # Each piece's prose is its own (the first paragraph is its spoken title), the title page no piece's.
    assert all(c.paragraphs[1].startswith("w w") and len(c.paragraphs) == 3 for c in book.chapters)


def test_two_capitals_lines_set_apart_are_no_layout(tmp_path):
    # Two such lines could be a title page's; three or more, each over prose of its own, are the book's pieces.
    book = read_text_book(tmp_path, _collection(["THE LAMPLIGHTER.", "A WET MORNING."], "\n\n"))
    assert len(book.chapters) == 1


def test_capitals_lines_no_wider_apart_than_the_paragraphs_are_no_headings(tmp_path):
    # With two blank lines between every paragraph, a short line in capitals (a sign, a shout) is no title.
    titles = ["THE LAMPLIGHTER.", "A WET MORNING.", "THE TOLL KEEPER'S DOG.", "MARKET DAY."]
    text = "\n\n\n".join(f"{t}\n\n\n{hard_wrapped(40, 'w')}\n\n\n{hard_wrapped(30, 'rain')}" for t in titles)
    assert len(read_text_book(tmp_path, "THE BOOK\n\n\n" + text).chapters) == 1


def test_a_title_broken_after_a_small_word_is_a_title_page_not_a_piece(tmp_path):
    # "ADVICE / TO THE / TRAVELLER" set over lines with gaps: the lines ending in "THE" are no piece's name,
    # so too few titles remain for a layout.
    prose = f"{hard_wrapped(40, 'w')}\n\n{hard_wrapped(30, 'rain')}\n\n{hard_wrapped(30, 'wind')}"
    text = f"ADVICE\n\n\nTO THE\n\n\nTRAVELLER.\n\n{prose}\n\n\nTO THE\n\n{prose}\n\n\nERRATA.\n\n{prose}\n"
    assert len(read_text_book(tmp_path, text).chapters) == 1


def test_a_heading_the_last_listed_title_ends_with_is_that_chapters_topic(tmp_path):
    # The listing's last entry runs through its topics ("... AND THE MILL.--CONCLUSION"): the body's
    # "CONCLUSION" after it is that chapter's last section, no chapter of its own.
    names = ["THE OLD ROAD", "THE TOLL GATE", "THE RIVER AND THE MILL.--CONCLUSION"]
    contents = "CONTENTS\n\n" + "\n\n".join(f"  {r}. {n}   {p}" for r, n, p in zip(("I", "II", "III"), names,
                                                                                 (1, 9, 20)))
    body = "\n\n\n\n".join(f"CHAPTER {r}\n\n{n}\n\n{hard_wrapped(80, 'w')}" for r, n in zip(("I", "II", "III"), names))
    text = f"A SMALL TREATISE\n\n\n\n{contents}\n\n\n\n\n{body}\n\n\nCONCLUSION\n\n{hard_wrapped(60, 'rain')}\n"
    book = read_text_book(tmp_path, text)
    assert [c.title.split(":")[0] for c in book.chapters] == ["Chapter I", "Chapter II", "Chapter III"]
    assert "rain rain" in book.chapters[-1].paragraphs[-1]


def test_capitals_titles_set_as_the_listed_ones_may_ask_wrap_or_carry_a_mark(tmp_path):
    # A listing of names without numbers that the body heads only in part: every line set apart as the
    # matched ones is a heading, also one that asks, one wrapped over three lines, and one with a note's mark
    # after it (dropped from the title: the producer's, never spoken).
    listed = ["THE EMPTY JUG", "MORNING BELLS", "THE OLD FERRY", "A SONG OF OARS"]
    unlisted = ["WHO KNOCKED?", "THE LAMP\nLEFT BURNING IN\nTHE WEST WINDOW", "AUTUMN {7}"]
    contents = "CONTENTS\n\n" + "\n".join(f"  {n.title()}" for n in listed)
    heads = listed[:2] + unlisted + listed[2:]
    body = "\n\n\n\n".join(f"{h}\n\n\n{hard_wrapped(40, 'w')}\n\n{hard_wrapped(30, 'rain')}" for h in heads)
    book = read_text_book(tmp_path, f"SMALL VERSES\n\n\n\n{contents}\n\n\n\n{body}\n")
    titles = [c.title for c in book.chapters]
    assert titles == ["The Empty Jug", "Morning Bells", "Who Knocked?", "The Lamp Left Burning in the West Window",
                      "Autumn", "The Old Ferry", "A Song of Oars"]


def test_a_numbered_run_the_layout_starts_goes_on_past_the_listing(tmp_path):
    # The listing names the pieces, not the appendices; the body sets "APPENDIX I" apart as the pieces, and
    # "APPENDIX II" closer to its name: the run it starts goes on.
    listed = ["THE EMPTY JUG", "MORNING BELLS", "THE OLD FERRY"]
    contents = "CONTENTS\n\n" + "\n".join(f"  {n.title()}" for n in listed)
    body = "\n\n\n\n".join(f"{h}\n\n\n{hard_wrapped(40, 'w')}\n\n{hard_wrapped(30, 'rain')}" for h in listed)
    appendices = (f"APPENDIX I\n\n\n{hard_wrapped(40, 'w')}\n\n{hard_wrapped(30, 'rain')}\n\n\n\n"
                  f"APPENDIX II\n\nTOLLS AND FARES\n\n\n{hard_wrapped(40, 'w')}\n\n{hard_wrapped(30, 'rain')}")
    book = read_text_book(tmp_path, f"SMALL VERSES\n\n\n\n{contents}\n\n\n\n{body}\n\n\n\n{appendices}\n")
    titles = [c.title for c in book.chapters]
    assert titles[:4] == ["The Empty Jug", "Morning Bells", "The Old Ferry", "Appendix I"]
    assert len(titles) == 5 and titles[4].startswith("Appendix II")


def test_an_arabic_number_and_a_capitals_name_on_one_line_head_a_chapter(tmp_path):
    # "2 THE LONG ROAD": the number and the name with no stop between, listed so in the contents and set so
    # in the body, a long name wrapped onto a second line; an "AUTHOR’S PREFACE" (curly apostrophe) before.
    names = ["THE ARRIVAL", "THE LONG ROAD", "HOW THE CARTER AND HIS TWO SONS WENT DOWN TO THE HARBOUR AT DAWN",
             "THE WEDDING AT HOLM"]
    listing = "CONTENTS\n\n\n    AUTHOR’S PREFACE\n" + "\n".join(f"    {k + 1} {n}" for k, n in enumerate(names))
    heads = [f"{k + 1} {n}" for k, n in enumerate(names)]
    heads[2] = "3 HOW THE CARTER AND HIS TWO SONS WENT DOWN TO THE HARBOUR\nAT DAWN"
    body = "\n\n\n\n\n".join(f"{h}\n\n\n{hard_wrapped(80, 'w')}" for h in ["AUTHOR’S PREFACE", *heads])
    book = read_text_book(tmp_path, f"THE CARTERS\n\n\n\n{listing}\n\n\n\n{body}")
    assert [c.title for c in book.chapters if c.title != "Front matter"] == [
        "Author’s Preface", "1: The Arrival", "2: The Long Road",
        "3: How the Carter and His Two Sons Went Down to the Harbour at Dawn", "4: The Wedding at Holm"]


def test_a_number_and_a_capitals_line_inside_prose_is_no_heading(tmp_path):
    # Without a listing, a line "12 HORSES" in a paragraph, or one such line alone, heads nothing: a run of
    # them counting from one is needed, as for bare numerals.
    text = (f"THE FAIR\n\n\n\n{hard_wrapped(60, 'w')}\n\n12 HORSES AND 3 CARTS\n\n{hard_wrapped(60, 'v')}\n\n"
            f"{hard_wrapped(60, 'u')}")
    book = read_text_book(tmp_path, text)
    assert len(book.chapters) == 1


def test_a_pieces_capitals_title_may_ask_or_exclaim_inside_its_quotation_marks(tmp_path):
    # A collection's piece headed “TO THE BOATS!” or WHO RANG THE BELL? is as much a piece as the others.
    titles = ["THE LAMPLIGHTER.", "\u201cTO THE BOATS!\u201d", "WHO RANG THE BELL?", "MARKET DAY."]
    book = read_text_book(tmp_path, _collection(titles, "\n\n"))
    assert [c.title for c in book.chapters] == [
        "The Lamplighter", "\u201cTo the Boats!\u201d", "Who Rang the Bell?", "Market Day"]


def test_a_tale_in_two_halves_numbered_i_and_ii_has_two_chapters(tmp_path):
    # "I" under the title, "II" halfway, each set apart by two blank lines over prose of its own: a tale in two
    # halves, though two numerals are too few for a counting run.
    text = (f"THE FERRY\n\nby Odo Fenn\n\n\nI\n\n\n{hard_wrapped(400, 'w')}\n\n{hard_wrapped(200, 'rain')}\n\n\n\n"
            f"II\n\n\n{hard_wrapped(400, 'wind')}\n\n{hard_wrapped(200, 'w')}")
    book = read_text_book(tmp_path, text)
    assert [c.title for c in book.chapters] == ["I", "II"]
    assert book.chapters[1].paragraphs[1].startswith("wind wind")


def test_a_short_poem_in_two_numbered_stanzas_is_one_piece(tmp_path):
    # Two numerals over a few lines each are a poem's stanzas, not a tale's halves.
    stanza = "The tide comes in,\nthe tide goes out,\nand the gulls cry over the harbour wall."
    text = f"A HARBOUR SONG\n\n\nI\n\n\n{stanza}\n\n\nII\n\n\n{stanza}\n\n\n{hard_wrapped(200, 'w')}"
    assert len(read_text_book(tmp_path, text).chapters) == 1


def test_a_pieces_label_ending_in_a_colon_over_its_title_is_one_heading(tmp_path):
    # A periodical's feature: "THE WEEK:" over "NEWS OF THE HARBOUR." one blank line below, set apart as the
    # other pieces' titles are: one piece, titled by both lines.
    titles = ["THE LAMPLIGHTER.", "A WET MORNING.", "THE WEEK:\n\nNEWS OF THE HARBOUR.", "MARKET DAY."]
    book = read_text_book(tmp_path, _collection(titles, "\n\n"))
    assert [c.title for c in book.chapters] == [
        "The Lamplighter", "A Wet Morning", "The Week: News of the Harbour", "Market Day"]


def _three_chapters(extra: str) -> str:
    chapters = [f"CHAPTER {n}\n\nTHE {w} VOYAGE\n\n\n{hard_wrapped(120, 'prose')}"
                for n, w in (("I", "FIRST"), ("II", "SECOND"), ("III", "THIRD"))]
    chapters[1] += f"\n\n{extra}\n\n{hard_wrapped(40, 'after')}"
    return "A BOOK OF VOYAGES\n\n\n\n" + "\n\n\n\n".join(chapters) + "\n"


def test_a_table_row_over_a_rule_does_not_make_the_text_markup(tmp_path):
    # A table's rows each closed by a rule ("Tin  |  4 lb." over "------"): no setext heading, so the text
    # still has its own chapters read from its "CHAPTER I" lines (not the rows as the only headings).
    table = ("  Tin            |    4 lb.   | 2 shillings\n  -----------------------------------------\n"
             "  Lead           |    9 lb.   | 3 shillings\n  -----------------------------------------")
    book = read_text_book(tmp_path, _three_chapters(table))
    assert [c.title for c in book.chapters] == [
        "Chapter I: The First Voyage", "Chapter II: The Second Voyage", "Chapter III: The Third Voyage"]
    assert not any("Tin" in c.title for c in book.chapters)


def test_a_hash_sign_set_in_a_column_is_no_markdown_heading(tmp_path):
    # A printer's "#" sign explained in a column of signs: a hash followed by a wide run of
    # spaces is a sign drawn in the text, not a "# Title" line, and the book's chapters are still read.
    signs = "  #               Open the line a little wider,\n  eq #            Even the spaces between words."
    book = read_text_book(tmp_path, _three_chapters(signs))
    assert [c.title for c in book.chapters] == [
        "Chapter I: The First Voyage", "Chapter II: The Second Voyage", "Chapter III: The Third Voyage"]


def test_a_roman_numeral_and_a_colon_before_the_name_heads_a_chapter(tmp_path):
    # "II: THE TOLL ROAD": the numeral, a colon and the name in capitals on one line, set apart; no listing.
    names = ["THE MILL RACE", "THE TOLL ROAD", "ACROSS THE RIVER"]
    chapters = [f"{n}: {name}\n\n\n{hard_wrapped(150, 'prose')}" for n, name in zip(("I", "II", "III"), names)]
    book = read_text_book(tmp_path, "THE VOYAGE OF THE CART\n\n\n\n" + "\n\n\n\n".join(chapters) + "\n")
    assert [c.title for c in book.chapters] == ["I: The Mill Race", "II: The Toll Road", "III: Across the River"]
