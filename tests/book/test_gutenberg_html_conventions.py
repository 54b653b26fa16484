"""Gutenberg HTML conventions (issue 32): each test names the convention, not a book."""
from __future__ import annotations

from app.book import load_book
from app.book.model import ReadOptions

_START = "<p>*** START OF THE PROJECT GUTENBERG EBOOK TESTS ***</p>"
_END = "<p>*** END OF THE PROJECT GUTENBERG EBOOK TESTS ***</p>"


def _book(tmp_path, body: str, **options):
    path = tmp_path / "book.html"
    path.write_text(f"<html><head><title>Tests</title></head><body>{_START}{body}{_END}</body></html>",
                    encoding="utf-8")
    return load_book(path, options=ReadOptions(**options)) if options else load_book(path)


_PROSE = "<p>" + "They walked on along the road and talked of many things until the evening came. " * 8 + "</p>"


def test_contents_part_label_of_many_words_does_not_end_the_listing(tmp_path):
    rows = []
    body = []
    n = 0
    for part, label in ((1, "PART FIRST. AT THE OLD MILL BY THE RIVER"), (2, "PART SECOND. AT THE TOWN ON THE HILL")):
        rows.append(f"<p>{label}</p>")
        body.append(f"<h2>{label}</h2>")
        for _ in range(3):
            n += 1
            rows.append(f'<p><a href="#ch{n}">CHAPTER {n}</a></p>')
            body.append(f'<h3 id="ch{n}">CHAPTER {n}</h3>{_PROSE}')
    book = _book(tmp_path, "<h2>CONTENTS</h2>" + "".join(rows) + "".join(body))
    numbered = [c.title for c in book.chapters if "Chapter" in c.title or "CHAPTER" in c.title]
    assert len(numbered) == 6, [c.title for c in book.chapters]


def test_verse_in_pre_is_read_not_code(tmp_path):
    book = _book(tmp_path, "<h2>CHAPTER I</h2><p>She sang:</p><pre>\n   Oh, the merry days      |\n"
                           "   when we were young,     |\n      and all the world -- was sweet; &amp;c.\n</pre>"
                           + _PROSE)
    said = " ".join(book.chapters[0].paragraphs)
    assert "Code example" not in said and "when we were young" in said and "|" not in said


def test_family_tree_in_pre_reads_its_names(tmp_path):
    tree = "<pre>\n          John Smith = Ann Grey\n              |\n     +--------+--------+\n     |          |\n   Mary       Thomas\n</pre>"
    book = _book(tmp_path, "<h2>CHAPTER I</h2>" + tree + _PROSE)
    said = " ".join(book.chapters[0].paragraphs)
    assert "Code example" not in said and "Mary" in said and "+--" not in said


def test_dialogue_pause_of_dashes_in_pre_says_nothing(tmp_path):
    book = _book(tmp_path, '<h2>CHAPTER I</h2><p>"Well," said he.</p><pre>\n  ------\n</pre>' + _PROSE)
    assert not any("Code example" in p or "---" in p for p in book.chapters[0].paragraphs)


def test_program_text_in_pre_stays_code(tmp_path):
    book = _book(tmp_path, "<h2>CHAPTER I</h2>" + _PROSE + "<pre>\nfor (i = 0; i &lt; n; i++) { x[i] = 2; }\n</pre>")
    assert "Code example." in book.chapters[0].paragraphs


def test_footnotes_and_transcribers_notes_are_matter(tmp_path):
    body = (f"<h2>CHAPTER I</h2>{_PROSE}<h2>CHAPTER II</h2>{_PROSE}<h2>FOOTNOTES</h2><p>[1] A note.</p>"
            "<h2>Transcriber\u2019s Notes</h2><p>Typos fixed.</p>")
    assert [c.title for c in _book(tmp_path, body).chapters] == ["CHAPTER I", "CHAPTER II"]
    titles = [c.title for c in _book(tmp_path, body, include_matter=True).chapters]
    assert "FOOTNOTES" in titles and "Transcriber\u2019s Notes" in titles


def test_heading_broken_by_br_is_one_heading_with_its_name(tmp_path):
    # "CHAPTER I<br/><span>AN ILL WIND</span>": the name under the label is the chapter's title, not its
    # first paragraph; a title broken over lines for the layout reads as one line.
    body = "".join(f'<h2 id="c{n}">CHAPTER {r}<br />\n<span class="smaller">{name}</span></h2>{_PROSE}'
                   for n, (r, name) in enumerate((("I", "AN ILL WIND"), ("II", "MISSING"), ("III", "TREASURE TROVE"))))
    book = _book(tmp_path, "<h1>THE STORY<br />\nOF THE<br />\nOLD MILL</h1>" + body)
    assert [c.title for c in book.chapters] == [
        "CHAPTER I: AN ILL WIND", "CHAPTER II: MISSING", "CHAPTER III: TREASURE TROVE"]
    said = [p for c in book.chapters for p in c.paragraphs]
    assert not {"AN ILL WIND", "MISSING", "TREASURE TROVE"} & set(said), said[:4]  # not left as paragraphs
    assert said[0] == "THE STORY OF THE OLD MILL"


def test_old_small_print_after_the_text_ends_no_header(tmp_path):
    # Older editions put the licence's small print after the book; its closing "*END*THE SMALL PRINT!"
    # line is the old header's end marker, but here it comes after the END marker: the text is all before.
    path = tmp_path / "book.html"
    body = ("<pre>The Project Gutenberg EBook of Tests, by Nobody\n\nTitle: Tests\n</pre>"
            "<h2>LETTER I.</h2>" + _PROSE + "<h2>LETTER II.</h2>" + _PROSE + _END
            + "<p>This etext is otherwise provided to you \"AS-IS\".</p>"
            "<p>*END THE SMALL PRINT! FOR PUBLIC DOMAIN EBOOKS*Ver.02/11/02*END*</p>")
    path.write_text(f"<html><head><title>Tests</title></head><body>{body}</body></html>", encoding="utf-8")
    book = load_book(path)
    assert [c.title for c in book.chapters] == ["LETTER I.", "LETTER II."]
    assert "evening came" in " ".join(book.chapters[1].paragraphs)


def test_contents_entry_wrapped_by_br_keeps_the_listing_whole(tmp_path):
    # One <p> of links, an entry's name wrapped over three lines by <br> inside its link: the lines
    # without a link of their own are the entry's rest, not the end of the listing.
    names = ["The Start", "In which Many Things happen that will take more\n<br/>than one line to tell\n<br/>"
             "and even a third", "The Middle", "The Long Road", "The End"]
    links = "<br/>".join(f'<a href="#c{n}">{"I II III IV V".split()[n]}. {name}</a>' for n, name in enumerate(names))
    body = "".join(f'<h4 id="c{n}">CHAPTER {"I II III IV V".split()[n]}</h4>' + _PROSE * 3 for n in range(5))
    book = _book(tmp_path, f"<h4>TITLE PAGE</h4><h4>CONTENTS</h4><p>{links}</p>{body}")
    titles = [c.title for c in book.chapters]
    assert len(titles) == 5 and titles[1].endswith("and even a third"), titles
    assert not any("The Long Road" in p for c in book.chapters for p in c.paragraphs[1:])


def test_bare_chapter_label_takes_its_listed_name_without_the_page(tmp_path):
    # "CHAPTER I" alone in the body, "Appointment at the Port    17" in the listing (the page a link):
    # the chapter says its label and its name, never the page number.
    names = ["Appointment at the Port", "Society Official and Unofficial", "Conditions in the Country"]
    rows = "".join(f'<p><a href="#c{n}">{name}</a> {17 + 9 * n}</p>' for n, name in enumerate(names))
    body = "".join(f'<h2 id="c{n}">CHAPTER {"I II III".split()[n]}</h2>' + _PROSE * 3 for n in range(3))
    book = _book(tmp_path, f"<h2>CONTENTS</h2>{rows}{body}")
    assert [c.title for c in book.chapters] == [f"CHAPTER {r}: {name}" for r, name in zip("I II III".split(), names)]


def test_title_page_by_line_set_as_a_heading_is_no_chapter(tmp_path):
    # "<h3>BY</h3>" over the author's name, on a title page with a paragraph of its own: no chapter "BY".
    book = _book(tmp_path, "<h2>ABBREVIATIONS</h2><p>A PRIMER OF SIGNS</p><h2>BY</h2><p>JOHN SMITH, Instructor</p>" + _PROSE
                 + "<h2>PREFACE</h2>" + _PROSE + "<h2>THE RULES</h2>" + _PROSE + "<h2>By the Sea</h2>" + _PROSE)
    titles = [c.title for c in book.chapters]
    assert not any(t == "BY" or t.endswith(": BY") for t in titles) and "PREFACE" in titles and "By the Sea" in titles, titles


def test_a_volumes_own_contents_heading_is_matter(tmp_path):
    # "CONTENTS OF VOLUME II." over a listing in plain paragraphs (no links): matter, as "CONTENTS" is.
    listing = "<h2>CONTENTS OF VOLUME II.</h2>" + "".join(f"<p>Day {n} in Convention</p>" for n in range(1, 30))
    book = _book(tmp_path, listing + "".join(f"<h2>Day {n} in Convention</h2>" + _PROSE for n in range(1, 4)))
    assert [c.title for c in book.chapters] == [f"Day {n} in Convention" for n in range(1, 4)]


def test_one_volumes_list_of_illustrations_is_matter(tmp_path):
    # "LIST OF ILLUSTRATIONS. VOL. I." in a book of two volumes: the list of the volume's pictures, as
    # "LIST OF ILLUSTRATIONS" is, never a chapter read aloud.
    body = ("<h2>PREFACE.</h2>" + _PROSE + "<h2>LIST OF ILLUSTRATIONS. VOL. I.</h2><p>Portrait of the author</p>"
            "<p>The old house at the ford</p>" + "".join(f"<h2>CHAPTER {r}.</h2>{_PROSE}" for r in ("I", "II")))
    book = _book(tmp_path, body)
    assert [c.title for c in book.chapters] == ["PREFACE.", "CHAPTER I.", "CHAPTER II."]


def test_the_books_title_over_its_first_chapter_is_no_chapter_title(tmp_path):
    # The contents row "I. | THE FORD" links to an anchor above the book's own title set once more over
    # the text ("THE SALT ROAD.", then "Chapter I.", then "THE FORD."): the chapter is the one
    # the row names, titled by its label; the book's title over the first chapter titles nothing.
    names = ["THE FORD", "THE BRIDGE", "THE WEIR"]
    rows = "".join(f'<tr><td>{r}.</td><td><a href="#c{n}">{name}</a></td></tr>'
                   for n, (r, name) in enumerate(zip(("I", "II", "III"), names)))
    chapters = "".join(
        f'<a id="c{n}"></a>' + ("<h2>THE SALT ROAD.</h2>" if n == 0 else "")
        + f"<h3>Chapter {r}.</h3><h3>{name}.</h3>{_PROSE}" for n, (r, name) in enumerate(zip(("I", "II", "III"), names)))
    book = _book(tmp_path, f"<h1>THE MILL</h1><h2>CONTENTS</h2><table>{rows}</table>{chapters}")
    titles = [c.title for c in book.chapters]
    assert len(titles) == 3 and all(name.casefold() in t.casefold() for t, name in zip(titles, names)), titles
    assert not any("SALT ROAD" in t for t in titles), titles


def test_contents_entries_each_over_a_synopsis_stay_one_listing(tmp_path):
    # "CHAPTER I." then its synopsis paragraph, then "CHAPTER II." ...: the listing is whole, the book is read.
    rows = "".join(f'<p><a href="#c{n}">CHAPTER {n}.</a></p><p>The voyage out.&mdash;A storm at sea.&mdash;'
                   f'Arrival at the port and what was found there by the crew.</p>' for n in range(1, 5))
    body = "".join(f'<h2 id="c{n}">CHAPTER {n}.</h2>{_PROSE}' for n in range(1, 5))
    book = _book(tmp_path, "<h2>CONTENTS.</h2>" + rows + body)
    assert [c.title for c in book.chapters] == [f"CHAPTER {n}." for n in range(1, 5)]
    assert not any("A storm at sea" in p for c in book.chapters for p in c.paragraphs)


def test_nested_contents_chapters_are_the_level_listed_most_and_parts_are_announced(tmp_path):
    rows, body = [], []
    for part in (1, 2):
        rows.append(f'<p><a href="#b{part}">BOOK {part}.</a></p>')
        body.append(f'<h2 id="b{part}">BOOK {part}. THE {"FIRST" if part == 1 else "SECOND"} JOURNEY</h2>'
                    "<p>Of the road and the river.</p>")
        for n in range(1, 4):
            rows.append(f'<p><a href="#b{part}c{n}">CHAPTER {n}.</a></p>')
            body.append(f'<h3 id="b{part}c{n}">CHAPTER {n}. PLACE {part}{n}</h3>{_PROSE}')
    book = _book(tmp_path, "<h2>CONTENTS</h2>" + "".join(rows) + "".join(body))
    titles = [c.title for c in book.chapters]
    assert len(titles) == 6, titles
    assert titles[0].startswith("BOOK 1. THE FIRST JOURNEY: CHAPTER 1") and titles[3].startswith("BOOK 2")
    assert "Of the road and the river." in book.chapters[0].paragraphs


def test_appendix_listing_alone_is_not_the_books_contents(tmp_path):
    chapters = "".join(f"<h2>CHAPTER {n}.</h2>{_PROSE * 3}" for n in range(1, 4))
    rows = "".join(f'<p><a href="#n{n}">No. {n}.</a></p>' for n in range(1, 4))
    appendix = "".join(f'<h3 id="n{n}">No. {n}.</h3>{_PROSE}' for n in range(1, 4))
    book = _book(tmp_path, chapters + "<h2>APPENDIX.</h2>" + rows + appendix)
    assert sum(len(p.split()) for c in book.chapters for p in c.paragraphs) > 3 * 3 * 100


def test_note_markers_linked_or_superscript_and_page_numbers_are_not_read(tmp_path):
    body = ("<h2>CHAPTER I</h2><p>They reached the mill,<small><sup>1</sup></small> and the river"
            '<a href="#Footnote_2" id="FNanchor_2"><span class="fn">2</span></a> was low. Sir Odo Quill '
            '<a href="#Footnote_3_3" class="fnanchor">[3]</a> came at noon, and the\n'
            "<span class='pageno' id='Page_7'>7</span>miller with him. Its area is x<sup>2</sup>.</p>"
            + _PROSE)
    said = " ".join(load_paragraphs(_book(tmp_path, body)))
    assert "mill, and the river was low." in said
    assert "Quill came at noon, and the miller with him." in " ".join(said.split())
    assert "x2." in said  # a power after a variable is no note
    assert not any(d in said.replace("x2.", "") for d in "1237")


def load_paragraphs(book):
    return [p for c in book.chapters for p in c.paragraphs]


def test_a_list_of_facsimiles_is_matter_as_a_list_of_plates_is(tmp_path):
    body = ("<h2>FAC-SIMILES.</h2><p>FACING PAGE</p><p>The first leaf of the charter 212</p>"
            + "".join(f"<h2>CHAPTER {r}.</h2>{_PROSE}" for r in ("I", "II")))
    assert [c.title for c in _book(tmp_path, body).chapters] == ["CHAPTER I.", "CHAPTER II."]


def test_contents_rows_linked_to_page_numbers_find_their_chapters(tmp_path):
    # Parts are linked to their headings, chapters only by their page numbers, whose anchors sit in the
    # page-number spans that are never read: the chapters are still where those pages begin.
    rows, body, page = [], [], 1
    names = iter(("The Ford", "The Weir", "The Mill", "The Bridge", "The Lock", "The Quay"))
    for part in ("I", "II", "III"):
        rows.append(f'<tr><td colspan="2"><a href="#PART_{part}">PART {part}</a>.</td></tr>')
        for ch, name in (("I", next(names)), ("II", next(names))):
            rows.append(f'<tr><td>{ch}.</td><td>{name}</td><td><a href="#Page_{page}">{page}</a></td></tr>')
            head = f'<h2 id="PART_{part}">PART {part}.</h2>' if ch == "I" else ""
            body.append(f'<p><span class="pagenum" id="Page_{page}">[Pg {page}]</span></p>{head}'
                        f'<h3>CHAPTER {ch}.<br/>{name.upper()}.</h3>{_PROSE}')
            page += 7
    book = _book(tmp_path, "<h2>CONTENTS</h2><table>" + "".join(rows) + "</table>" + "".join(body))
    titles = [c.title for c in book.chapters]
    assert len(titles) == 6, titles
    assert titles[0].startswith("PART I") and "THE FORD" in titles[0], titles
    assert "THE WEIR" in titles[1] and "Pg" not in " ".join(p for c in book.chapters for p in c.paragraphs)


def test_a_listing_of_page_numbers_naming_each_chapter_divides_a_collection(tmp_path):
    # Two works in one volume, each listed by its chapters' names and pages; the works' titles are
    # headings the listing sets as labels. The pages' headings bear the names: those are the chapters.
    works = {"THE MILLER'S SON": ("The Ford at Dawn", "The Weir at Noon", "The Mill at Night"),
             "THE FERRYMAN": ("A Boat Is Hired", "The River Rises", "Home Again")}
    rows, body, page = [], [], 3
    for work, names in works.items():
        rows.append(f'<tr><td colspan="3"><h4>{work}</h4></td></tr>')
        body.append(f"<h2>{work}</h2>")
        for n, name in enumerate(names, 1):
            rows.append(f'<tr><td>{"I" * n}.</td><td>{name}</td><td><a href="#page{page}">{page}</a></td></tr>')
            body.append(f'<p><span class="pagenum"><a id="page{page}"></a>{page}</span></p>'
                        f"<h3>CHAPTER {'I' * n}<br/>{name.upper()}</h3>{_PROSE}")
            page += 9
    book = _book(tmp_path, "<h3>CONTENTS</h3><table>" + "".join(rows) + "</table>" + "".join(body))
    titles = [c.title for c in book.chapters]
    assert len(titles) == 6, titles
    assert all(name.upper() in t for t, name in zip(titles, [n for ns in works.values() for n in ns])), titles


def test_a_margin_note_set_inline_is_read_apart_from_its_paragraph(tmp_path):
    body = ('<h2>CHAPTER I.</h2><p><span class="sidenote">May 4</span>VII. <span class="smcap">Resolved</span>, '
            "That the court meet at noon.</p>" + _PROSE)
    paragraphs = load_paragraphs(_book(tmp_path, body))
    assert "May 4" in paragraphs and "VII. Resolved, That the court meet at noon." in paragraphs, paragraphs[:3]


def test_a_level_whose_headings_call_themselves_chapters_is_the_chapter_level(tmp_path):
    # The listing names each chapter's numbered sections ("1. Its Sources") more often than the chapters.
    rows, body = [], []
    for c in range(1, 4):
        rows.append(f'<p><a href="#c{c}">CHAPTER {c}. THE {"ABC"[c - 1]} QUESTION</a></p>')
        body.append(f'<h2 id="c{c}">CHAPTER {c}<br/>THE {"ABC"[c - 1]} QUESTION</h2>')
        for n in range(1, 5):
            rows.append(f'<p><a href="#c{c}s{n}">{n}. Point {c}{n}</a></p>')
            body.append(f'<h3 id="c{c}s{n}">{n}. POINT {c}{n}</h3>{_PROSE}')
    book = _book(tmp_path, "<h2>CONTENTS</h2>" + "".join(rows) + "".join(body))
    titles = [c.title for c in book.chapters]
    assert len(titles) == 3 and all(t.startswith(f"CHAPTER {n}") for n, t in zip((1, 2, 3), titles)), titles
    assert "POINT" not in " ".join(titles)


def test_a_contents_line_linked_at_its_number_may_carry_a_long_name(tmp_path):
    long_name = ("HOW THE HIVES ARE MOVED IN THE AUTUMN FROM THE HEATHER TO THE ORCHARD BELOW THE HILL "
                 "BEFORE THE FROSTS COME, AND BY WHOM")
    names = ["THE FIRST HIVE", "THE SECOND HIVE", long_name, "THE LAST HIVE"]
    rows = "".join(f'<p><a href="#c{n}">{"I II III IV".split()[n]}.</a>&mdash;{name}</p>' for n, name in enumerate(names))
    # Each chapter has a table headed at its own level, which the listing does not name.
    body = "".join(f'<h2 id="c{n}">CHAPTER {"I II III IV".split()[n]}<br/>{name}</h2>{_PROSE}'
                   f"<h2>TABLE {n + 1}</h2>{_PROSE}" for n, name in enumerate(names))
    book = _book(tmp_path, "<h2>CONTENTS</h2>" + rows + body)
    assert [c.title.split(":")[0] for c in book.chapters] == ["CHAPTER I", "CHAPTER II", "CHAPTER III", "CHAPTER IV"]


def test_a_contents_set_partly_in_toc_paragraphs_and_partly_in_a_table_is_one_listing(tmp_path):
    rows = ('<p class="toc"><a href="#pre">A WORD TO THE READER</a></p>'
            '<p class="toc"><a href="#intro">THE PLAN OF THE WORK</a></p>'
            "<table>" + "".join(f'<tr><td><a href="#c{n}">CHAPTER {n}.</a></td><td>PLACE {n}</td></tr>'
                                for n in range(1, 4)) + "</table>")
    body = ('<h2 id="pre">A WORD TO THE READER.</h2><p>The editors offer this little book again.</p>'
            '<h2 id="intro">THE PLAN OF THE WORK.</h2>' + _PROSE
            + "".join(f'<h2 id="c{n}">CHAPTER {n}. PLACE {n}</h2>{_PROSE}' for n in range(1, 4)))
    book = _book(tmp_path, "<h1>A BOOK OF THE FIELDS</h1><h2>Contents</h2>" + rows + body)
    titles = [c.title for c in book.chapters]
    assert titles[:2] == ["A WORD TO THE READER.", "THE PLAN OF THE WORK."] and len(titles) == 5, titles
    assert "The editors offer this little book again." in book.chapters[0].paragraphs


def test_a_listing_of_parts_alone_leaves_their_chapter_headings_the_chapters(tmp_path):
    # The contents lists a prologue and two parts by page; each part's "CHAPTER I" .. is set as a heading
    # below the part's, unlisted; the second part is the longest, so it begins before the book's middle.
    rows = ('<table><tr><td>PROLOGUE</td></tr><tr><td>THE LETTER</td><td><a href="#page1">1</a></td></tr>'
            '<tr><td>PART I</td></tr><tr><td>THE MILL</td><td><a href="#page9">9</a></td></tr>'
            '<tr><td>PART II</td></tr><tr><td>THE TOWN</td><td><a href="#page40">40</a></td></tr></table>')
    body = ['<h2><a name="page1"></a>PROLOGUE<br/>THE LETTER</h2>' + _PROSE,
            '<h2><a name="page9"></a>PART I<br/>THE MILL</h2>']
    body += [f"<h3>CHAPTER {r}</h3>{_PROSE * 2}" for r in ("I", "II", "III")]
    body += ['<h2>PART II<br/>THE TOWN</h2><h3><a name="page40"></a>CHAPTER I</h3>' + _PROSE * 2]
    body += [f"<h3>CHAPTER {r}</h3>{_PROSE * 2}" for r in ("II", "III")]
    book = _book(tmp_path, "<h2>CONTENTS</h2>" + rows + "".join(body))
    titles = [c.title for c in book.chapters]
    assert len(titles) == 7, titles
    assert titles[0].startswith("PROLOGUE") and titles[1].startswith("PART I") and "CHAPTER I" in titles[1]
    assert all(";" not in t for t in titles), titles


def test_a_long_listing_with_one_entry_out_of_order_is_still_the_contents(tmp_path):
    # The listing names the appendix before the preface the page prints first; 24 chapters follow in order.
    names = [f"THE {w} VOYAGE" for w in ("FIRST SHORT", "SECOND", "THIRD", "FOURTH", "FIFTH", "SIXTH")] * 4
    rows = ['<p><a href="#app">Appendix</a></p>', '<p><a href="#pre">Preface</a></p>']
    rows += [f'<p><a href="#d{n}">{n + 1}.</a> {name.title()}</p>' for n, name in enumerate(names)]
    body = ['<h2 id="pre">PREFACE.</h2>' + _PROSE]
    body += [f'<h3 id="d{n}">{n + 1}. {name}</h3>{_PROSE}<h4>A NOTE ON THE LOG</h4>{_PROSE}' for n, name in enumerate(names)]
    body += ['<h2 id="app">APPENDIX.</h2>' + _PROSE]
    book = _book(tmp_path, "<h2>CONTENTS.</h2>" + "".join(rows) + "".join(body))
    titles = [c.title for c in book.chapters]
    assert len(titles) == 26 and not any("NOTE ON THE LOG" in t for t in titles), titles


def test_a_contents_line_may_shorten_its_heading_or_spell_out_its_ampersand(tmp_path):
    # Front matter by page ("Introduction ... 9" for "INTRODUCTION TO THE NEW ISSUE."), two parts
    # linked to their headings, and a last essay listed with "and" where its heading prints "&".
    rows = ['<tr><td>Introduction</td><td><a href="#Page_9">9</a></td></tr>']
    body = ['<p><span class="pagenum" id="Page_9">[Pg 9]</span></p><h2>INTRODUCTION TO THE NEW ISSUE.</h2>'
            + _PROSE]
    page = 10
    for part in ("I", "II"):
        rows.append(f'<tr><td colspan="2"><a href="#PART_{part}">Part {part}.</a></td></tr>')
        body.append(f'<h2 id="PART_{part}">PART {part}.</h2>')
        for n in range(2):
            rows.append(f'<tr><td>Letter {part}{n}</td><td><a href="#Page_{page}">{page}</a></td></tr>')
            body.append(f'<p><span class="pagenum" id="Page_{page}">[Pg {page}]</span></p><h3>LETTER {part}{n}.</h3>'
                        + _PROSE)
            page += 5
    rows.append(f'<tr><td>The Mill and the Ford</td><td><a href="#Page_{page}">{page}</a></td></tr>')
    body.append(f'<p><span class="pagenum" id="Page_{page}">[Pg {page}]</span></p><h2>THE MILL &amp; THE FORD.</h2>'
                + _PROSE)
    book = _book(tmp_path, "<h2>CONTENTS</h2><table>" + "".join(rows) + "</table>" + "".join(body))
    titles = [c.title for c in book.chapters]
    assert titles[0] == "INTRODUCTION TO THE NEW ISSUE." and titles[-1] == "THE MILL & THE FORD.", titles


def test_a_listing_of_one_text_between_its_matter_leaves_the_headings_to_divide_it(tmp_path):
    # "Calendar", "Diary" and "Index" by page: one text between two pieces of matter names too little;
    # the dated headings inside the diary are its chapters.
    rows = "".join(f'<p>{name} <a href="#page{p}">{p}</a></p>' for name, p in (("Calendar", 1), ("Diary", 5),
                                                                               ("Index", 90)))
    days = "".join(f"<h3>FRIDAY, JUNE {d}.</h3>{_PROSE}" for d in range(1, 6))
    body = (f'<p><span class="pagenum"><a name="page1">1</a></span></p><h2>CALENDAR OF THE VOYAGE.</h2>{_PROSE}'
            f'<p><span class="pagenum"><a name="page5">5</a></span></p><h2>DIARY OF THE VOYAGE OF 1801.</h2>{days}'
            f'<p><span class="pagenum"><a name="page90">90</a></span></p><h2>INDEX.</h2><p>Mill, 3; Weir, 4.</p>')
    book = _book(tmp_path, "<h2>CONTENTS</h2>" + rows + body)
    titles = [c.title for c in book.chapters]
    assert sum(1 for t in titles if t.startswith("FRIDAY")) == 5, titles


def test_an_unlisted_conclusion_inside_a_listed_chapter_stays_its_section(tmp_path):
    rows = "".join(f'<p><a href="#c{n}">CHAPTER {n}</a></p>' for n in range(1, 4))
    body = "".join(f'<h2 id="c{n}">CHAPTER {n}</h2>{_PROSE}' for n in range(1, 4))
    book = _book(tmp_path, "<h1>A HANDBOOK OF BEES</h1><p>By a Keeper</p><h2>CONTENTS</h2>" + rows + body
                 + "<h4>Conclusion</h4>" + _PROSE)
    assert [c.title for c in book.chapters] == ["CHAPTER 1", "CHAPTER 2", "CHAPTER 3"]


def test_an_authors_note_alone_is_read_and_gathered_notes_are_matter(tmp_path):
    rows = "".join(f'<p><a href="#c{n}">CHAPTER {n}</a></p>' for n in range(1, 4))
    body = "".join(f'<h2 id="c{n}">CHAPTER {n}</h2>{_PROSE}' for n in range(1, 4))
    book = _book(tmp_path, "<h2>CONTENTS</h2>" + rows + '<p><a href="#note">NOTE.</a></p><p><a href="#notes">NOTES.</a></p>'
                 + body + '<h2 id="note">NOTE.</h2><p>The author thanks the miller for his patience.</p>'
                 + '<h2 id="notes">NOTES.</h2><p>1. See the parish register.</p>')
    assert [c.title for c in book.chapters] == ["CHAPTER 1", "CHAPTER 2", "CHAPTER 3", "NOTE."]
