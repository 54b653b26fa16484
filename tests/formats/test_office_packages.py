"""Round office23: Word's other packages read as documents, a word processor's bare first heading kept, and the
office reference's copy as printed (tests/formats/printed.py) for grouped text boxes and bidirectional runs.

Every file is built by the test (python-docx, or a zip rewritten in place) with invented text.
"""
from __future__ import annotations

import zipfile

from lxml import etree

from app.book import load_book
from tests.formats.printed import printed_copy
from tests.formats.test_office_fields import _all_text

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W = f"{{{W_NS}}}"
_DOCUMENT = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"


def _saved(tmp_path, name: str, body_xml: str = "", paragraphs=("The ferry left the north bank at dawn.",)):
    import docx
    from docx.oxml import parse_xml

    doc = docx.Document()
    for text in paragraphs:
        doc.add_paragraph(text)
    for el in parse_xml(f'<w:body xmlns:w="{W_NS}">{body_xml}</w:body>'):
        doc.element.body[-1].addprevious(el)
    path = tmp_path / name
    doc.save(path)
    return path


def _with_main_type(path, content_type: str):
    """Rewrite the package's main part content type, as Word saves a template or a macro-enabled document."""
    data = {}
    with zipfile.ZipFile(path) as zf:
        for name in zf.namelist():
            data[name] = zf.read(name)
    data["[Content_Types].xml"] = data["[Content_Types].xml"].replace(_DOCUMENT.encode(), content_type.encode())
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, body in data.items():
            zf.writestr(name, body)
    return path


# ------------------------------------------------------------------------------------------------ the reader

def test_docx_a_word_template_or_macro_enabled_document_is_read_as_a_document(tmp_path):
    # Word writes a template (.dotx) or a macro-enabled file (.docm, .dotm) with the document's own parts under
    # another main content type; renamed .docx, python-docx refused it ("not a Word file") and nothing was read.
    for n, kind in enumerate(("application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
                              "application/vnd.ms-word.document.macroEnabled.main+xml",
                              "application/vnd.ms-word.template.macroEnabledTemplate.main+xml")):
        path = _with_main_type(_saved(tmp_path, f"form{n}.docx", paragraphs=(
            "Fill in the ferry's log before the crossing.", "Name the carts and their loads.")), kind)
        text = _all_text(load_book(path))
        assert "Fill in the ferry's log before the crossing." in text and "Name the carts and their loads." in text


def test_docx_a_bare_first_heading_of_the_outline_is_read_unless_it_repeats_the_title(tmp_path):
    # A journal's form: a title page, then a line Word set at outline level 1 ("Received on: ..."), then the
    # chapters. In a word processor's outline that line is a heading with nothing under it, a chapter of its own;
    # it was dropped as an e-book's half title (the book's title set over its text) and never spoken.
    import docx

    doc = docx.Document()
    doc.core_properties.title = "Notes on River Crossings"
    doc.add_paragraph("A study of ferries on the northern rivers, with tables of carts and tolls by season.")
    doc.add_heading("Received on: the first of May", level=1)
    doc.add_heading("Summary", level=1)
    doc.add_paragraph("Ferries carried more carts in spring than in any other season of the year.")
    doc.add_heading("Tolls", level=1)
    doc.add_paragraph("The toll was two pennies a cart and one for a walker with a pack.")
    doc.save(tmp_path / "journal.docx")
    book = load_book(tmp_path / "journal.docx")
    assert "Received on: the first of May" in _all_text(book)
    assert [c.title for c in book.chapters][-3:] == ["Received on: the first of May", "Summary", "Tolls"]
    # The same place holding the document's own title: that is announced, not read again as a chapter.
    doc = docx.Document()
    doc.core_properties.title = "Notes on River Crossings"
    doc.add_heading("Notes on River Crossings", level=1)
    doc.add_heading("Summary", level=1)
    doc.add_paragraph("Ferries carried more carts in spring than in any other season of the year.")
    doc.add_heading("Tolls", level=1)
    doc.add_paragraph("The toll was two pennies a cart and one for a walker with a pack.")
    doc.save(tmp_path / "titled.docx")
    assert [c.title for c in load_book(tmp_path / "titled.docx").chapters] == ["Summary", "Tolls"]


# ------------------------------------------------------------------------------------- the reference as printed

def _printed(path, part: str = "word/document.xml"):
    out, tmp = printed_copy(path)
    try:
        with zipfile.ZipFile(out) as zf:
            return etree.fromstring(zf.read(part)), out != path
    finally:
        if tmp is not None:
            tmp.cleanup()


#: A VML group of two text boxes in one drawing (an organigram: two boxes joined by a line), as Word 2003-2007 wrote.
_GROUP = ('<w:p><w:r><w:t>The ferry company is run as the chart shows.</w:t></w:r><w:r><w:pict><v:group '
          'xmlns:v="urn:schemas-microsoft-com:vml"><v:rect><v:textbox><w:txbxContent><w:p><w:r><w:t>Harbour master'
          '</w:t></w:r></w:p></w:txbxContent></v:textbox></v:rect><v:oval><v:textbox><w:txbxContent><w:p><w:r><w:t>'
          'Ferry pilots</w:t></w:r></w:p></w:txbxContent></v:textbox></v:oval></v:group></w:pict></w:r></w:p>')


def test_printed_reference_reads_every_box_of_a_group_not_the_first_alone(tmp_path):
    # Each box's paragraphs go after the paragraph anchoring the drawing; the drawing went out with the first
    # box moved, and the group's other boxes with it.
    root, changed = _printed(_saved(tmp_path, "chart.docx", _GROUP))
    texts = ["".join(p.itertext()) for p in root.iter(f"{W}p")]
    assert changed
    i = texts.index("The ferry company is run as the chart shows.")
    assert texts[i + 1:i + 3] == ["Harbour master", "Ferry pilots"]
    assert root.find(f".//{W}pict") is None


def test_printed_reference_reads_a_bidirectional_runs_text_in_the_body_and_the_notes(tmp_path):
    # Word 2010 wraps a run of the other direction (an English title in a right-to-left sentence) in w:dir or w:bdo;
    # pandoc read nothing inside, in the body or in a footnote. The runs stand in the wrapper's place.
    path = _saved(tmp_path, "bidi.docx", '<w:p><w:r><w:t xml:space="preserve">See </w:t></w:r><w:dir w:val="rtl">'
                  '<w:r><w:t>Harbour Rules</w:t></w:r></w:dir><w:bdo w:val="ltr"><w:r><w:t xml:space="preserve"> and '
                  'Tolls</w:t></w:r></w:bdo></w:p>')
    # A footnotes part holding a note written the same way.
    notes = (f'<w:footnotes xmlns:w="{W_NS}"><w:footnote w:id="1"><w:p><w:dir w:val="rtl"><w:r><w:t>Pilots Guild'
             '</w:t></w:r></w:dir></w:p></w:footnote></w:footnotes>')
    data = {}
    with zipfile.ZipFile(path) as zf:
        for name in zf.namelist():
            data[name] = zf.read(name)
    data["word/footnotes.xml"] = notes.encode()
    with zipfile.ZipFile(path, "w") as zf:
        for name, body in data.items():
            zf.writestr(name, body)
    root, changed = _printed(path)
    assert changed and root.find(f".//{W}dir") is None and root.find(f".//{W}bdo") is None
    assert "See Harbour Rules and Tolls" in ["".join(p.itertext()) for p in root.iter(f"{W}p")]
    note_root, _ = _printed(path, "word/footnotes.xml")
    assert note_root.find(f".//{W}dir") is None and "Pilots Guild" in "".join(note_root.itertext())
