"""Plain-text chapters a numbered run shows are there, and the abbreviated heading word (issue 32, round txt16:
classes of the .txt editions of a development draw tuned only on its HTML).

Each test writes a small book in the convention and reads it with the app; the expected chapters are written out.
"""
from __future__ import annotations

from tests.book.plaintext import hard_wrapped, read_text_book

_NAMES = ["The Old Mill", "A Letter", "Rain at Noon", "The Long Road", "Home Again", "The Fair"]


def test_a_chapter_whose_title_reads_like_a_sentence_is_found_between_its_neighbours(tmp_path):
    # "CHAPTER IV." over "A Walk, and its Ending." in mixed case with small words: its title reads like the
    # first sentence of a paragraph, but the run IV ... VI shows the fifth chapter stands there.
    names = list(_NAMES)
    names[3] = "A Walk, and its Ending."
    body = "\n\n\n\n".join(f"CHAPTER {n}.\n{t}\n\n\n{hard_wrapped(120, 'walked')}\n\n{hard_wrapped(60, 'sat')}"
                           for n, t in zip(["I", "II", "III", "IV", "V", "VI"], names))
    book = read_text_book(tmp_path, f"THE MILLER'S YEAR\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == [
        "Chapter I: The Old Mill", "Chapter II: A Letter", "Chapter III: Rain at Noon",
        "Chapter IV: A Walk, and its Ending", "Chapter V: Home Again", "Chapter VI: The Fair"]


def test_a_listed_entry_with_its_number_and_page_only_keeps_its_chapter(tmp_path):
    # "III.                19": the listing gives the third chapter no name, and its heading none either.
    rows = [f"{n + '.':<8}{t:<40}{9 + 6 * k:>4}" for k, (n, t) in
            enumerate(zip(["I", "II", "III", "IV", "V", "VI"], ["A Dark Night", "The Chest", "", *_NAMES[3:]]))]
    contents = "CONTENTS\n\n\nCHAPTER                                         PAGE\n\n" + "\n\n".join(rows)
    body = "\n\n\n\n".join(f"CHAPTER {n}.\n\n{t.upper()}\n\n\n{hard_wrapped(120, 'rowed')}" if t else
                           f"CHAPTER {n}.\n\n\n{hard_wrapped(120, 'rowed')}"
                           for n, t in zip(["I", "II", "III", "IV", "V", "VI"], ["A Dark Night", "The Chest", "", *_NAMES[3:]]))
    book = read_text_book(tmp_path, f"ADRIFT\n\n\n\n{contents}\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters][-6:] == [
        "Chapter I: A Dark Night", "Chapter II: The Chest", "Chapter III", "Chapter IV: The Long Road",
        "Chapter V: Home Again", "Chapter VI: The Fair"]


def test_a_quoted_label_in_the_text_is_no_missing_chapter(tmp_path):
    # A gap in the run is filled only from a label set apart as the headings are (after as many blank lines):
    # "CHAPTER V." quoted as a paragraph of its own after one blank line, inside the prose, is no heading.
    numbers, names = ["I", "II", "III", "IV", "VI"], ["The Mill", "The Letter", "The Rain", "The Road", "The Fair"]
    contents = "CONTENTS\n\n\n" + "\n".join(f"{n + '.':<8}{t:<40}{9 + 6 * k:>4}" for k, (n, t) in
                                             enumerate(zip(numbers, names)))
    chapters = [f"CHAPTER {n}.\n{t.upper()}\n\n\n{hard_wrapped(120, 'read')}" for n, t in zip(numbers, names)]
    chapters[3] += ("\n\nThe page he found in the lane was headed, in the printer's capitals,\n\nCHAPTER V.\n\n"
                    + hard_wrapped(40, "read"))
    book = read_text_book(tmp_path, f"A TORN COPY\n\n\n\n{contents}\n\n\n\n" + "\n\n\n\n".join(chapters))
    assert [c.title for c in book.chapters][-5:] == [
        "Chapter I: The Mill", "Chapter II: The Letter", "Chapter III: The Rain", "Chapter IV: The Road",
        "Chapter VI: The Fair"]


def test_an_abbreviated_chapter_word_is_titled_in_full(tmp_path):
    # "Chap. II." heads the chapters after a "CHAPTER I.": the title is the word the abbreviation stands for.
    body = "\n\n\n\n".join(f"{w} {n}.\n{t}\n\n\n{hard_wrapped(120, 'taught')}" for w, n, t in
                           zip(["CHAPTER", "CHAP.", "CHAP."], ["I", "II", "III"], ["OF LESSONS", "OF BOOKS", "OF PLAY"]))
    book = read_text_book(tmp_path, f"ON TEACHING\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == [
        "Chapter I: Of Lessons", "Chapter II: Of Books", "Chapter III: Of Play"]


def test_chapter_the_last_is_the_listed_last_chapter_by_its_name(tmp_path):
    # The listing numbers the last chapter ("IV. HOW IT ENDED"), the body heads it "CHAPTER THE LAST." over the
    # same name: its name matches it to the entry.
    names = ["HOW IT BEGAN", "HOW WE MOVED", "HOW THE HOUSE BURNED", "HOW IT ENDED"]
    contents = "CONTENTS\n\n\n" + "\n".join(f"{n + '.':<6}{t:<40}{9 + 20 * k:>4}" for k, (n, t) in
                                           enumerate(zip(["I", "II", "III", "IV"], names)))
    labels = ["CHAPTER I.", "CHAPTER II.", "CHAPTER III.", "CHAPTER THE LAST."]
    body = "\n\n\n\n".join(f"{lab}\n\n{t}.\n\n\n{hard_wrapped(120, 'moved')}" for lab, t in zip(labels, names))
    book = read_text_book(tmp_path, f"A YEAR OF MOVES\n\n\n\n{contents}\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters][-4:] == [
        "Chapter I: How It Began", "Chapter II: How We Moved", "Chapter III: How the House Burned",
        "Chapter the Last: How It Ended"]


def test_numerals_counted_from_one_inside_a_labelled_chapter_are_its_sections(tmp_path):
    # "CHAPTER I" / "Beginnings", then "I" / "THE VALLEY", "II" / "THE FORD", "III" / "THE TOWN" inside it (the
    # listing names them too, indented), then "CHAPTER II" ... "CHAPTER IV": the labelled run is the division.
    rows = ["I.  BEGINNINGS", "      I.  The Valley", "     II.  The Ford", "    III.  The Town",
            "II.  THE FIRST WINTER", "III.  THE SPRING FLOOD", "IV.  THE HARVEST"]
    contents = "CONTENTS\n\n\nCHAPTER\n" + "\n".join(f"{r:<50}{10 + 12 * k:>4}" for k, r in enumerate(rows))
    sections = "\n\n\n".join(f"{n}\n\n{t}\n\n{hard_wrapped(80, 'farmed')}" for n, t in
                              zip(["I", "II", "III"], ["THE VALLEY", "THE FORD", "THE TOWN"]))
    body = f"CHAPTER I\n\nBeginnings\n\n\n{sections}"
    body += "".join(f"\n\n\n\nCHAPTER {n}\n\n{t}\n\n\n{hard_wrapped(200, 'farmed')}" for n, t in
                    zip(["II", "III", "IV"], ["The First Winter", "The Spring Flood", "The Harvest"]))
    book = read_text_book(tmp_path, f"A SETTLER'S YEAR\n\n\n\n{contents}\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters][-4:] == [
        "Chapter I: Beginnings", "Chapter II: The First Winter", "Chapter III: The Spring Flood",
        "Chapter IV: The Harvest"]


def test_parts_that_all_stand_before_the_first_chapter_part_nothing(tmp_path):
    # A publisher's list over the front matter: "FIRST SERIES." and "SECOND SERIES." over the volumes' names,
    # set apart, then a preface and "CHAPTER I" ... "CHAPTER III": the series' labels part none of the chapters.
    ads = "\n\n".join(f"          {s} SERIES.\n\n\n          THE LOST KEY.\n          THE OLD BARGE.\n"
                      f"          BOYS OF THE DOCK." for s in ["FIRST", "SECOND"])
    preface = f"PREFACE.\n\n\n{hard_wrapped(150, 'wrote')}"
    body = "\n\n\n\n".join(f"CHAPTER {n}\n\n{t}\n\n\n{hard_wrapped(200, 'ran')}" for n, t in
                           zip(["I", "II", "III"], ["THE DOCK", "A NEW FRIEND", "THE BARGE"]))
    book = read_text_book(tmp_path, f"THE DOCK BOY\n\n\n\n{ads}\n\n\n\n{preface}\n\n\n\n{body}")
    titles = [c.title for c in book.chapters]
    assert titles[-4:] == ["Preface", "Chapter I: The Dock", "Chapter II: A New Friend", "Chapter III: The Barge"]
    assert not any("Series" in t for t in titles)


def test_a_number_over_a_title_in_capitals_with_small_words_in_italics(tmp_path):
    # "1 _The_ FLOODED MEADOW": the number and the name in capitals on one line, the small words set in
    # italic lower case; "2" alone over "_The_ DRY _and_ DUSTY ROAD" below: both number the chapters.
    heads = ["1 _The_ FLOODED MEADOW", "2\n\n_The_ DRY _and_ DUSTY ROAD", "3 _A_ WINTER _of_ SNOW"]
    body = "\n\n\n\n".join(f"{h}\n\n\n{hard_wrapped(150, 'walked')}\n\n{hard_wrapped(60, 'sat')}" for h in heads)
    book = read_text_book(tmp_path, f"PREFACE\n\n\n{hard_wrapped(120, 'wrote')}\n\n\n\n{body}")
    assert [c.title for c in book.chapters][-3:] == [
        "1: The Flooded Meadow", "2: The Dry and Dusty Road", "3: A Winter of Snow"]
