"""Round office21: text boxes, contents fields and ODF fields, on files the tests build (invented text).

The reader's rules (a TOC field's entries are not read; a paragraph's notes come before the text boxes anchored
in it), and the office reference's copy "as printed" (tests/formats/printed.py), which pandoc reads for the twin
tables: what pandoc leaves out of the printed text is put in, a table of contents taken out. The reference's tests
read the copy's XML, not pandoc's output, so they run where pandoc is not installed.
"""
from __future__ import annotations

import zipfile

from lxml import etree

from app.book import load_book
from tests.formats.printed import printed_copy
from tests.formats.test_office_fields import _ODT_HEAD, _ODT_TAIL, _all_text, _note_docx, _with_content

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W = f"{{{W_NS}}}"
_TEXT_NS = ('xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
            'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
            'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" ')
_HEAD = _ODT_HEAD.replace("office:version=", _TEXT_NS + "office:version=")
#: A DrawingML text box (Word 2010's wps shape) with a VML fallback copy of the same text, as Word writes it.
_BOX = ('<w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">'
        '<mc:Choice Requires="wps"><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/'
        'wordprocessingDrawing"><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
        '<a:graphicData><wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
        '<wps:txbx><w:txbxContent><w:p><w:r><w:t>{box}</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp>'
        '</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape '
        'xmlns:v="urn:schemas-microsoft-com:vml"><v:textbox><w:txbxContent><w:p><w:r><w:t>{box}</w:t></w:r></w:p>'
        '</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>')
#: A TOC field whose result is Word's note for an empty list of figures, set in Normal style.
_TOC = ('<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \\h \\z \\c '
        '"Figure" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>No table of figures '
        'entries found.</w:t></w:r></w:p><w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>')


def _docx(tmp_path, body_xml: str):
    import docx
    from docx.oxml import parse_xml

    doc = docx.Document()
    doc.add_paragraph("The ferry left the north bank at dawn with six carts aboard.")
    for el in parse_xml(f'<w:body xmlns:w="{W_NS}">{body_xml}</w:body>'):
        doc.element.body[-1].addprevious(el)
    path = tmp_path / "made.docx"
    doc.save(path)
    return path


def _printed_xml(path):
    out, tmp = printed_copy(path)
    try:
        with zipfile.ZipFile(out) as zf:
            name = "word/document.xml" if "word/document.xml" in zf.namelist() else "content.xml"
            return etree.fromstring(zf.read(name)), out != path
    finally:
        if tmp is not None:
            tmp.cleanup()


def _paragraph_texts(root, tag: str) -> list[str]:
    return ["".join(p.itertext()) for p in root.iter(tag)]


# ------------------------------------------------------------------------------------------------ the reader

def test_docx_a_contents_fields_entries_are_not_read_whatever_their_style(tmp_path):
    # Word's TOC field (a contents, a list of figures) holds its entries as the field's result; an empty list
    # of figures shows a note in Normal style. Neither is the document's text; what follows the field is.
    path = _docx(tmp_path, '<w:p><w:r><w:t>Figures</w:t></w:r></w:p>' + _TOC
                 + '<w:p><w:r><w:t>The carts were weighed on the landing.</w:t></w:r></w:p>')
    text = _all_text(load_book(path))
    assert "No table of figures entries found" not in text
    assert "The carts were weighed on the landing." in text and "six carts aboard" in text


def test_docx_a_contents_field_that_never_ends_does_not_silence_the_document(tmp_path):
    # A broken file opens a TOC field and never writes its end: what follows is still the document's text.
    unended = _TOC.replace('<w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>', '')
    path = _docx(tmp_path, unended + '<w:p><w:r><w:t>The carts were weighed on the landing.</w:t></w:r></w:p>')
    text = _all_text(load_book(path))
    assert "The carts were weighed on the landing." in text and "six carts aboard" in text


def test_docx_a_paragraphs_notes_come_before_the_text_box_anchored_in_it(tmp_path):
    ref = '<w:r><w:footnoteReference w:id="1"/></w:r>'
    text = _note_docx(tmp_path, f'<w:r><w:t>They skated on the pond</w:t></w:r>{ref}'
                                + _BOX.format(box="Lantern hours are posted at the gate.")
                                + '<w:r><w:t xml:space="preserve"> all winter.</w:t></w:r>')
    assert "They skated on the pond all winter." in text
    assert text.index("all winter.") < text.index("The pond froze") < text.index("Lantern hours")
    assert text.count("Lantern hours") == 1  # the VML fallback is the same box


def test_odt_a_paragraphs_notes_come_before_the_text_box_anchored_in_it(tmp_path):
    box = ('<draw:frame text:anchor-type="char"><draw:text-box><text:p>Lantern hours are posted at the gate.'
           '</text:p></draw:text-box></draw:frame>')
    note = ('<text:note text:id="n1" text:note-class="footnote"><text:note-citation>1</text:note-citation>'
            '<text:note-body><text:p>The pond froze that winter.</text:p></text:note-body></text:note>')
    book = load_book(_with_content(_HEAD + f'<text:p>They skated {box}on the pond{note} all winter.</text:p>'
                                   '<text:p>The geese stayed in the barn until spring came back.</text:p>'
                                   + _ODT_TAIL, tmp_path / "made.odt"))
    text = _all_text(book)
    assert "They skated on the pond all winter." in text
    assert text.index("all winter.") < text.index("The pond froze") < text.index("Lantern hours") \
        < text.index("The geese")


# ------------------------------------------------------------------------------- the reference, as printed

def test_printed_copy_of_a_docx_puts_a_text_box_after_its_paragraph_in_order(tmp_path):
    path = _docx(tmp_path, '<w:p><w:r><w:t xml:space="preserve">The ferry </w:t></w:r>'
                 + _BOX.format(box="First box") + _BOX.format(box="Second box")
                 + '<w:r><w:t>crossed twice.</w:t></w:r></w:p>')
    root, changed = _printed_xml(path)
    texts = _paragraph_texts(root.find(f"{W}body"), f"{W}p")
    assert changed
    i = texts.index("The ferry crossed twice.")
    assert texts[i + 1:i + 3] == ["First box", "Second box"]  # each once: the fallback copy is gone
    assert sum("box" in t for t in texts) == 2


def test_printed_copy_of_a_docx_leaves_a_contents_field_out(tmp_path):
    path = _docx(tmp_path, '<w:p><w:r><w:t>Figures</w:t></w:r></w:p>' + _TOC
                 + '<w:p><w:r><w:t>The carts were weighed.</w:t></w:r></w:p>')
    root, changed = _printed_xml(path)
    texts = _paragraph_texts(root, f"{W}p")
    assert changed and "Figures" in texts and "The carts were weighed." in texts
    assert not any("entries found" in t for t in texts)


def test_printed_copy_of_a_docx_gives_a_table_without_a_grid_its_columns(tmp_path):
    path = _docx(tmp_path, '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Cart</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r>'
                           '<w:t>Fare</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p/>')
    root, changed = _printed_xml(path)
    grid = root.find(f".//{W}tbl/{W}tblGrid")
    assert changed and grid is not None and len(grid) == 2
    assert "Cart; Fare" in _all_text(load_book(path))  # the reader reads the cells straight from the XML


def test_printed_copy_of_a_docx_shows_a_simple_fields_runs(tmp_path):
    path = _docx(tmp_path, '<w:p><w:r><w:t xml:space="preserve">Kept by </w:t></w:r><w:fldSimple w:instr=" DOCPROPERTY '
                           'Company \\* MERGEFORMAT "><w:r><w:t>Ferry Guild</w:t></w:r></w:fldSimple></w:p>')
    root, changed = _printed_xml(path)
    assert changed and not list(root.iter(f"{W}fldSimple"))
    assert "Kept by Ferry Guild" in _paragraph_texts(root, f"{W}p")
    assert "Kept by Ferry Guild" in _all_text(load_book(path))


def test_printed_copy_reads_a_caption_after_its_table_where_it_stands(tmp_path):
    # pandoc takes a Caption paragraph after a table for the table's caption and reads it first; printed, and in
    # the reader, it comes after the rows.
    path = _docx(tmp_path, '<w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc><w:p><w:r><w:t>Cart'
                           '</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p><w:pPr><w:pStyle w:val="Caption"/></w:pPr>'
                           '<w:r><w:t>Fares of the spring</w:t></w:r></w:p>')
    root, changed = _printed_xml(path)
    assert changed and not [s for s in root.iter(f"{W}pStyle") if s.get(f"{W}val") == "Caption"]
    text = _all_text(load_book(path))
    assert text.index("Cart") < text.index("Fares of the spring")


def test_printed_copy_of_a_plain_docx_is_the_file_itself(tmp_path):
    path = _docx(tmp_path, '<w:p><w:r><w:t>Nothing boxed here.</w:t></w:r></w:p>')
    assert printed_copy(path) == (path, None)


def test_printed_copy_of_an_odt_reads_fields_boxes_header_rows_lists_in_cells_and_sections(tmp_path):
    t = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
    body = ('<text:p>Written by <text:author-name>Ada Quill</text:author-name> in '
            '<text:file-name>ledger.odt</text:file-name><text:placeholder>&lt;Name&gt;</text:placeholder>'
            '<text:hidden-text text:is-hidden="true" text:string-value="secret">secret</text:hidden-text>.</text:p>'
            '<text:p>Before <draw:frame><draw:text-box><text:p>A boxed aside.</text:p></draw:text-box></draw:frame>'
            'after.</text:p>'
            '<table:table><table:table-header-rows><table:table-row><table:table-cell><text:p>Cargo</text:p>'
            '</table:table-cell></table:table-row></table:table-header-rows><table:table-row><table:table-cell>'
            '<text:list><text:list-item><text:p>Carts</text:p></text:list-item></text:list></table:table-cell>'
            '</table:table-row></table:table>'
            '<text:section text:name="S1"><text:p>Inside a section.</text:p></text:section>'
            '<text:section text:name="S2" text:display="none"><text:p>Hidden away.</text:p></text:section>'
            '<text:p>Kept out<text:hidden-paragraph text:is-hidden="true"/>.</text:p>')
    path = _with_content(_HEAD + body + _ODT_TAIL, tmp_path / "made.odt")
    root, changed = _printed_xml(path)
    texts = _paragraph_texts(root, f"{t}p")
    assert changed
    assert "Written by Ada Quill in ledger.odt." in texts  # fields as shown; no prompt, no hidden text
    assert texts.index("Before after.") + 1 == texts.index("A boxed aside.")
    assert "Cargo" in texts and "Carts" in texts and "Inside a section." in texts
    assert "Hidden away." not in texts and "Kept out." not in texts
    assert not list(root.iter("{urn:oasis:names:tc:opendocument:xmlns:table:1.0}table-header-rows"))
    # The reader speaks the same text.
    spoken = _all_text(load_book(path))
    for said in ("Written by Ada Quill in ledger.odt.", "A boxed aside.", "Cargo", "Carts", "Inside a section."):
        assert said in spoken
    assert "secret" not in spoken and "Hidden away" not in spoken and "Kept out" not in spoken
