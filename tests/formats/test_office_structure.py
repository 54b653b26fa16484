"""Structure of office documents (chapters, opening, list items) and the reader's cost, on files the tests build
(python-docx; invented text)."""
from __future__ import annotations

from app.book import load_book
from tests.formats.test_office_fields import _all_text, _docx_body


def test_docx_a_long_opening_under_a_title_is_read_once(tmp_path):
    # A title paragraph, then a preamble of many paragraphs before the first chapter heading: it is the
    # document's opening chapter, read once (the split kept it as a chapter headed by the title, and the
    # opening was added again before it).
    import docx

    doc = docx.Document()
    doc.add_paragraph("Rules of the Mill Pond Skating Club", style="Title")
    doc.add_paragraph("Agreed by the members at the autumn meeting in the old stone mill.")
    for n in ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"):
        # Over 300 words in all: an opening long enough for the split to keep as a chapter of its own.
        doc.add_paragraph(f"Whereas the {n} winter froze the pond early, the members resolved to keep "
                          "the ice swept and the lanterns lit along the bank, and to ring the bell by the "
                          "sluice gate whenever a skater went past the willow after dark.")
    for n in ("One", "Two"):
        doc.add_heading(f"Rule {n}", level=1)
        doc.add_paragraph("No skater goes past the willow when the ice is thin near the sluice gate.")
    doc.save(tmp_path / "rules.docx")
    book = load_book(tmp_path / "rules.docx")
    text = _all_text(book)
    assert text.count("Agreed by the members") == 1
    assert text.count("the fifth winter froze") == 1
    assert [c.title for c in book.chapters][-2:] == ["Rule One", "Rule Two"]


def test_docx_numbered_list_items_are_text_under_their_chapter_not_headings(tmp_path):
    # Items of a numbered (multilevel) list carry w:numPr and the List Paragraph style: text of the
    # chapter they stand in, never chapters of their own, whatever their level in the list.
    import docx

    doc = docx.Document()
    doc.add_heading("Rule One", level=1)
    doc.add_paragraph("Skaters keep to these lanes on the pond.")
    items = "".join(
        f'<w:p><w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="{lvl}"/><w:numId w:val="1"/>'
        f'</w:numPr></w:pPr><w:r><w:t>{t}</w:t></w:r></w:p>'
        for lvl, t in ((0, "The north lane is for racing."), (1, "Racers skate one way only."),
                       (0, "The south lane is for learners.")))
    doc.add_heading("Rule Two", level=1)
    book = _docx_body(tmp_path, items, doc)
    assert [c.title for c in book.chapters] == ["Rule One", "Rule Two"]
    text = " ".join(book.chapters[1].paragraphs)
    assert "The north lane is for racing." in text and "Racers skate one way only." in text


def test_office_chapters_are_the_outlines_top_level_however_long_one_is(tmp_path):
    # A word processor's headings are the author's outline: the highest level used more than once is the
    # chapters, though one of them holds most of the text (its Heading 2 sections are not chapters).
    import docx

    doc = docx.Document()
    doc.add_heading("Rule One", level=1)
    doc.add_paragraph("Skaters keep to the lanes marked on the pond.")
    doc.add_heading("Rule Two", level=1)
    for lane in ("North", "South", "East", "West", "Willow", "Sluice"):
        doc.add_heading(f"The {lane} Lane", level=2)
        doc.add_paragraph(f"The {lane.lower()} lane is swept each morning before the bell, and no skater goes "
                          "past its lantern after dark, whatever the ice looks like from the bank.")
    doc.save(tmp_path / "rules.docx")
    book = load_book(tmp_path / "rules.docx")
    assert [c.title for c in book.chapters] == ["Rule One", "Rule Two"]
    assert "The Sluice Lane" in book.chapters[1].paragraphs


def test_docx_paragraph_styles_are_looked_up_once_per_style(tmp_path, monkeypatch):
    # python-docx finds a paragraph's default style by scanning every style in styles.xml; a template of
    # thousands of styles times thousands of paragraphs took minutes. The reader asks once per style id.
    import docx
    from docx.styles.styles import Styles

    from app.book.formats.docx import read_docx
    from app.book.model import ReadOptions

    doc = docx.Document()
    for n in range(200):
        doc.add_paragraph(f"Lantern {n} hangs by the pond.")
    doc.save(tmp_path / "lanterns.docx")
    calls = []
    real = Styles.default
    monkeypatch.setattr(Styles, "default", lambda self, style_type: calls.append(1) or real(self, style_type))
    book = read_docx(tmp_path / "lanterns.docx", ReadOptions())
    assert "Lantern 199 hangs by the pond." in " ".join(book.chapters[-1].paragraphs)
    assert len(calls) <= 2


def test_office_a_heading_with_nothing_under_it_is_a_chapter_not_the_next_ones_part(tmp_path):
    # A section that holds only a chart or a formula has a heading and no words; its author set it at the level
    # of the next heading, not over it: it is a chapter of its own, not folded into the next title
    # ("Chart: Tallies"), as an e-book's part title page is.
    import docx

    doc = docx.Document()
    doc.add_heading("Counts", level=1)
    doc.add_paragraph("The ferrymen counted every cart that crossed in the spring.")
    doc.add_heading("Chart", level=1)
    doc.add_heading("Tallies", level=1)
    doc.add_paragraph("Forty carts crossed in April and sixty in May.")
    doc.save(tmp_path / "counts.docx")
    book = load_book(tmp_path / "counts.docx")
    assert [c.title for c in book.chapters] == ["Counts", "Chart", "Tallies"]
