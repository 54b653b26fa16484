"""Gutenberg HTML conventions (issue 32), continued: links back to the contents, and the publisher's pages
a listing names last.

Each test names the convention, not a book; the HTML is invented."""
from __future__ import annotations

from tests.book.test_gutenberg_html_conventions import _book

_PROSE = "<p>" + "The miller counted his sacks twice and found the same number each time he did so. " * 8 + "</p>"


def _listing(names: list[str]) -> str:
    rows = "".join(f'<li><a href="#c{k}">{n}</a></li>' for k, n in enumerate(names))
    return f'<h2>CONTENTS</h2><a id="toc"></a><ul>{rows}</ul>'


def test_a_link_back_to_the_contents_in_a_heading_is_not_its_title(tmp_path):
    # "CHAPTER II<span class="totoc"><a href="#toc">ToC</a></span>": read, the link's word ran into the title.
    names = ["CHAPTER I", "CHAPTER II", "CHAPTER III"]
    body = "".join(f'<h3 id="c{k}">{n}<span class="back"><a href="#toc">ToC</a></span></h3>{_PROSE}'
                   for k, n in enumerate(names))
    book = _book(tmp_path, _listing(names) + body)
    assert [c.title for c in book.chapters] == names


def test_a_contents_link_alone_after_a_chapter_is_not_read(tmp_path):
    names = ["THE MILL", "THE WEIR", "THE FERRY"]
    body = "".join(f'<h2 id="c{k}">{n}</h2>{_PROSE}<p>[<a href="#toc">Back to Contents</a>]</p>'
                   for k, n in enumerate(names))
    book = _book(tmp_path, _listing(names) + body)
    assert [c.title for c in book.chapters] == names
    assert not any("contents" in p.lower() for c in book.chapters for p in c.paragraphs)


def test_a_link_named_contents_inside_a_sentence_is_read(tmp_path):
    # Only a link standing apart is navigation; in a sentence its word is the book's.
    names = ["THE MILL", "THE WEIR", "THE FERRY"]
    body = "".join(f'<h2 id="c{k}">{n}</h2>{_PROSE}<p>He looked up the <a href="#toc">contents</a> first.</p>'
                   for k, n in enumerate(names))
    book = _book(tmp_path, _listing(names) + body)
    assert any("up the contents first" in p for c in book.chapters for p in c.paragraphs)


def test_a_link_to_the_index_alone_is_read(tmp_path):
    # A contents entry "Index" is set alone in its paragraph too: it is no way back.
    names = ["THE MILL", "THE WEIR", "THE FERRY"]
    body = "".join(f'<h2 id="c{k}">{n}</h2>{_PROSE}<p><a href="#ix">Index</a></p>' for k, n in enumerate(names))
    book = _book(tmp_path, _listing(names) + body)
    assert any(p == "Index" for c in book.chapters for p in c.paragraphs)


def test_advertisements_listed_last_are_no_chapter(tmp_path):
    # The publisher's pages after the text are listed like a chapter; they are not the author's.
    names = ["THE MILL", "THE WEIR", "THE FERRY", "Advertisements"]
    body = "".join(f'<h2 id="c{k}">{n.upper()}</h2>{_PROSE}' for k, n in enumerate(names))
    book = _book(tmp_path, _listing(names) + body)
    assert [c.title for c in book.chapters] == ["THE MILL", "THE WEIR", "THE FERRY"]


def test_a_glossary_listed_last_stays_a_chapter(tmp_path):
    # A glossary is the book's own: only the publisher's pages are left out.
    names = ["THE MILL", "THE WEIR", "THE FERRY", "Glossary"]
    body = "".join(f'<h2 id="c{k}">{n.upper()}</h2>{_PROSE}' for k, n in enumerate(names))
    book = _book(tmp_path, _listing(names) + body)
    assert [c.title for c in book.chapters][-1] == "GLOSSARY"


def test_a_preface_set_before_the_contents_and_listed_first_is_a_chapter(tmp_path):
    # The preface stands before the "CONTENTS" heading, and the listing's first entry links back to it: the
    # listing names it, whatever its name.
    names = ["CHAPTER I", "CHAPTER II", "CHAPTER III"]
    rows = '<p><a href="#pref">A WORD AT THE DOOR</a></p>' + "".join(f'<p><a href="#c{k}">{n}</a></p>' for k, n in enumerate(names))
    body = "".join(f'<h2 id="c{k}">{n}</h2>{_PROSE}' for k, n in enumerate(names))
    book = _book(tmp_path, f'<h1>THE MILLER</h1><h2 id="pref">A WORD AT THE DOOR</h2>{_PROSE}<h2>CONTENTS</h2>{rows}{body}')
    assert [c.title for c in book.chapters] == ["A WORD AT THE DOOR", *names]


def test_a_link_back_inside_a_chapter_is_no_contents_entry(tmp_path):
    # A cross-reference to an earlier chapter, away from any "CONTENTS" heading, starts nothing.
    names = ["CHAPTER I", "CHAPTER II", "CHAPTER III"]
    rows = "".join(f'<p><a href="#c{k}">{n}</a></p>' for k, n in enumerate(names))
    body = "".join(f'<h2 id="c{k}">{n}</h2>{_PROSE}<p><a href="#c0">CHAPTER I</a></p>' for k, n in enumerate(names))
    book = _book(tmp_path, f"<h2>CONTENTS</h2>{rows}{body}")
    assert [c.title for c in book.chapters] == names


_PAGES = (("I", 1), ("II", 17), ("III", 42), ("IV", 55), ("V", 83), ("VI", 114), ("VII", 146))


def test_a_listing_tables_column_heads_in_its_first_row_do_not_hide_the_first_chapter(tmp_path):
    # "Chapter | I. | Pag. | 1", then "" | II. | "" | 17": the first row carries the columns' heads.
    rows = ['<tr><td>Chapter</td><td>I.</td><td rowspan="7"> </td><td>Pag.</td><td><a href="#Page_1">1</a></td></tr>']
    rows += [f'<tr><td>\u201d</td><td>{r}.</td><td>\u201d</td><td><a href="#Page_{p}">{p}</a></td></tr>'
             for r, p in _PAGES[1:]]
    body = "".join(f'<p><span class="pagenum"><a name="Page_{p}" id="Page_{p}">[{p}]</a></span></p>'
                   f'<p class="large">THE MILLER</p><h2>{r}</h2>{_PROSE}'
                   for r, p in _PAGES)
    book = _book(tmp_path, f'<h1>THE MILLER</h1><h2>CONTENTS</h2><table>{"".join(rows)}</table>{body}')
    assert [c.title for c in book.chapters] == [r for r, _ in _PAGES]


def test_long_synopsis_rows_under_bare_chapter_numbers_are_the_listings_entries(tmp_path):
    # "CHAPTER I." in a row of its own, then the chapter's synopsis, linked by its page: however long the
    # synopsis, the row is an entry (else the listing starts at the first short one and the chapters
    # before it are lost), and the chapter keeps its number as its title (a synopsis is no name).
    numbers = ("I", "II", "III", "IV", "V", "VI", "VII")
    long = "The miller wakes.\u2014" + "He walks to the weir and back again.\u2014" * 12 + "He sleeps"
    short = "The miller wakes.\u2014He walks to the weir.\u2014He sleeps"
    rows = "".join(f'<tr><td>CHAPTER {r}.</td></tr><tr><td>{long if k < 3 else short}</td>'
                   f'<td><a href="#c{k}"><i>Page {k * 9 + 1}</i></a></td></tr>' for k, r in enumerate(numbers))
    body = "".join(f'<h2 id="c{k}">CHAPTER {r}.</h2>{_PROSE}' for k, r in enumerate(numbers))
    book = _book(tmp_path, f'<h1>THE MILLER</h1><h2>CONTENTS.</h2><table>{rows}</table>{body}')
    titles = [c.title for c in book.chapters]
    assert [t.split(":")[0].rstrip(".") for t in titles] == [f"CHAPTER {r}" for r in numbers], titles
    assert titles[:3] == ["CHAPTER I.", "CHAPTER II.", "CHAPTER III."]


def test_a_poem_listed_by_its_page_starts_at_its_heading_lower_on_that_page(tmp_path):
    # Poems start anywhere on a page: the page's mark may stand among the lines of the poem before, the
    # listed poem's heading some lines below it (before the next page's mark).
    names = ["Morning Fields", "The Weir at Dusk", "A Ferry Song", "Lamplight", "The Last Sack", "Frost", "Harvest"]
    rows = "".join(f'<tr><td>{n}</td><td><a href="#Page_{k + 1}">{k + 1}</a></td></tr>' for k, n in enumerate(names))
    verse = "".join(f"<p>The wheel goes round and the water falls, line {j}.</p>" for j in range(12))
    body = ""
    for k, n in enumerate(names):
        mark = f'<p><span class="pagenum"><a name="Page_{k + 1}" id="Page_{k + 1}">[Pg {k + 1}]</a></span></p>'
        lines = "<p>The miller sang a second verse.</p>" * 8
        body += (mark + lines if k in (2, 4) else lines + mark) + f"<h2>{n}</h2>{verse}"
    book = _book(tmp_path, f'<h1>POEMS</h1><h2>CONTENTS</h2><table>{rows}</table>{body}')
    assert [c.title for c in book.chapters] == names


def test_an_entry_whose_link_points_nowhere_does_not_cut_the_listing_in_two(tmp_path):
    # One row's anchor is missing from the page (a producer's slip): the rows after it are the same listing.
    names = ["THE MILL", "THE WEIR", "THE FERRY", "THE LOCK", "THE BRIDGE", "THE BARGE", "THE QUAY", "THE TOWPATH"]
    rows = "".join(f'<tr><td>{n}</td><td><a href="#c{k if k != 3 else 99}">{k + 1}</a></td></tr>' for k, n in enumerate(names))
    body = "".join(f'<h2 id="c{k}">{n}</h2>{_PROSE}' for k, n in enumerate(names[:5]))
    body += "".join(f'<h2 id="c{k}">{n}</h2>{_PROSE * 3}' for k, n in enumerate(names[5:], 5))
    book = _book(tmp_path, f'<h1>THE RIVER</h1><h2>CONTENTS</h2><table>{rows}</table>{body}')
    titles = [c.title for c in book.chapters]
    assert titles[:3] == names[:3] and titles[-3:] == names[-3:], titles


def test_a_long_entry_that_is_its_link_whole_does_not_cut_the_listing(tmp_path):
    # A weekly lists its short pieces in one long linked entry ("Short Pieces:—A mill.—A weir.—..."): it is
    # an entry, not prose, and the entries before it are the same listing.
    names = ["THE MILL", "THE WEIR", "THE FERRY", "SHORT PIECES", "THE LOCK", "THE BRIDGE", "THE BARGE", "THE QUAY"]
    long = "Short Pieces:\u2014" + "\u2014".join(f"A note on the mill wheel number {j}" for j in range(6))
    rows = "".join(f'<li><a href="#c{k}">{long if n == "SHORT PIECES" else n.title()}</a></li>' for k, n in enumerate(names))
    body = "".join(f'<h3 id="c{k}">{n}</h3>{_PROSE * (1 if k < 4 else 3)}' for k, n in enumerate(names))
    book = _book(tmp_path, f'<h1>THE WEEKLY</h1><h2>CONTENTS.</h2><ul>{rows}</ul>{body}')
    assert [c.title for c in book.chapters] == names


def test_a_weeklys_opening_notes_section_is_read(tmp_path):
    # A weekly of notes and queries opens its text with "Notes.": its first section, not end notes.
    sections = ["Notes.", "Short Pieces.", "Queries.", "Replies.", "Sundries."]
    body = "".join(f"<h2>{n}</h2><h3>ON THE MILL {k}</h3>{_PROSE}" for k, n in enumerate(sections))
    book = _book(tmp_path, f"<h1>THE WEEKLY</h1>{body}")
    assert book.chapters[0].title.startswith("Notes"), [c.title for c in book.chapters]


def test_notes_gathered_at_the_end_are_still_left_out(tmp_path):
    body = "".join(f"<h2>CHAPTER {r}</h2>{_PROSE}" for r in ("I", "II", "III", "IV")) + f"<h2>NOTES</h2>{_PROSE}"
    book = _book(tmp_path, f"<h1>THE MILLER</h1>{body}")
    assert [c.title for c in book.chapters] == ["CHAPTER I", "CHAPTER II", "CHAPTER III", "CHAPTER IV"]
