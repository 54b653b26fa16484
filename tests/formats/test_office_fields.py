"""Conventions of office fields, notes, content controls, comments and frames, on small files the tests build
(invented text)."""
from __future__ import annotations

import zipfile

from app.book import load_book
from tests.formats.twins import sample

_ODT_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
    '<office:body><office:text>')
_ODT_TAIL = '</office:text></office:body></office:document-content>'


def _with_content(content: str, out):
    """Write a real LibreOffice ODT to `out` with its content.xml replaced by `content`; return `out`."""
    real = sample("pandoc-odt-odt-headers.odt")
    with zipfile.ZipFile(real) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, content.encode() if info.filename == "content.xml" else src.read(info))
    return out


def _odt(tmp_path, body: str):
    return load_book(_with_content(_ODT_HEAD + body + _ODT_TAIL, tmp_path / "made.odt"))


def _all_text(book) -> str:
    return " ".join(" ".join(" ".join(c.paragraphs) for c in book.chapters).split())


def test_odt_cross_reference_reads_the_text_it_shows_but_not_a_page_number(tmp_path):
    # LibreOffice's cross-reference to a heading or bookmark (text:bookmark-ref) shows the target's
    # text on the page; a reference shown as a page number points nowhere when heard.
    book = _odt(tmp_path,
                '<text:h text:outline-level="1"><text:bookmark-start text:name="b1"/>The Mill Pond'
                '<text:bookmark-end text:name="b1"/></text:h>'
                '<text:p>The geese swam there all summer long.</text:p>'
                '<text:p>As told in <text:bookmark-ref text:reference-format="text" text:ref-name="b1">'
                'The Mill Pond</text:bookmark-ref>, on page <text:bookmark-ref text:reference-format="page" '
                'text:ref-name="b1">47</text:bookmark-ref>, they left in autumn.</text:p>')
    text = _all_text(book)
    assert "As told in The Mill Pond, on page , they left in autumn." in text
    assert "47" not in text


def test_docx_neighbouring_cells_with_the_same_text_are_both_read(tmp_path):
    # Cells come from the XML (a merged cell's continuation is empty there): a row whose cells say
    # the same thing says it once per cell, as the printed table shows it.
    import docx

    doc = docx.Document()
    doc.add_paragraph("The survey asked two questions of every farmer in the valley.")
    table = doc.add_table(rows=2, cols=3)
    for cell, text in zip(table.rows[0].cells, ("Farmer", "Sheep", "Goats")):
        cell.text = text
    for cell, text in zip(table.rows[1].cells, ("Ansel", "Yes", "Yes")):
        cell.text = text
    # A horizontal merge: python-docx writes gridSpan and one cell, read once.
    merged = doc.add_table(rows=1, cols=2)
    merged.cell(0, 0).merge(merged.cell(0, 1)).text = "Totals follow"
    path = tmp_path / "cells.docx"
    doc.save(path)
    text = _all_text(load_book(path))
    assert "Ansel; Yes; Yes" in text
    assert text.count("Totals follow") == 1


def test_docx_drop_cap_is_read_as_the_first_letter_of_its_paragraph(tmp_path):
    # Word writes a drop cap as a framed paragraph of its own (w:framePr w:dropCap="drop") holding
    # the first letter; the rest of the word opens the next paragraph.
    import docx
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    doc = docx.Document()
    cap = doc.add_paragraph("O")
    frame = OxmlElement("w:framePr")
    frame.set(qn("w:dropCap"), "drop")
    frame.set(qn("w:lines"), "3")
    cap._p.get_or_add_pPr().append(frame)
    doc.add_paragraph("nce the miller had counted his geese, he slept.")
    doc.add_paragraph("Morning came late to the valley.")
    path = tmp_path / "cap.docx"
    doc.save(path)
    text = _all_text(load_book(path))
    assert "Once the miller had counted his geese, he slept." in text
    assert " O " not in f" {text} " and "nce the" not in text.replace("Once the", "")


def _docx_with(tmp_path, paragraph_xml: str):
    import docx
    from docx.oxml import parse_xml

    doc = docx.Document()
    doc.add_paragraph("The miller kept geese by the pond behind the old stone mill.")
    ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    doc.element.body[-1].addprevious(parse_xml(f"<w:p {ns}>{paragraph_xml}</w:p>"))
    path = tmp_path / "made.docx"
    doc.save(path)
    return _all_text(load_book(path))


def test_docx_ruby_reads_its_base_not_its_reading_aid(tmp_path):
    # w:ruby holds w:rt (the small reading aid printed over the text) and w:rubyBase: the base is said.
    text = _docx_with(tmp_path, '<w:r><w:t xml:space="preserve">The word </w:t></w:r><w:ruby><w:rubyPr/>'
                                '<w:rt><w:r><w:t>mil</w:t></w:r></w:rt><w:rubyBase><w:r><w:t>mill</w:t></w:r>'
                                '</w:rubyBase></w:ruby><w:r><w:t xml:space="preserve"> is old.</w:t></w:r>')
    assert "The word mill is old." in text


def test_docx_non_breaking_hyphen_is_a_hyphen(tmp_path):
    # Word's non-breaking hyphen (w:noBreakHyphen) prints a hyphen that keeps its word on one line.
    text = _docx_with(tmp_path, '<w:r><w:t>A well</w:t><w:noBreakHyphen/><w:t>known mill.</w:t></w:r>')
    assert "A well-known mill." in text


def test_odt_ruby_reads_its_base_not_its_reading_aid(tmp_path):
    book = _odt(tmp_path, '<text:p>The word <text:ruby><text:ruby-base>mill</text:ruby-base>'
                          '<text:ruby-text>mil</text:ruby-text></text:ruby> is old and stands by the pond.</text:p>')
    assert "The word mill is old and stands by the pond." in _all_text(book)


def test_odt_hidden_text_and_hidden_sections_are_not_read(tmp_path):
    # LibreOffice's "Hidden" character attribute (text:display="none" in a style's text properties,
    # inherited by styles based on it) and a section set to hide (text:display="none") are not printed.
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        '<office:automatic-styles>'
        '<style:style style:name="Secret" style:family="text"><style:text-properties text:display="none"/></style:style>'
        '<style:style style:name="P9" style:family="paragraph" style:parent-style-name="Secret"/>'
        '</office:automatic-styles><office:body><office:text>'
        '<text:p>The miller kept <text:span text:style-name="Secret">seven grey</text:span> geese by the pond.</text:p>'
        '<text:p text:style-name="P9">Notes the miller wrote for himself alone.</text:p>'
        '<text:section text:name="Draft" text:display="none"><text:p>An older draft of the story.</text:p></text:section>'
        '<text:section text:name="Body"><text:p>In autumn the geese flew south over the hills.</text:p></text:section>'
        '</office:text></office:body></office:document-content>')
    text = _all_text(load_book(_with_content(content, tmp_path / "hidden.odt")))
    assert "The miller kept geese by the pond." in text
    assert "In autumn the geese flew south over the hills." in text
    assert "seven" not in text and "himself" not in text and "draft" not in text


def test_docx_text_hidden_by_its_style_is_not_read(tmp_path):
    # Word's "Hidden" font attribute set on a character or paragraph style (w:vanish in styles.xml)
    # hides every run of that style, unless a run shows itself again (w:vanish w:val="0").
    import docx
    from docx.enum.style import WD_STYLE_TYPE

    doc = docx.Document()
    doc.styles.add_style("Secret", WD_STYLE_TYPE.CHARACTER).font.hidden = True
    doc.styles.add_style("SecretPara", WD_STYLE_TYPE.PARAGRAPH).font.hidden = True
    p = doc.add_paragraph("The miller kept ")
    p.add_run("seven grey ", style="Secret")
    p.add_run("geese by the pond.")
    doc.add_paragraph("Notes the miller wrote for himself alone.", style="SecretPara")
    shown = doc.add_paragraph("", style="SecretPara").add_run("In autumn the geese flew south.")
    shown.font.hidden = False
    path = tmp_path / "hidden.docx"
    doc.save(path)
    text = _all_text(load_book(path))
    assert "The miller kept geese by the pond." in text
    assert "In autumn the geese flew south." in text
    assert "seven" not in text and "himself" not in text


def test_an_office_documents_title_is_never_a_chapters_a_contents_heading_or_a_placeholder(tmp_path):
    # With no title in its properties, a document is named by the heading over all of it; one of several
    # top headings is a chapter's title, a "Contents" heading or a paragraph set as a title names nothing,
    # and a title of punctuation alone (".") or an account's name ("Microsoft account") is no metadata.
    import docx

    chapters = _odt(tmp_path, '<text:h text:outline-level="1">The Mill Pond</text:h><text:p>Geese swam.</text:p>'
                              '<text:h text:outline-level="1">The Orchard</text:h><text:p>Apples grew.</text:p>')
    assert chapters.title == "made"  # the file's name
    one = _odt(tmp_path, '<text:h text:outline-level="1">Notes on the Valley</text:h><text:p>Geese swam.</text:p>'
                         '<text:h text:outline-level="2">The Orchard</text:h><text:p>Apples grew.</text:p>')
    assert one.title == "Notes on the Valley"
    for styled, expected in (("Contents", "made"), ("The Valley Almanac", "The Valley Almanac"),
                             (" ".join(["word"] * 30), "made")):
        doc = docx.Document()
        doc.core_properties.title = "."
        doc.core_properties.author = "Microsoft account"
        doc.add_paragraph(styled, style="Title")
        doc.add_paragraph("The geese swam on the mill pond all summer long, and nobody fed them.")
        doc.save(tmp_path / "made.docx")
        book = load_book(tmp_path / "made.docx")
        assert (book.title, book.author) == (expected, "Unknown"), styled


def test_a_windows_built_in_account_is_no_author():
    # A file written in a Windows sandbox or by a service carries the account's name, not a person's.
    from app.book.formats.placeholder import is_placeholder_author

    for account in ("WDAGUtilityAccount", "DefaultAccount", "Guest", "Microsoft account"):
        assert is_placeholder_author(account), account
    assert not is_placeholder_author("Ada Quillfeather")


def _note_docx(tmp_path, runs: str):
    """A Word file (python-docx's template) with one footnote, id 1, and a paragraph of `runs` citing it."""
    import docx
    from docx.oxml import parse_xml

    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    doc = docx.Document()
    doc.add_paragraph("The miller kept geese by the pond behind the old stone mill.")
    doc.element.body[-1].addprevious(parse_xml(f'<w:p xmlns:w="{w}">{runs}</w:p>'))
    path = tmp_path / "made.docx"
    doc.save(path)
    notes = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes xmlns:w="{w}">'
             '<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> The pond froze '
             'that winter.</w:t></w:r></w:p></w:footnote></w:footnotes>')
    rel = ('<Relationship Id="rIdNotes" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
           'footnotes" Target="footnotes.xml"/>')
    kind = ('<Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.'
            'wordprocessingml.footnotes+xml"/>')
    out = tmp_path / "noted.docx"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "word/_rels/document.xml.rels":
                data = data.replace(b"</Relationships>", rel.encode() + b"</Relationships>")
            elif info.filename == "[Content_Types].xml":
                data = data.replace(b"</Types>", kind.encode() + b"</Types>")
            dst.writestr(info, data)
        dst.writestr("word/footnotes.xml", notes)
    return _all_text(load_book(out))


def test_docx_a_note_marker_between_two_words_parts_them(tmp_path):
    # Word prints the marker (superscript) between "pond" and "1850"; the note is read after the
    # paragraph, and the two words stay two ("pond1850" is neither). Before punctuation, nothing is added.
    ref = '<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="1"/></w:r>'
    text = _note_docx(tmp_path, f'<w:r><w:t>They skated on the pond</w:t></w:r>{ref}<w:r><w:t xml:space="preserve">'
                                f'1850 and on the river</w:t></w:r>{ref}<w:r><w:t>.</w:t></w:r>')
    assert "They skated on the pond 1850 and on the river." in text
    assert "The pond froze that winter." in text
    assert text.index("on the river.") < text.index("The pond froze")


def test_odt_a_note_marker_between_two_words_parts_them(tmp_path):
    note = ('<text:note text:id="n1" text:note-class="footnote"><text:note-citation>1</text:note-citation>'
            '<text:note-body><text:p>The pond froze that winter.</text:p></text:note-body></text:note>')
    book = _odt(tmp_path, f'<text:p>They skated on the pond{note}1850 and on the river{note}.</text:p>'
                          '<text:p>The geese stayed in the barn until spring came back.</text:p>')
    text = _all_text(book)
    assert "They skated on the pond 1850 and on the river." in text
    assert text.count("The pond froze that winter.") == 2


def test_odt_a_placeholder_and_an_empty_database_field_are_not_read(tmp_path):
    # A template's placeholder field is a prompt to whoever fills it in; a database (mail-merge) field
    # with no record loaded shows its column's name in angle brackets. A loaded one shows a value: read.
    book = _odt(tmp_path,
                '<text:p>Dear <text:placeholder text:placeholder-type="text">&lt;Name of the guest&gt;'
                '</text:placeholder>, welcome to the mill by the pond.</text:p>'
                '<text:p>Your room is kept by <text:database-display text:table-name="guests" '
                'text:table-type="table" text:column-name="Host" text:database-name="Addresses">&lt;Host&gt;'
                '</text:database-display> and your boat by <text:database-display text:table-name="guests" '
                'text:table-type="table" text:column-name="Boatman" text:database-name="Addresses">Tobin Marsh'
                '</text:database-display>.</text:p>')
    text = _all_text(book)
    assert "welcome to the mill by the pond." in text and "Name of the guest" not in text
    assert "Host" not in text and "your boat by Tobin Marsh." in text


def test_odt_comments_are_not_read_wherever_they_are_anchored(tmp_path):
    # LibreOffice's comments (office:annotation) sit inline: in a span, over a range closed by
    # office:annotation-end, or alone in an empty paragraph. None is the document's text.
    book = _odt(tmp_path,
                '<text:p>The ferry crossed <text:span><office:annotation><text:p>Check the year of the crossing.'
                '</text:p></office:annotation></text:span>the river at dawn.</text:p>'
                '<text:p>The <office:annotation office:name="c2"><text:p>Name the boatman here.</text:p>'
                '</office:annotation>boatman<office:annotation-end office:name="c2"/> sang all the way over.</text:p>'
                '<text:p><office:annotation><text:p>Cut this page?</text:p></office:annotation></text:p>')
    text = _all_text(book)
    assert "The ferry crossed the river at dawn." in text and "The boatman sang all the way over." in text
    assert "Check the year" not in text and "Name the boatman" not in text and "Cut this page" not in text


def _docx_body(tmp_path, body_xml: str, doc=None):
    """A Word file (python-docx's template) with `body_xml` (w: elements) before a closing paragraph."""
    import docx
    from docx.oxml import parse_xml

    doc = doc or docx.Document()
    doc.add_paragraph("The miller kept geese by the pond behind the old stone mill.")
    ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    for el in parse_xml(f"<w:body {ns}>{body_xml}</w:body>"):
        doc.element.body[-1].addprevious(el)
    path = tmp_path / "made.docx"
    doc.save(path)
    return load_book(path)


def test_docx_content_controls_are_read_but_a_contents_control_is_not(tmp_path):
    # Word's content controls (w:sdt) hold the document's own text: a block of paragraphs, or a run inside a
    # sentence. The one Word makes for a table of contents (docPartGallery "Table of Contents") is a listing.
    book = _docx_body(tmp_path,
                      '<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/></w:docPartObj>'
                      '</w:sdtPr><w:sdtContent><w:p><w:r><w:t>Skating rules and lantern hours, page four</w:t></w:r>'
                      '</w:p></w:sdtContent></w:sdt>'
                      '<w:sdt><w:sdtPr><w:alias w:val="Summary"/></w:sdtPr><w:sdtContent><w:p><w:r><w:t>The club '
                      'meets on the ice at noon.</w:t></w:r></w:p></w:sdtContent></w:sdt>'
                      '<w:p><w:r><w:t xml:space="preserve">Bring </w:t></w:r><w:sdt><w:sdtPr><w:text/></w:sdtPr>'
                      '<w:sdtContent><w:r><w:t>two lanterns</w:t></w:r></w:sdtContent></w:sdt><w:r>'
                      '<w:t xml:space="preserve"> and a rope.</w:t></w:r></w:p>')
    text = _all_text(book)
    assert "The club meets on the ice at noon." in text and "Bring two lanterns and a rope." in text
    assert "lantern hours" not in text


def test_docx_fields_are_read_as_the_result_they_show_not_their_code(tmp_path):
    # A field shows its result (a citation, an author, a date) and hides its code ("CITATION ..."):
    # complex fields (w:fldChar begin / w:instrText / separate / result / end) and w:fldSimple alike.
    book = _docx_body(tmp_path,
                      '<w:p><w:r><w:t xml:space="preserve">Ice holds a skater at five inches </w:t></w:r>'
                      '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
                      '<w:r><w:instrText xml:space="preserve"> CITATION '
                      'Mar11 \\l 1033 </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
                      '<w:r><w:t>(Marsh, 1911)</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
                      '<w:r><w:t xml:space="preserve">, as the club was told by </w:t></w:r>'
                      '<w:fldSimple w:instr=" AUTHOR \\* MERGEFORMAT ">'
                      '<w:r><w:t>Tobin Reed</w:t></w:r></w:fldSimple>'
                      '<w:r><w:t>.</w:t></w:r></w:p>')
    text = _all_text(book)
    assert "Ice holds a skater at five inches (Marsh, 1911), as the club was told by Tobin Reed." in text
    assert "CITATION" not in text and "MERGEFORMAT" not in text


def test_docx_comments_are_not_read(tmp_path):
    # A comment is anchored in the text (commentRangeStart/End, commentReference) and kept in its own part.
    import docx

    doc = docx.Document()
    para = doc.add_paragraph("The lanterns are lit at dusk by the oldest member.")
    doc.add_comment(para.runs, text="Ask who lights them when she is away.", author="Editor")
    path = tmp_path / "commented.docx"
    doc.save(path)
    text = _all_text(load_book(path))
    assert "The lanterns are lit at dusk by the oldest member." in text
    assert "Ask who lights them" not in text


def test_odt_list_items_are_text_and_fields_read_as_they_show(tmp_path):
    # Items of a numbered list (text:list, nested too) are text of the chapter they stand in; a field
    # (author, date, a citation mark) is read as the text it shows.
    book = _odt(tmp_path,
                '<text:h text:outline-level="1">Rule One</text:h>'
                '<text:p>Skaters keep to these lanes, as <text:author-name>Tobin Reed</text:author-name> wrote on '
                '<text:date text:date-value="1911-01-04">4 January 1911</text:date> '
                '<text:bibliography-mark text:identifier="Mar11" text:bibliography-type="book" text:author="Marsh" '
                'text:year="1911">[Mar11]</text:bibliography-mark>.</text:p>'
                '<text:list><text:list-item><text:p>The north lane is for racing.</text:p>'
                '<text:list><text:list-item><text:p>Racers skate one way only.</text:p></text:list-item></text:list>'
                '</text:list-item><text:list-item><text:p>The south lane is for learners.</text:p></text:list-item>'
                '</text:list>'
                '<text:h text:outline-level="1">Rule Two</text:h><text:p>No skater goes past the willow.</text:p>')
    assert [c.title for c in book.chapters] == ["Rule One", "Rule Two"]
    text = " ".join(book.chapters[0].paragraphs)
    assert "as Tobin Reed wrote on 4 January 1911 [Mar11]." in text
    assert "Racers skate one way only." in text and "The south lane is for learners." in text
