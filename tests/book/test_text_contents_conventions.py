"""Plain-text contents listings under older printing conventions, one per test (issue 32).

Each test writes a small book in the convention and reads it with the app; the expected chapters are the
ones the listing names, written out here.
"""
from __future__ import annotations

from app.book.structure.listing import find_contents
from app.book.structure.lines import clean_line, paragraphs
from tests.book.plaintext import hard_wrapped, read_text_book


def test_contents_of_unnumbered_capitals_with_pages_names_the_chapters(tmp_path):
    # "  THE CAPTURE      9": no chapter word, no number; the body heads each piece with its name alone.
    names = ["THE CAPTURE", "NEW YEAR'S DAY", "HOSPITAL LIFE", "SAFE AND SOUND"]
    contents = "CONTENTS\n\n\n" + "\n\n".join(f"  {n:<40}{9 * k + 1:>4}" for k, n in enumerate(names))
    body = "\n\n\n\n".join(f"{n}.\n\n{hard_wrapped(40, 'w')}\n\nA LINE IN CAPITALS\n\n{hard_wrapped(20, 'v')}" for n in names)
    book = read_text_book(tmp_path, f"A DIARY\n\nBy Ann Lee\n\n\n\n{contents}\n\n\n\n\n{body}")
    # A line in capitals that the listing does not name stays in its chapter; the title page is matter.
    assert [c.title for c in book.chapters] == ["The Capture", "New Year's Day", "Hospital Life", "Safe and Sound"]


def test_contents_of_a_collection_in_mixed_case_names_its_pieces(tmp_path):
    # A book of poems: "The Empty Bowl     1" over "The Empty Bowl" in capitals; a title may ask ("See?")
    # and one too long for its line runs on below, indented.
    contents = ("CONTENTS\n\n                                PAGE\nThe Empty Bowl                     1\n"
                "Keep Going                         2\nSee?                               4\n"
                "The Tapestry Weaver of             6\n    Beauvais\nA Prayer                           8")
    pieces = ["THE EMPTY BOWL", "KEEP GOING", "SEE?", "THE TAPESTRY WEAVER OF BEAUVAIS", "A PRAYER"]
    body = "\n\n\n\n".join(f"{n}\n\n\n   {hard_wrapped(30, 'w')}" for n in pieces)
    book = read_text_book(tmp_path, f"POEMS\n\n\n\n{contents}\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == [
        "The Empty Bowl", "Keep Going", "See?", "The Tapestry Weaver of Beauvais", "A Prayer"]


def test_a_few_names_opening_with_an_ordinal_do_not_make_a_numbered_listing(tmp_path):
    # "FIRST MEDAL FOR EGYPT" among unnumbered names is a name, not "Part the First".
    names = ["FIRST MEDAL FOR EGYPT", "THE MAHRATTA WAR", "SECOND AFGHAN WAR", "THE SIKH WARS", "WATERLOO",
             "THE CRIMEA", "BALTIC MEDAL", "INDIAN MUTINY", "ABYSSINIA"]
    contents = "CONTENTS\n\n" + "\n".join(f"  {n:<40}{5 * k + 1:>4}" for k, n in enumerate(names))
    body = "\n\n\n\n".join(f"{n}\n\n{hard_wrapped(40, 'w')}" for n in names)
    book = read_text_book(tmp_path, f"MEDALS\n\n\n\n{contents}\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == [
        "First Medal for Egypt", "The Mahratta War", "Second Afghan War", "The Sikh Wars", "Waterloo",
        "The Crimea", "Baltic Medal", "Indian Mutiny", "Abyssinia"]


def test_pieces_set_apart_as_the_listed_ones_are_chapters_the_listing_leaves_out(tmp_path):
    # The listing names only some pieces (it stops early, or is finer than the body); the body sets each
    # piece's name in capitals after four blank lines, as it sets the listed ones: every one is a chapter.
    # A line in capitals after one blank line (a stanza's refrain) is no heading.
    listed = ["THE EMPTY BOWL", "KEEP GOING", "A PRAYER", "TWO GHOSTS"]
    pieces = listed + ["THE PURPOSE", "THE WHITE MAN", "LINCOLN", "A MOORISH MAID"]
    contents = "CONTENTS\n\n" + "\n".join(f"  {n:<40}{k + 1:>4}" for k, n in enumerate(listed))
    body = "\n\n\n\n\n".join(f"{n}\n\n\n{hard_wrapped(30, 'w')}\n\nSING HEY\n\n{hard_wrapped(20, 'v')}" for n in pieces)
    book = read_text_book(tmp_path, f"POEMS\n\n\n\n{contents}\n\n\n\n\n{body}")
    assert [c.title.upper() for c in book.chapters] == pieces


def test_one_blank_line_everywhere_is_no_layout_to_learn(tmp_path):
    # Headings and paragraphs both after one blank line: nothing sets a heading apart, so a line in
    # capitals the listing does not name is not taken for one.
    listed = ["THE EMPTY BOWL", "KEEP GOING", "A PRAYER", "TWO GHOSTS"]
    contents = "CONTENTS\n\n" + "\n".join(f"  {n:<40}{k + 1:>4}" for k, n in enumerate(listed))
    body = "\n\n".join(f"{n}\n\n{hard_wrapped(30, 'w')}\n\nSING HEY\n\n{hard_wrapped(20, 'v')}" for n in listed)
    book = read_text_book(tmp_path, f"POEMS\n\n\n\n{contents}\n\n\n\n\n{body}")
    assert "SING HEY" not in [c.title.upper() for c in book.chapters]


def test_contents_name_on_the_line_under_its_number_is_one_entry(tmp_path):
    # "CHAPTER III" centred, its name on the next line with the page: one entry, and the chapter's
    # title says its name once ("Chapter III: Political Conditions", never the name twice).
    names = ["FIRST DAYS AT THE PORT", "SOCIETY AND ITS RULES", "POLITICAL CONDITIONS"]
    numerals = ["I", "II", "III"]
    contents = "CONTENTS\n\n" + "\n\n".join(f"{'':>20}CHAPTER {r}\n    {n:<50}{9 * k + 1:>4}"
                                             for k, (r, n) in enumerate(zip(numerals, names)))
    body = "\n\n\n\n".join(f"{'':>20}CHAPTER {r}\n\n{'':>10}{n}\n\n\n{hard_wrapped(60, 'w')}" for r, n in zip(numerals, names))
    book = read_text_book(tmp_path, f"MEMOIRS\n\n\n\n{contents}\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == ["Chapter I: First Days at the Port", "Chapter II: Society and Its Rules",
                                                "Chapter III: Political Conditions"]


def test_contents_entry_wrapped_onto_the_next_line_keeps_its_whole_name(tmp_path):
    # "  I. THE QUESTION PUT. OLD ANSWERS TO THE RISE OF" / "     THE TIDES   3": one entry a
    # paragraph, its name wrapped; the body's "CHAPTER I" takes the whole name, in capitals or not.
    names = [("THE QUESTION PUT. OLD ANSWERS TO THE RISE OF", "THE TIDES"),
             ("The Question of Wells. Old Answers as to the", "Depth of Wells"),
             ("THE NEED OF HARBOURS OF REFUGE FOR THE", "FISHERMEN")]
    numerals = ["I", "II", "III"]
    contents = "CONTENTS\n\n  CHAPTER                                 PAGE\n" + "\n\n".join(
        f"  {r:>5}. {a}\n        {b:<50}{9 * k + 3:>4}" for k, (r, (a, b)) in enumerate(zip(numerals, names)))
    body = "\n\n\n\n".join(f"CHAPTER {r}\n\n\n{hard_wrapped(60, 'w')}" for r in numerals)
    book = read_text_book(tmp_path, f"ESSAYS\n\n\n\n{contents}\n\n\n\n\n{body}")
    titles = [c.title.casefold() for c in book.chapters]
    assert len(titles) == 3 and all(titles[k].endswith(b.casefold()) for k, (a, b) in enumerate(names)), titles


def test_run_on_contents_paragraph_is_no_wrapped_entry(tmp_path):
    # "CHAPTER I A Family Group II Lucretia III ..." run on over lines, none indented under the first:
    # not one entry's long name; the body's own headings give the chapters.
    contents = ("CONTENTS\n\nCHAPTER I A Family Group II Lucretia III Conferences IV Guy's Oak V\n"
                "Household Treason VI The Will VII The Engagement\n")
    names = ["A FAMILY GROUP", "LUCRETIA", "CONFERENCES", "GUY'S OAK", "HOUSEHOLD TREASON", "THE WILL", "THE ENGAGEMENT"]
    numerals = ["I", "II", "III", "IV", "V", "VI", "VII"]
    body = "\n\n\n\n".join(f"CHAPTER {r}. {n}.\n\n\n{hard_wrapped(60, 'w')}" for r, n in zip(numerals, names))
    book = read_text_book(tmp_path, f"A NOVEL\n\n\n\n{contents}\n\n\n\n\n{body}")
    assert len(book.chapters) == 7 and book.chapters[6].title.endswith("The Engagement"), [c.title for c in book.chapters]


def test_listing_ends_where_its_first_entry_stands_again(tmp_path):
    # The body's first heading one blank line under the listing ("PROLOGUE" / "THE WAGER"): a listing
    # names each piece once, so the first entry again is the book beginning, not more of the listing.
    contents = ("CONTENTS\n\n           _PROLOGUE_\n                             Page\nTHE WAGER                       1\n"
                "            _PART I_\nTHE LONG WINTER                27\n            _PART II_\nTHE THAW                      185")
    body = (f"PROLOGUE\nTHE WAGER\n\n\n{hard_wrapped(80, 'w')}\n\n\n\n\nPART I\n_THE LONG WINTER_\n\n\n{hard_wrapped(80, 'v')}"
            f"\n\n\n\n\nPART II\n_THE THAW_\n\n\n{hard_wrapped(80, 'u')}")
    book = read_text_book(tmp_path, f"A ROMANCE\n\n\n\n{contents}\n\n{body}")
    assert [c.title for c in book.chapters] == ["Prologue: The Wager", "Part I: The Long Winter", "Part II: The Thaw"]


def test_a_lone_volume_line_on_the_title_page_is_no_part(tmp_path):
    # One volume of three: "IN THREE VOLUMES." / "VOL. II." / the imprint, then "CHAPTER I" on. The lone
    # volume line above every chapter is the title page's, never a part heading over the imprint.
    front = "THE TWO RIVERS.\n\n\n\nIN THREE VOLUMES.\n\n\nVOL. II.\n\n\n\n\nLONDON: A. PRINTER & CO.\n\n1894."
    body = "\n\n\n\n".join(f"CHAPTER {r}\n\nTHE {n}\n\n\n{hard_wrapped(80, 'w')}"
                           for r, n in zip(["I", "II", "III"], ["FORD", "BRIDGE", "WEIR"]))
    book = read_text_book(tmp_path, f"{front}\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == ["Chapter I: The Ford", "Chapter II: The Bridge", "Chapter III: The Weir"]


def test_a_title_in_capitals_wrapped_under_its_label_is_the_chapters_name(tmp_path):
    # "CHAPTER II" / "HOW THE MILLER'S SON CAME TO" / "BE LORD OF THE MANOR": too long for one title
    # line (over twelve words), still a title in capitals, not the chapter's first paragraph.
    names = ["THE FORD", "HOW THE MILLER'S SON CAME TO\nBE LORD OF THE MANOR AT LAST", "THE WEIR"]
    body = "\n\n\n\n".join(f"CHAPTER {r}\n\n{n}\n\n\n{hard_wrapped(80, 'w')}" for r, n in zip(["I", "II", "III"], names))
    book = read_text_book(tmp_path, f"A TALE\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == [
        "Chapter I: The Ford", "Chapter II: How the Miller's Son Came to Be Lord of the Manor at Last",
        "Chapter III: The Weir"]


def test_contents_with_a_synopsis_under_each_chapter_is_one_listing(tmp_path):
    # Older travels list "CHAPTER I." over a synopsis run on to its page ("Leave the port--A storm--The
    # harbour    1"), and end with named pieces ("Closing Words   212"): all of it is the
    # listing, so none of its lines becomes a chapter, and the body's headings are matched to it.
    synopsis = "Leave the port--A storm at sea--The harbour--Our\nhosts--Markets and bazaars--The road inland"
    contents = "CONTENTS.\n\n\n\n" + "\n\n".join(f"CHAPTER {r}.\n\n{synopsis}   {9 * k + 1}"
                                                  for k, r in enumerate(["I", "II", "III"]))
    contents += "\n\nClosing Words   212"
    body = "\n\n\n\n\n".join(f"CHAPTER {r}.\n\n\n{hard_wrapped(80, 'w')}" for r in ["I", "II", "III"])
    body += f"\n\n\n\n\nCLOSING WORDS.\n\n\n{hard_wrapped(80, 'v')}"
    book = read_text_book(tmp_path, f"TRAVELS\n\n\n\n\n{contents}\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == ["Chapter I", "Chapter II", "Chapter III", "Closing Words"]


def test_contents_with_spaced_dot_leaders_and_a_page_column_over_the_first_entry(tmp_path):
    # "PAGE" in the first entry's paragraph, and pages set off by spaced dots ("LOUISBOURG . . . . 191"),
    # a name wrapped onto an indented line: one listing, whose names the body's bare "CHAPTER I" takes.
    names = ["THE FIRST DISCOVERERS ON THE NORTHERN COAST TO THE END OF\n            THE CENTURY", "THE HARBOUR TOWNS",
             "THE LONG PEACE"]
    numerals = ["I", "II", "III"]
    contents = "CONTENTS\n\n                                                                 PAGE\n" + "\n\n".join(
        f"CHAP. {r + '.':<7}{n}  . . . . . . . .  {40 * k + 1:>4}" for k, (r, n) in enumerate(zip(numerals, names)))
    body = "\n\n\n\n".join(f"CHAPTER {r}\n\n\n{hard_wrapped(80, 'w')}" for r in numerals)
    book = read_text_book(tmp_path, f"A HISTORY\n\n\n\n{contents}\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == [
        "Chapter I: The First Discoverers on the Northern Coast to the End of the Century",
        "Chapter II: The Harbour Towns", "Chapter III: The Long Peace"]


def test_two_works_in_one_file_list_their_contents_one_after_the_other(tmp_path):
    # A volume binding two tales: each tale's listing under its own "CONTENTS.", the second tale's title
    # between them; the second numbers its chapters from I again. Both listings are the book's chapters,
    # and the second listing's last name ("CONCLUSION") is no chapter of the first tale's.
    first = ["THE OLD BARN", "A WET MORNING", "THE FERRY"]
    second = ["THE LAMPLIGHTER", "SNOW ON THE ROOFS", "CONCLUSION"]
    listing1 = "  CONTENTS.\n\n\n  CHAP.                   PAGE\n\n" + "\n\n".join(
        f"  {'I II III'.split()[k]}. {n:<30}{10 * k + 7:>4}" for k, n in enumerate(first))
    listing2 = "  CONTENTS.\n\n\n" + "\n\n".join(
        f"  CHAPTER {'I II III'.split()[k]}.{'                PAGE' if k == 0 else ''}\n\n  {n:<30}{10 * k + 47:>4}"
        for k, n in enumerate(second))
    tale1 = "\n\n\n\n".join(f"CHAPTER {'I II III'.split()[k]}.\n\n{n}.\n\n\n{hard_wrapped(60, 'w')}"
                            for k, n in enumerate(first))
    tale2 = "\n\n\n\n".join(f"CHAPTER {'I II III'.split()[k]}.\n\n{n}.\n\n\n{hard_wrapped(60, 'v')}"
                            for k, n in enumerate(second))
    text = (f"THE BARN AND THE LAMP\n\n\n\n{listing1}\n\n\n\n\n  THE LAMPLIGHTER'S TALE.\n\n\n\n\n{listing2}"
            f"\n\n\n\n\n  THE BARN.\n\n\n\n\n{tale1}\n\n\n\n\n  THE LAMPLIGHTER'S TALE.\n\n\n\n\n{tale2}")
    book = read_text_book(tmp_path, text)
    assert [c.title for c in book.chapters if c.title != "Front matter"] == [
        "Chapter I: The Old Barn", "Chapter II: A Wet Morning", "Chapter III: The Ferry",
        "Chapter I: The Lamplighter", "Chapter II: Snow on the Roofs", "Chapter III: Conclusion"]


def test_a_name_in_capitals_under_a_bare_chapter_entry_is_its_name(tmp_path):
    # "CHAPTER II." over "THE FERRY   18" in the listing: the capitals line names the entry above it, not a
    # group of its own, so the body's "CHAPTER II." over "THE FERRY." is one title, the name once.
    names = ["THE OLD BARN", "THE FERRY", "A WET MORNING", "HOME AGAIN"]
    numerals = "I II III IV".split()
    listing = "CONTENTS.\n\n\n" + "\n\n".join(
        f"CHAPTER {numerals[k]}.{'          PAGE' if k == 0 else ''}\n\n{n:<30}{9 * k + 1:>4}" for k, n in enumerate(names))
    body = "\n\n\n\n".join(f"CHAPTER {numerals[k]}.\n\n{n}.\n\n\n{hard_wrapped(60, 'w')}" for k, n in enumerate(names))
    book = read_text_book(tmp_path, f"THE BARN\n\n\n\n{listing}\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters if c.title != "Front matter"] == [
        "Chapter I: The Old Barn", "Chapter II: The Ferry", "Chapter III: A Wet Morning", "Chapter IV: Home Again"]


def test_contents_giving_the_pages_each_chapter_spans_is_one_listing(tmp_path):
    # A textbook's listing: "CHAPTER II" over its name over a synopsis of its numbered sections ending in
    # the pages it spans ("9–23"), a "PAGES" column heading over the first; a preface stands before it.
    names = ["ROAD MAKING", "THE SURVEY", "THE ESTIMATE"]
    numerals = "I II III".split()
    synopsis = ("{0}. The Aim. {1}. The Means. {2}. The\n   Ways of the Work. {3}. Costs. {4}. The\n"
                "   Labour. {5}. The Stone. {6}. The\n   Gravel. {7}. The Drains. {8}. The\n"
                "   End of the Matter.                                  {9}\u2013{10}")
    listing = "                 TABLE OF CONTENTS\n\n\n" + "\n\n\n".join(
        f"                  CHAPTER {numerals[k]}\n\n               {n}\n\n"
        + ("                                                         PAGES\n" if k == 0 else "")
        + " " + synopsis.format(*range(9 * k + 1, 9 * k + 10), 20 * k + 1, 20 * k + 19) for k, n in enumerate(names))
    body = "\n\n\n\n".join(f"                  CHAPTER {numerals[k]}\n               {n}\n\n\n{hard_wrapped(80, 'w')}"
                           for k, n in enumerate(names))
    text = (f"ROADS\n\n\n\n                  PREFACE\n\n\n{hard_wrapped(80, 'p')}\n\n\n\n{listing}"
            f"\n\n\n\n\n{body}")
    book = read_text_book(tmp_path, text)
    assert [c.title for c in book.chapters if c.title != "Front matter"] == [
        "Preface", "Chapter I: Road Making", "Chapter II: The Survey", "Chapter III: The Estimate"]
    # The listing is read whole, from its label to its last chapter, not taken for the body's text.
    paras = paragraphs(text.split("\n"))
    lo, hi, entries = find_contents(paras)
    assert clean_line(paras[lo].text) == "TABLE OF CONTENTS" and clean_line(paras[hi].text) == "CHAPTER I ROAD MAKING"
    assert [e.number for e in entries if e.word == "chapter"] == [1, 2, 3]


def test_an_anthologys_listing_of_authors_with_their_pieces_beneath(tmp_path):
    # "  ANN LEE          13-39" over "     The Ferry, Market Day, The Toll Road.": each author in capitals with the
    # pages the selection spans, the pieces under the name in lower case, wrapped; the body heads each author.
    authors = ["ANN LEE", "ODO FENN", "ULLA QUILL", "GRETA HOLM"]
    listing = "TABLE OF CONTENTS.\n\n\n" + "\n\n".join(
        f"  {a:<50}{20 * k + 1}-{20 * k + 19}\n     The Ferry, Market Day, The Toll Road, A Wet\n"
        f"     Morning, Who Rang?" for k, a in enumerate(authors))
    body = "\n\n\n\n".join(f"{a}.\n\n\n{hard_wrapped(80, 'w')}" for a in authors)
    book = read_text_book(tmp_path, f"OUR WRITERS\n\n\n\n{listing}\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters if c.title != "Front matter"] == [
        "Ann Lee", "Odo Fenn", "Ulla Quill", "Greta Holm"]


def test_a_listed_piece_that_is_a_work_in_chapters_keeps_its_chapters(tmp_path):
    # A collection's listing names its pieces; the last piece is a tale in chapters ("CHAPTER I" to "CHAPTER
    # III" under its title), which the listing does not name: they are chapters too, the tale's title over the
    # first (no words of its own stand between them).
    names = ["THE LAMPLIGHTER", "A WET MORNING", "THE TOLL KEEPER'S DOG", "THE CARTER'S TALE"]
    listing = "CONTENTS\n\n" + "\n".join(f"  {n:<40}{9 * k + 1:>4}" for k, n in enumerate(names))
    pieces = [f"{n}\n\n\n{hard_wrapped(80, 'w')}" for n in names[:3]]
    tale = "THE CARTER'S TALE\n\n\n" + "\n\n\n".join(
        f"CHAPTER {r}\n\n\n{hard_wrapped(80, 'rain')}" for r in ("I", "II", "III"))
    book = read_text_book(tmp_path, f"SMALL THINGS\n\n\n\n{listing}\n\n\n\n\n" + "\n\n\n\n".join(pieces + [tale]))
    assert [c.title for c in book.chapters if c.title != "Front matter"] == [
        "The Lamplighter", "A Wet Morning", "The Toll Keeper's Dog", "The Carter's Tale: Chapter I",
        "Chapter II", "Chapter III"]


_COLOURS = [(1, "Red"), (2, "Blue"), (3, "Green")]


def test_a_listing_read_at_its_sections_level_yields_to_the_labelled_chapters(tmp_path):
    # The listing numbers each chapter's sections from 1 ("1. The Red Point" under "I.--THE
    # SUBJECT"), and the body labels its chapters "CHAPTER I" ... "CHAPTER III": the listing and the headings
    # disagree, and the chapters the body labels are the book's (its sections are no chapters). (Each part of
    # the listing set three blank lines apart: the listing is read as far as the first part's sections.)
    groups = ["THE TIDES", "THE WINDS", "THE CURRENTS"]
    romans = ["I", "II", "III"]
    contents = "CONTENTS\n\n" + "\n\n\n\n".join(
        f"{r}.--{g}\n\n" + "\n\n".join(f"{n}. The {c} Point{'':20}{n * 3}" for n, c in _COLOURS)
        for r, g in zip(romans, groups))
    body = "\n\n\n\n".join(
        f"CHAPTER {r}\n\n{g}\n\n\n" + "\n\n".join(f"{n}. THE {c.upper()} POINT\n\n{hard_wrapped(40, 'w')}"
                                               for n, c in _COLOURS)
        for r, g in zip(romans, groups))
    book = read_text_book(tmp_path, f"A STUDY\n\n\n\n{contents}\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == [
        "Chapter I: The Tides", "Chapter II: The Winds", "Chapter III: The Currents"]


def test_a_chapter_title_in_capitals_may_ask_a_question(tmp_path):
    # "CHAPTER II" over "WHO KNOCKED AT THE GATE?" a blank line below: the question is the chapter's name.
    names = ["THE START", "WHO KNOCKED AT THE GATE?", "HOME AT LAST!"]
    body = "\n\n\n\n".join(f"CHAPTER {r}\n\n{n}\n\n\n{hard_wrapped(60, 'w')}" for r, n in zip(["I", "II", "III"], names))
    book = read_text_book(tmp_path, f"A JOURNEY\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == [
        "Chapter I: The Start", "Chapter II: Who Knocked at the Gate?", "Chapter III: Home at Last!"]


def test_a_listed_name_the_body_heads_in_more_words_is_found_between_its_neighbours(tmp_path):
    # "PROLOGUE. THE FERRY" listed; the body heads it "PROLOGUE." / "A NOTE." / "THE FERRY" (three lines,
    # in capitals) before "CHAPTER I.": the listed words are all there, so it is the prologue's heading.
    listing = "CONTENTS.\n\n PROLOGUE. THE FERRY\n I. THE MILL\n II. THE WEIR\n III. THE LOCK"
    prologue = f" PROLOGUE.\n A NOTE.\n THE FERRY\n\n I\n\n{hard_wrapped(150, 'fog')}"
    chapters = "\n\n\n\n".join(f"CHAPTER {n}. {name}.\n\n\n{hard_wrapped(150, 'prose')}"
                               for n, name in (("I", "THE MILL"), ("II", "THE WEIR"), ("III", "THE LOCK")))
    book = read_text_book(tmp_path, f"THE FERRY TALE\n\nBy Ann Lee\n\n\n\n{listing}\n\n\n\n\n THE FERRY TALE\n\n"
                                    f"{prologue}\n\n\n\n{chapters}\n")
    assert [c.title for c in book.chapters] == [
        "Prologue. A Note. The Ferry", "Chapter I. The Mill", "Chapter II. The Weir", "Chapter III. The Lock"]


def test_a_listing_by_surname_in_the_order_of_the_alphabet_names_the_pieces_by_page(tmp_path):
    # A book of lives lists them "QUILL, ULLA      9" in the alphabet's order; the body heads each "HON. ULLA
    # QUILL." with its writer's by-line under it, in the order of the pages. Read by page, every entry's words
    # head one life.
    lives = [("HON. ULLA QUILL.", "QUILL, ULLA", 3), ("GEN. ABEL MARROW.", "MARROW, ABEL", 11),
             ("REV. OTIS PELL.", "PELL, OTIS", 19), ("COL. IVO WREN.", "WREN, IVO", 27),
             ("DR. ANN BRACKET.", "BRACKET, ANN", 35)]
    listing = "CONTENTS.\n\n" + "\n".join(f"{entry:<36}{page:>4}" for _, entry, page in
                                          sorted(lives, key=lambda x: x[1]))
    body = "\n\n\n\n".join(f"{head}\n\nBY A FRIEND.\n\n\n{hard_wrapped(120, 'life')}" for head, _, _ in lives)
    book = read_text_book(tmp_path, f"LIVES OF THE VALLEY\n\n\n\n{listing}\n\n\n\n\n{body}\n")
    assert [c.title for c in book.chapters] == [
        "Hon. Ulla Quill", "Gen. Abel Marrow", "Rev. Otis Pell", "Col. Ivo Wren", "Dr. Ann Bracket"]


def test_a_listing_read_as_headings_gives_way_to_the_headings_it_names(tmp_path):
    # A listing the reader cannot parse (each chapter's verses under its entry, a "CHAP." column) still
    # heads "BOOK I." and "BOOK II." with their names; the same parts come back over the text. The first
    # ones head no prose (short lines ending in pages): entries, not parts; the text before the first chapter
    # holds a "CONTENTS." line, so it is front matter, not a chapter titled by the book.
    listing = ("CONTENTS.\n\n\n{:>60}\n\n  INTRODUCTION{:>40}\n\n  CHRONOLOGY{:>40}\n\n\n"
               "  BOOK I.\n\n  _THE MILL AND THE WEIR UNTIL\n  THE GREAT FLOOD_, A.D. 1310\n\n"
               "  CHAP.\n\n  I. THE MILL{:>40}\n\n  PSALM i.\n\n"
               "  II. THE WEIR{:>40}\n\n  PSALM ii.-iv.\n\n\n  BOOK II.\n\n  THE LOCK AND THE FERRY\n\n"
               "  III. THE LOCK{:>40}\n\n  PSALM v.\n\n  IV. THE FERRY{:>40}\n\n  PSALM vi. 3.").format(
        "PAGE", "ix", "xvi", 3, 19, 35, 51)
    chapters = {1: "THE MILL", 2: "THE WEIR", 3: "THE LOCK", 4: "THE FERRY"}
    roman = {1: "I", 2: "II", 3: "III", 4: "IV"}

    def chapter(n):
        return f"CHAPTER {roman[n]}.\n\n{chapters[n]}\n\n\n{hard_wrapped(200, 'prose')}\n\n{hard_wrapped(100, 'more')}"
    intro = f"INTRODUCTION.\n\n{hard_wrapped(200, 'intro')}\n\n\n\nCHRONOLOGY\n\n{hard_wrapped(200, 'dates')}"
    body = "\n\n\n\n".join([intro, "BOOK I", chapter(1), chapter(2), "BOOK II", chapter(3), chapter(4)])
    book = read_text_book(tmp_path, f"THE RIVER BOOK\n\nBY A. WRITER\n\n{hard_wrapped(300, 'advert')}\n\n\n\n"
                                    f"{listing}\n\n\n\n{body}\n")
    titles = [c.title for c in book.chapters]
    want = ["Introduction", "Chronology", "Chapter I: The Mill", "Chapter II: The Weir", "Chapter III: The Lock",
            "Chapter IV: The Ferry"]
    assert len(titles) == 6 and all(t.endswith(w) for t, w in zip(titles, want)), titles


def test_a_spelled_number_opening_a_listed_name_is_part_of_the_name(tmp_path):
    # "TWO TOWERS BY THE SEA" in a collection's listing of names: no "CHAPTER" before it, so "TWO" is a word
    # of the title, not the entry's number (else "II" in a verse of another piece would be taken for it).
    names = ["THE LANTERN", "TWO TOWERS BY THE SEA", "THE COLD SPRING", "THREE MILLERS, SINGING"]
    listing = "CONTENTS\n\n" + "\n".join(f"    {n:<40}{k * 20 + 1:>4}" for k, n in enumerate(names))
    pieces = [f"{n}\n\n\n{hard_wrapped(150, 'prose')}\n\n   II\n\n{hard_wrapped(40, 'verse')}" for n in names]
    book = read_text_book(tmp_path, f"TALES\n\n\n\n{listing}\n\n\n\n" + "\n\n\n\n".join(pieces) + "\n")
    assert [c.title for c in book.chapters] == ["The Lantern", "Two Towers by the Sea", "The Cold Spring",
                                                "Three Millers, Singing"]


def test_a_contents_label_ending_in_a_colon_heads_the_listing(tmp_path):
    # "CONTENTS:" over the names and pages; the index's letters ("B", "G") set apart after the last piece are
    # no pieces of the book.
    names = ["A WORD BEFORE", "THE MILL ON THE RIVER", "THE FERRY AT DAWN"]
    listing = "  CONTENTS:\n\n" + "\n\n".join(f"  {n:<40}{k * 20 + 1:>4}" for k, n in enumerate(names))
    pieces = "\n\n\n\n".join(f"{n}.\n\n\n{hard_wrapped(200, 'prose')}" for n in names)
    index = "\n\n".join(f"{letter}\n\n{letter}arn, mill, 3, 9\n{letter}ell, ferry, 12" for letter in "BGH")
    book = read_text_book(tmp_path, f"THE RIVER\n\n\n\n{listing}\n\n\n\n{pieces}\n\n\n\nINDEX.\n\n\n{index}\n")
    assert [c.title for c in book.chapters][:3] == ["A Word Before", "The Mill on the River", "The Ferry at Dawn"]
    assert not any(len(c.title) == 1 for c in book.chapters)


def test_a_listed_name_in_sentence_case_among_names_keeps_the_listing_going(tmp_path):
    # A book of poems lists "There is no mill on the river now" (sentence case) among its title-case names: the
    # listing goes on past it, so the poems after it are chapters too.
    names = ["The Pear Tree", "Rain at Noon", "There is no mill on the river now", "Mrs. Quill", "The Weir"]
    listing = "  CONTENTS\n\n\n" + "\n".join(f"  {n}" for n in names)
    poems = "\n\n\n\n".join(f"  {n.upper()}\n\n{hard_wrapped(120, 'verse')}" for n in names)
    book = read_text_book(tmp_path, f"THE ORCHARD\n\n\n\n{listing}\n\n\n\n\n{poems}\n")
    assert [c.title for c in book.chapters] == ["The Pear Tree", "Rain at Noon", "There Is No Mill on the River Now",
                                                "Mrs. Quill", "The Weir"]
