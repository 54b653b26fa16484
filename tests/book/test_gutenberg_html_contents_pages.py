"""Gutenberg HTML conventions (issue 32), continued: contents entries linked to their pages, and lists of pictures.

Each test names the convention, not a book; the HTML is invented."""
from __future__ import annotations

from tests.book.test_gutenberg_html_conventions import _book
from tests.book.test_gutenberg_html_unlisted import _PROSE

_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")
_NAMES = ("THE CAUSEWAY", "THE MILL", "THE LOCK", "THE FERRY", "THE BRIDGE", "THE WEIR", "THE QUAY", "THE BARN", "THE INN",
          "THE FARM")


def _page(n: int) -> str:
    return f'<p><span class="pagenum"><a name="Page_{n}" id="Page_{n}">{n}</a></span></p>'


def _paged_book(rows: str, headings: list[str]) -> str:
    """A contents of rows linked to the pages the chapters start on, then the chapters under their headings."""
    body = "".join(_page(10 * k + 1) + f"<h2>{h}</h2>" + _PROSE * 3 for k, h in enumerate(headings))
    return '<h2>CONTENTS</h2><table summary="Contents">' + rows + "</table>" + body


def test_a_contents_entry_linked_to_its_page_names_the_heading_of_its_number_spelled_otherwise(tmp_path):
    # "III. The Millimetre Lock ... 21" for "CHAPTER III" / "THE MILLIMETER LOCK": the producer retyped the contents;
    # the number says which chapter the page opens, though the names differ in a word.
    names = list(_NAMES)
    names[2] = "THE MILLIMETER LOCK"
    listed = [n.title() for n in names]
    listed[2] = "The Millimetre Lock"
    rows = "".join(f'<tr><td>{r}.</td><td>{name}</td><td><a href="#Page_{10 * k + 1}">{10 * k + 1}</a></td></tr>'
                   for k, (r, name) in enumerate(zip(_ROMAN, listed)))
    book = _book(tmp_path, _paged_book(rows, [f"CHAPTER {r}<br/>{n}" for r, n in zip(_ROMAN, names)]))
    assert [c.title for c in book.chapters] == [f"CHAPTER {r}: {n}" for r, n in zip(_ROMAN, names)]


def test_a_contents_label_over_an_entry_with_a_sections_name_added_names_the_chapter_of_its_number(tmp_path):
    # "CHAPTER III" on a row of its own, then "THE LOCK: THE KEEPER'S HOUSE ... 21": the contents adds the name of the
    # chapter's first section to the chapter's own.
    listed = list(_NAMES)
    listed[2] = "THE LOCK: THE KEEPER'S HOUSE BY THE WEIR"
    rows = "".join(f'<tr><td colspan="2">CHAPTER {r}</td></tr><tr><td>{name}</td><td><a href="#Page_{10 * k + 1}">'
                   f"{10 * k + 1}</a></td></tr>" for k, (r, name) in enumerate(zip(_ROMAN, listed)))
    book = _book(tmp_path, _paged_book(rows, [f"CHAPTER {r}<br/>{n}" for r, n in zip(_ROMAN, _NAMES)]))
    assert [c.title for c in book.chapters] == [f"CHAPTER {r}: {n}" for r, n in zip(_ROMAN, _NAMES)]


def test_a_list_of_illustrations_linked_to_its_pictures_is_no_contents(tmp_path):
    # The contents links each chapter at its page number ("I.; The Causeway; 1" -> #ch0), under its columns' heads and a
    # preface set before it, which it links by its Roman page; the list of illustrations after it links each picture at its page number too, the first of them
    # (a map) set before the first chapter: its links reached the top of the book first, and the pictures standing
    # under a chapter's heading were taken for the chapters, the chapters whose pictures stand further on left out.
    rows = '<tr><td>CHAPTER</td><td> </td><td>PAGE</td></tr><tr><td>Preface</td><td><a href="#preface">vii</a></td></tr>' + "".join(
        f'<tr><td>{r}.</td><td>{n.title()}</td><td><a href="#ch{k}">{10 * k + 1}</a></td></tr>'
        for k, (r, n) in enumerate(zip(_ROMAN, _NAMES)))
    pictures = ['<tr><td>Sketch Map of the River</td><td><a href="#map">xvi</a></td></tr>']
    body = '<p><a id="map"></a><img src="map.png" alt=""/></p><p>SKETCH MAP OF THE RIVER</p>'
    for k, (r, n) in enumerate(zip(_ROMAN, _NAMES)):
        body += _page(10 * k + 1) + f'<h2><a id="ch{k}"></a>CHAPTER {r}<br/>{n}</h2>'
        # (a chapter's pictures may stand pages from its heading and the next one's: no heading near them)
        lines = "<p>They walked on along the road and talked until the evening came.</p>" * (8 if k % 2 else 0)
        body += lines
        for j in range(2):
            pictures.append(f'<tr><td>A View by the Water, {k}{j}</td><td><a href="#p{k}{j}">{10 * k + 2 + 5 * j}</a></td></tr>')
            body += f'<p><a id="p{k}{j}"></a><img src="p{k}{j}.png" alt=""/></p>' + _PROSE * 2
        body += lines
    listing = ('<h2><a id="preface"></a>PREFACE</h2>' + _PROSE + '<h2>CONTENTS</h2><table summary="Contents">' + rows
               + '</table><h2>LIST OF ILLUSTRATIONS IN THE TEXT</h2><table summary="Illustrations"><tr><td>PAGE</td></tr>'
               + "".join(pictures) + "</table>")
    book = _book(tmp_path, listing + body)
    titles = [c.title for c in book.chapters]
    assert [t for t in titles if t.startswith("CHAPTER")] == [f"CHAPTER {r}: {n}" for r, n in zip(_ROMAN, _NAMES)]


def test_a_list_of_illustrations_under_a_styled_line_and_set_as_headings_is_no_contents(tmp_path):
    # "ILLUSTRATIONS" set as a styled paragraph, each picture's line an <h4> linking it (the first one back at the
    # frontispiece); the chapters' headings, unlisted, divide the book. Taken for its contents, the book was four
    # chapters titled by their pictures' captions.
    front = '<p><a id="front"></a><img src="front.png" alt=""/></p>'
    pictures = ['<h4><a href="#front">The Weir at Night . . . Frontispiece</a></h4>']
    body = ""
    for k, (r, n) in enumerate(zip(_ROMAN, _NAMES)):
        body += f"<h3>{r}</h3><h4>{n}</h4>" + _PROSE * 2
        if k % 2:
            pictures.append(f'<h4><a href="#p{k}">A View by the Water, {k}</a></h4>')
            body += f'<p><a id="p{k}"></a><img src="p{k}.png" alt=""/></p>' + _PROSE * 2
    book = _book(tmp_path, front + '<p class="t2">ILLUSTRATIONS</p>' + "".join(pictures) + body)
    titles = [c.title for c in book.chapters]
    assert [t for t in titles if not t.startswith("A View")] == [f"{r}: {n}" for r, n in zip(_ROMAN, _NAMES)], titles


def _stories(middle: str) -> str:
    rows = "".join(f'<p><a href="#s{k}">{n.title()}</a></p>' for k, n in enumerate(_NAMES[:4]))
    body = "".join(f'<h2 id="s{k}">{n}</h2>' + (middle if k == 1 else _PROSE * 3) for k, n in enumerate(_NAMES[:4]))
    return "<h2>CONTENTS</h2>" + rows + body


def test_a_listed_storys_parts_after_its_first_are_chapters_too(tmp_path):
    # The contents lists the stories; one story's heading stands over its "PART I" at the same level (one chapter,
    # named by both), and its "PART II" and "PART III" follow at that level, unlisted: the story's next chapters.
    middle = "".join(f"<h2>PART {r}</h2>" + _PROSE * 2 for r in ("I", "II", "III"))
    book = _book(tmp_path, _stories(middle))
    assert [c.title for c in book.chapters] == ["THE CAUSEWAY", "THE MILL: PART I", "PART II", "PART III", "THE LOCK",
                                                "THE FERRY"]


def test_an_unlisted_heading_that_numbers_on_nothing_stays_in_its_chapter(tmp_path):
    # The guard: "PART III" after "PART I" (a part skipped) and a heading of another kind stay the story's text.
    middle = "<h2>PART I</h2>" + _PROSE + "<h2>PART III</h2>" + _PROSE + "<h2>AT THE WEIR</h2>" + _PROSE
    book = _book(tmp_path, _stories(middle))
    assert [c.title for c in book.chapters] == ["THE CAUSEWAY", "THE MILL: PART I", "THE LOCK", "THE FERRY"]


def test_a_list_of_illustrations_after_the_contents_is_no_page_of_the_listed_preface_before_it(tmp_path):
    # The contents lists the preface set before it and the chapters, not the list of illustrations after it: unlisted,
    # the list was read as the preface's last page, each caption spoken.
    rows = '<p><a href="#pref">PREFACE</a></p>' + "".join(f'<p><a href="#s{k}">{n.title()}</a></p>'
                                                          for k, n in enumerate(_NAMES[:4]))
    pictures = "<h2>ILLUSTRATIONS</h2>" + "".join(f"<p>A View by the Water, {k}; Facing page {k * 9}</p>" for k in range(5))
    body = "".join(f'<h2 id="s{k}">{n}</h2>' + _PROSE * 3 for k, n in enumerate(_NAMES[:4]))
    book = _book(tmp_path, '<h2 id="pref">PREFACE</h2>' + _PROSE + "<h2>CONTENTS</h2>" + rows + pictures + body)
    assert [c.title for c in book.chapters] == ["PREFACE", "THE CAUSEWAY", "THE MILL", "THE LOCK", "THE FERRY"]
    assert not [p for p in book.chapters[0].paragraphs if "View by the Water" in p]


def test_an_unlisted_introduction_after_the_list_of_illustrations_keeps_its_text(tmp_path):
    # The guard: the list's heading is matter of its own only where nothing but the listed chapters follows it; an
    # unlisted introduction after it would be read as part of the list and left out with it.
    rows = "".join(f'<p><a href="#s{k}">{n.title()}</a></p>' for k, n in enumerate(_NAMES[:4]))
    pictures = "<h2>ILLUSTRATIONS</h2>" + "".join(f"<p>A View by the Water, {k}; Facing page {k * 9}</p>" for k in range(5))
    body = "".join(f'<h2 id="s{k}">{n}</h2>' + _PROSE * 3 for k, n in enumerate(_NAMES[:4]))
    book = _book(tmp_path, "<h2>CONTENTS</h2>" + rows + pictures + "<h2>INTRODUCTION</h2>" + _PROSE * 4 + body)
    assert sum(p.count("evening came") for c in book.chapters for p in c.paragraphs) == 8 * (4 + 12)


def _paged(name: str, page: int) -> str:
    return f'<tr><td><p>{name}</p></td><td><p><a href="#page{page}">{page}</a></p></td></tr>'


def test_two_entries_on_one_page_name_the_second_heading_further_down(tmp_path):
    # A contents of names and page links ("The Seal of the Abbey ... 15", "Description of Ashford Church ... 15"),
    # the page's mark an anchor beside its number, not in it. The second piece starts lower on page 15 than a
    # page's top, under a heading retyped ("Description of the Church."): it is its own chapter, not a section
    # of the first piece's.
    mark = lambda n: f'<a name="page{n}"></a><span class="pagenum">p. {n}</span>'  # noqa: E731
    rows = [("The Mill Race", 1), ("The Weir Pool", 5), ("The Seal of the Abbey", 15),
            ("Description of Ashford Church", 15), ("The Bells of the Tower", 16)]
    contents = "<h2>CONTENTS.</h2><table>" + "".join(_paged(n, p) for n, p in rows) + "</table>"
    short = "<p>They walked on along the road and talked of many things.</p>"
    body = (f"<p>{mark(1)}</p><h2>The Mill Race.</h2>" + _PROSE + f"<p>{mark(5)}</p><h2>The Weir Pool.</h2>" + _PROSE
            + f"<p>{mark(15)}</p><h2>The Seal of the Abbey.</h2>" + short * 8
            + "<h2>Description of the Church.</h2>" + _PROSE + f"<p>{mark(16)}</p><h2>The Bells of the Tower.</h2>" + _PROSE)
    book = _book(tmp_path, "<h1>THE ABBEY</h1>" + contents + body)
    assert [c.title for c in book.chapters] == ["The Mill Race.", "The Weir Pool.", "The Seal of the Abbey.",
                                                "Description of the Church.", "The Bells of the Tower."]
    # A heading of another name there is a section of the page's chapter, as before.
    book = _book(tmp_path, "<h1>THE ABBEY</h1>" + contents + body.replace("Description of the Church.", "Its Dimensions."))
    assert [c.title for c in book.chapters] == ["The Mill Race.", "The Weir Pool.", "The Seal of the Abbey.",
                                                "The Bells of the Tower."]



def test_a_heading_at_its_pages_top_with_the_pages_mark_in_its_first_paragraph_starts_its_chapter(tmp_path):
    # "The Lock ... 21" -> #Page_21, where the page's number is set inside the first paragraph under the heading
    # ("<h2>THE LOCK</h2><p>The keeper<span class=pagenum>21</span> ..."): the heading stands just above the mark,
    # and its chapter was merged into the one before.
    rows = "".join(f'<tr><td>{r}.</td><td>{n.title()}</td><td><a href="#Page_{10 * k + 1}">{10 * k + 1}</a></td></tr>'
                   for k, (r, n) in enumerate(zip(_ROMAN, _NAMES)))
    marked = _page(21).replace("<p>", "<p>They walked on along the road", 1)
    book = _book(tmp_path, _paged_book(rows, list(_NAMES)).replace(_page(21) + "<h2>THE LOCK</h2>", "<h2>THE LOCK</h2>" + marked))
    assert [c.title for c in book.chapters] == list(_NAMES)
