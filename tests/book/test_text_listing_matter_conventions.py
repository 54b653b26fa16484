"""Plain-text listings, matter and headings' layout under older printing conventions, one per test (issue 32,
round txt15: the failure classes of a fifth development draw).

Each test writes a small book in the convention and reads it with the app; the expected chapters are written out.
"""
from __future__ import annotations

from tests.book.plaintext import hard_wrapped, read_text_book


def test_a_long_name_in_capitals_with_its_alternative_title_is_one_listed_entry(tmp_path):
    # Numbered chapters listed, then the book's further pieces by name; "THE LODGER UPSTAIRS, OR THE HOUSE AT
    # THE END OF THE LANE   247": ten words and more in capitals are still one entry, and the listing goes on.
    chapters = "\n\n".join(f"    CHAPTER {n}.\n\n        What befell.--The ferry{k * 9 + 1:>30}"
                           for k, n in enumerate(["I", "II", "III"]))
    names = ["A STORM AT SEA", "THE FAIR", "THE FLOOD", "THE LODGER UPSTAIRS, OR THE HOUSE AT THE END OF THE LANE",
             "TALES OF THE HEATH", "THE HARVEST HOME"]
    contents = "CONTENTS.\n\n\n" + chapters + "\n\n" + "\n\n".join(
        f"    {n:<60}{40 * k + 31:>4}" for k, n in enumerate(names))
    body = "\n\n\n\n".join(f"CHAPTER {n}.\n\n\n{hard_wrapped(80, 'w')}" for n in ["I", "II", "III"])
    body += "\n\n\n\n" + "\n\n\n\n".join(f"{n}.\n\n\n{hard_wrapped(80, 'w')}" for n in names)
    book = read_text_book(tmp_path, f"TALES\n\n\n\n{contents}\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == [
        "Chapter I", "Chapter II", "Chapter III", "A Storm at Sea", "The Fair", "The Flood",
        "The Lodger Upstairs, or the House at the End of the Lane", "Tales of the Heath", "The Harvest Home"]


def test_a_listing_line_in_capitals_is_no_piece_where_the_listing_was_not_read(tmp_path):
    # "PAGE" over "MEMORIES OF A VILLAGE      1" and entries grouped under a label with bare numerals: whatever
    # reads the listing, its first line in capitals (the column heading and a name ending in its page) is
    # no piece's title; the pieces are the titles set apart in the body.
    contents = ("CONTENTS\n\n\n                                      PAGE\n"
                "          MEMORIES OF A VILLAGE          1\n\n"
                "          LETTERS FROM ABROAD—\n            I.                    40\n"
                "           II.                    86\n\n          SKETCHES OF TRAVEL—\n            I.                    99\n"
                "           II.                   104\n          III.                   111\n\n"
                "          TRAMPS                        120\n\n          INDEX                         150\n\n\n\n"
                "                    RECOLLECTIONS")
    pieces = ["MEMORIES OF A VILLAGE", "LETTERS FROM ABROAD I", "LETTERS FROM ABROAD II", "SKETCHES OF TRAVEL I",
              "SKETCHES OF TRAVEL II", "SKETCHES OF TRAVEL III", "TRAMPS"]
    body = "\n\n\n\n".join(f"          {n}\n\n\n{hard_wrapped(60, 'w')}\n\n{hard_wrapped(30, 'sat')}\n\n{hard_wrapped(30, 'sat')}"
                          for n in pieces)
    preface = f"          PREFACE\n\n\n{hard_wrapped(60, 'said')}"
    book = read_text_book(tmp_path, f"RECOLLECTIONS\n\n\n\n{preface}\n\n\n\n{contents}\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == [
        "Preface", "Memories of a Village", "Letters from Abroad I", "Letters from Abroad II", "Sketches of Travel I",
        "Sketches of Travel II", "Sketches of Travel III", "Tramps"]


def test_names_ending_in_a_comma_before_their_pages_are_a_listing_and_advertisements_no_chapter(tmp_path):
    # "BOOKS FOR SAILORS,          49": an older listing ends each name in a comma before its page (a name
    # too long for its line runs on below). The body sets each address after four blank lines; the
    # publisher's "ADVERTISEMENTS" set apart as they are at the end is matter, no chapter.
    names = ["THE USES OF ARITHMETIC AND ITS PLACE IN THE WORK OF THE SHOP", "BOOKS FOR SAILORS",
             "THE VILLAGE LAMP", "ROADS AND BRIDGES", "THE HARBOUR DUES"]
    contents = ("CONTENTS.\n\n                                                      PAGE\n"
                "THE USES OF ARITHMETIC AND ITS PLACE IN THE WORK\nOF THE SHOP,                           9\n\n"
                + "\n\n".join(f"{n + ',':<40}{30 * k + 49:>4}" for k, n in enumerate(names[1:])))
    body = "\n\n\n\n".join(f"{n}.\n\n\n{hard_wrapped(80, 'said')}\n\n{hard_wrapped(40, 'sat')}" for n in names)
    ads = f"ADVERTISEMENTS\n\n\nSCHOOL BOOKS.\n\n{hard_wrapped(200, 'sold')}"
    book = read_text_book(tmp_path, f"ADDRESSES\n\n\n\n{contents}\n\n\n\n{body}\n\n\n\n{ads}")
    assert [c.title for c in book.chapters] == [
        "The Uses of Arithmetic and Its Place in the Work of the Shop", "Books for Sailors",
        "The Village Lamp", "Roads and Bridges", "The Harbour Dues"]


def test_a_listing_labelled_contents_and_illustrations_names_the_pieces(tmp_path):
    # "CONTENTS AND ILLUSTRATIONS" over names in mixed case with their pages; each piece's title in capitals
    # stands under its picture, one blank line below it, so no gap sets it apart: the listing names them.
    names = ["The Miller and the Cat", "A Bell Under the Sea", "The Heron of the Marsh", "Three Wishes"]
    contents = "CONTENTS AND ILLUSTRATIONS\n\n\n" + "\n".join(f"    {n:<40}{4 * k + 4:>4}" for k, n in enumerate(names))
    body = "\n\n\n\n".join(f"[Illustration: a picture.]\n\n{n.upper()}.\n\n\n{hard_wrapped(80, 'said')}\n\n"
                           f"{hard_wrapped(40, 'sat')}" for n in names)
    book = read_text_book(tmp_path, f"OLD TALES\n\n\n\n{contents}\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == names


def test_a_listing_of_chapters_with_synopses_and_no_pages_gives_no_chapters(tmp_path):
    # "CHAPTER I" / its name / "The ferry--A storm--The mill" and no page numbers: the listing names every
    # chapter again, and each entry holds a few lines where its namesake later heads a long chapter.
    names = ["THE FIRST CROSSING", "THE STORM", "THE MILL ON THE RIVER", "HOME AGAIN"]
    numerals = ["I", "II", "III", "IV"]
    listing = "\n\n\n\n".join(f"CHAPTER {r}\n\n{n}\n\n\n    The ferry--A storm at night--The toll gate\n"
                              f"    and the keeper--What the miller said--The bridge over the\n"
                              f"    river--Rain in the hills--The flooded road--Concluding remarks"
                              for r, n in zip(numerals, names))
    body = "\n\n\n\n\n".join(f"CHAPTER {r}\n\n{n}\n\n\n" + "\n\n".join([hard_wrapped(120, 'said')] * 30)
                             for r, n in zip(numerals, names))
    # A list of illustrations after the listing runs the last entry on for a few hundred words.
    pictures = "LIST OF ILLUSTRATIONS\n\n\n" + "\n".join(f"    VIEW {k} OF THE RIVER AND THE MILL RACE SEEN FROM"
                                                        f" THE HILL" for k in range(1, 30))
    book = read_text_book(tmp_path, f"A JOURNEY\n\n\n\n\nCONTENTS\n\n\n{listing}\n\n\n\n\n{pictures}\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == [
        "Chapter I: The First Crossing", "Chapter II: The Storm", "Chapter III: The Mill on the River",
        "Chapter IV: Home Again"]


def test_the_last_paragraph_of_a_caption_run_over_several_is_no_heading(tmp_path):
    # "[Illustration:" / blank lines / "THE FIRST WAR]": a picture's caption set over several paragraphs names
    # a group the listing names too; its closing paragraph is the caption's, never a chapter of four words.
    groups = {"THE FIRST WAR": ["THE FORT", "THE MARCH"], "THE SECOND WAR": ["THE SIEGE", "THE SHIPS"]}
    contents = "CONTENTS\n\n                                     PAGE\n\n" + "\n\n".join(
        f"  {g:<40}{9 * k + 1:>4}\n\n" + "\n\n".join(f"    {n:<38}{9 * k + 2 + m:>4}" for m, n in enumerate(ns))
        for k, (g, ns) in enumerate(groups.items()))
    body = "\n\n\n\n".join(f"[Illustration:\n\n\n\n\n{g}]\n\n[Illustration]\n\n\n\n\n" + "\n\n\n\n".join(
        f"{n}.\n\n\n{hard_wrapped(80, 'said')}\n\n{hard_wrapped(40, 'sat')}" for n in ns) for g, ns in groups.items())
    book = read_text_book(tmp_path, f"BALLADS\n\n\n\n{contents}\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == ["The Fort", "The March", "The Siege", "The Ships"]


def test_a_heading_word_set_closer_than_the_chapters_is_a_lower_level(tmp_path):
    # "VOLUME ONE, CHAPTER TWO." after three blank lines; in the last chapter, an appendix's "SECTION 2." ...
    # after one blank line each: the sections are the appendix's, not chapters of the book.
    chapters = [f"VOLUME {v}, CHAPTER {c}." for v in ("ONE", "TWO") for c in ("ONE", "TWO", "THREE")]
    body = "\n\n\n\n".join(f"{h}\n\n{hard_wrapped(200, 'said')}\n\n{hard_wrapped(100, 'sat')}" for h in chapters)
    sections = "\n\n".join(f"SECTION {n}.\n\n{hard_wrapped(40, 'ruled')}" for n in (2, 3, 4, 2, 3, 2, 3))
    book = read_text_book(tmp_path, f"A JOURNEY\n\n\n\n{body}\n\nAPPENDIX. THE ARTICLES.\n\n{sections}")
    assert [c.title for c in book.chapters] == [
        "Volume One, Chapter One", "Volume One, Chapter Two", "Volume One, Chapter Three",
        "Volume Two, Chapter One", "Volume Two, Chapter Two", "Volume Two, Chapter Three", "Appendix. The Articles"]


def test_a_translators_credit_in_capitals_is_the_title_pages_not_a_piece(tmp_path):
    # "TRANSLATED BY ANN LEE" under the title, set apart as the hymns' titles are, heads no piece.
    hymns = ["SONG OF THE FERRY.", "THE LAMPLIGHTER.", "A CAROL FOR THE MILL.", "THE PILGRIM'S SONG."]
    body = "\n\n\n\n\n".join(f"{h}\n\n{hard_wrapped(60, 'sing')}\n\n{hard_wrapped(30, 'sat')}\n\n"
                               f"{hard_wrapped(30, 'rose')}" for h in hymns)
    front = ("                  SONGS\n              OF THE VALLEY\n\n\n              TRANSLATED BY\n         ANN MARY LEE\n\n"
             "       \u201cSing, for the morning comes, and the night is gone from the hills and the\n         valleys, and the birds are singing in the trees.\u201d\n\n\n              LONDON\n          A PRINTER\n\n"
             "          FOR MY BROTHERS\n        AND MY SISTERS,\n          WITH LOVE.")
    book = read_text_book(tmp_path, f"{front}\n\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == ["Song of the Ferry", "The Lamplighter", "A Carol for the Mill", "The Pilgrim's Song"]


def test_a_notes_mark_after_a_numbered_heading_is_no_part_of_its_title(tmp_path):
    # "LECTURE IV.[5]": the producer's mark of a note on the heading is never read as the title's.
    body = "\n\n\n\n".join(f"LECTURE {r}.{mark}\n\n\n{hard_wrapped(200, 'said')}"
                           for r, mark in (("I", "[5]"), ("II", "[11]"), ("III", "")))
    book = read_text_book(tmp_path, f"THREE LECTURES\n\n\n\n{body}")
    assert [c.title for c in book.chapters] == ["Lecture I", "Lecture II", "Lecture III"]


def test_a_parts_label_close_under_the_title_page_stays_a_part(tmp_path):
    # "BOOK THE FIRST" one blank line under the title page's fields, its chapters set wider: the part's label
    # is close because it opens the text, not because it is a lower level than the chapters.
    chapters = "\n\n\n".join(f"CHAPTER {r}\nTHE {r} THING\n\n\n{hard_wrapped(200, 'said')}"
                               for r in ("I", "II", "III", "IV"))
    book = read_text_book(tmp_path, f"Title: A Tale\n\nAuthor: Ann Lee\n\nBOOK THE FIRST\n_A NAME_\n\n\n{chapters}")
    assert len(book.chapters) == 4
    assert book.chapters[0].title.endswith("Chapter I: The I Thing")


def test_a_short_first_chapter_numbered_again_in_the_next_part_stays_a_chapter(tmp_path):
    # A first part's first chapter of two hundred words; the second part numbers its chapters from I again,
    # each many times as long: one short chapter alone is no listing's entry.
    def part(n: str, first_words: int) -> str:
        return f"BOOK THE {n}\n\n\n" + "\n\n\n".join(
            f"CHAPTER {r}\n\n\n" + "\n\n".join([hard_wrapped(first_words if r == "I" else 2000, 'said')])
            for r in ("I", "II", "III"))
    book = read_text_book(tmp_path, f"A TALE\n\n\n\n{part('FIRST', 200)}\n\n\n\n{part('SECOND', 2000)}")
    assert [c.title for c in book.chapters] == [
        f"Book the {n}, Chapter {r}" for n in ("First", "Second") for r in ("I", "II", "III")]
