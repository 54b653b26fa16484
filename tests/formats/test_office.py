"""DOCX, ODT, FB2 and MOBI: twins of an EPUB made by pandoc, pandoc's own edge cases, hostile files."""
from __future__ import annotations

import struct
import zipfile

import pytest

from app.book import load_book
from app.core.errors import CorruptBook, ProtectedBook
from tests.formats.twins import STANDARD_EBOOKS, chapter_errors, debian_file, pandoc_twin, sample


@pytest.fixture(scope="module")
def carol():
    epub = STANDARD_EBOOKS / "charles-dickens_a-christmas-carol.epub"
    if not epub.is_file():
        pytest.skip("the shared corpus is not beside the checkout")
    return epub, load_book(epub)


@pytest.mark.parametrize("fmt", ["docx", "odt"])
def test_a_technical_pandoc_twin_reads_the_chapters_of_its_epub(fmt):
    epub = debian_file("developers-reference", "usr/share/developers-reference/developers-reference.epub")
    reference = load_book(epub)
    twin = load_book(pandoc_twin(epub, fmt))
    errors = chapter_errors(twin, reference)
    # Code blocks are pandoc's "Source Code" / "Preformatted Text" paragraphs: read as code, like <pre>.
    assert all(e is not None and e <= 0.03 for _, e in errors), errors


@pytest.mark.parametrize("fmt", ["docx", "odt", "fb2"])
def test_a_pandoc_twin_reads_the_chapters_of_its_epub(carol, fmt):
    epub, reference = carol
    twin = load_book(pandoc_twin(epub, fmt))
    errors = chapter_errors(twin, reference)
    assert all(e is not None for _, e in errors), errors  # every chapter of the EPUB is there
    assert all(e <= 0.03 for _, e in errors), errors
    assert twin.title == reference.title and twin.author == reference.author


def _all_text(book) -> str:
    return "\n".join(p for c in book.chapters for p in c.paragraphs)


def test_docx_footnotes_and_endnotes_are_read_after_their_paragraph():
    book = load_book(sample("pandoc-docx-notes.docx"))
    paragraphs = [p for c in book.chapters for p in c.paragraphs]
    # As a book's reader reads them: the paragraph, then each note it refers to, in order.
    body = paragraphs.index("Test footnote. Test endnote.")
    assert paragraphs[body + 1:body + 3] == ["My note.", "This is an endnote at the end of the document."]


def test_docx_page_headers_and_footers_are_never_read(tmp_path):
    import docx

    # Written with python-docx: a page header and footer, a German heading style, a body.
    document = docx.Document()
    section = document.sections[0]
    section.header.paragraphs[0].text = "RUNNING HEADER OF EVERY PAGE"
    section.footer.paragraphs[0].text = "Page footer text"
    document.add_heading("Erstes Kapitel", level=1)
    document.add_paragraph("Der Text des ersten Kapitels ist nicht lang, aber er ist da und wird gelesen.")
    document.add_heading("Zweites Kapitel", level=1)
    document.add_paragraph("Auch das zweite Kapitel hat einen Satz, der gelesen wird.")
    path = tmp_path / "kapitel.docx"
    document.save(str(path))
    book = load_book(path)
    assert [c.title for c in book.chapters] == ["Erstes Kapitel", "Zweites Kapitel"]
    text = _all_text(book)
    assert "RUNNING HEADER" not in text and "footer" not in text
    assert book.language == "de"  # no language property: its function words say German


def test_docx_heading_levels_and_localised_list_styles():
    headers = load_book(sample("pandoc-docx-headers.docx"))
    assert headers.chapters[0].title == "A Test of Headers"
    assert "Third level" in _all_text(headers)
    lists = load_book(sample("pandoc-docx-german_styled_lists.docx"))
    assert [p for p in lists.chapters[0].paragraphs][:2] == ["One level of the list.", "Second level of the list."]


def test_docx_tables_row_by_row():
    text = _all_text(load_book(sample("pandoc-docx-tables.docx")))
    assert "Name; Game; Fame; Blame" in text and "Lebron James; Basketball; Very High; Leaving Cleveland" in text


def test_odt_outline_levels_and_notes():
    headers = load_book(sample("pandoc-odt-odt-headers.odt"))
    assert [c.title for c in headers.chapters] == ["A header (Lv 1)", "Back to Level 1"]
    # The footnote is read after the paragraph that refers to it, as a paragraph of its own.
    note = _all_text(load_book(sample("pandoc-odt-odt-footnote.odt")))
    assert note.split("\n") == ["Some text with a footnote.", "Footnote text"]


def test_fb2_notes_out_and_poems_read():
    text = _all_text(load_book(sample("pandoc-fb2-reader-notes.fb2")))
    assert text.split("\n") == ["Note.", "Second note."]
    poem = _all_text(load_book(sample("pandoc-fb2-reader-poem.fb2")))
    assert "Verse" in poem and "More verse" in poem


def test_fb2_in_a_zip_and_in_windows_1251(tmp_path):
    body = ("<FictionBook xmlns='http://www.gribuser.ru/xml/fictionbook/2.0'><description><title-info>"
            "<book-title>Война и мир</book-title><lang>ru</lang></title-info></description><body>"
            "<section><title><p>Глава первая</p></title><p>Ну, князь, Генуя и Лукка стали не больше.</p></section>"
            "<section><title><p>Глава вторая</p></title><p>Анна Павловна кашляла несколько дней.</p></section>"
            "</body></FictionBook>")
    declared = tmp_path / "declared.fb2"
    declared.write_bytes(("<?xml version='1.0' encoding='windows-1251'?>" + body).encode("cp1251"))
    bare = tmp_path / "bare.fb2"
    bare.write_bytes(body.encode("cp1251"))
    zipped = tmp_path / "book.fb2.zip"
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("book.fb2", ("<?xml version='1.0' encoding='windows-1251'?>" + body).encode("cp1251"))
    for path in (declared, bare, zipped):
        book = load_book(path)
        assert book.title == "Война и мир" and book.language == "ru"
        assert [c.title for c in book.chapters] == ["Глава первая", "Глава вторая"]


def test_hostile_files_get_one_line(tmp_path):
    bomb = tmp_path / "bomb.fb2"
    bomb.write_text("<?xml version='1.0'?><!DOCTYPE lolz [<!ENTITY lol 'lol'><!ENTITY lol2 '&lol;&lol;&lol;'>]>"
                    "<FictionBook><body><section><p>&lol2;</p></section></body></FictionBook>")
    with pytest.raises(CorruptBook, match="entities|DTD"):
        load_book(bomb)
    deep = tmp_path / "deep.fb2"
    deep.write_text("<FictionBook><body>" + "<section>" * 50_000 + "<p>Deep.</p>" + "</section>" * 50_000
                    + "</body></FictionBook>")
    assert _all_text(load_book(deep)) == "Deep."
    # A DOCX whose document.xml says it unpacks to 2 GB: refused from the directory, nothing inflated.
    docx = tmp_path / "bomb.docx"
    with zipfile.ZipFile(docx, "w") as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("word/document.xml", "<w:document/>")
    data = bytearray(docx.read_bytes())
    cd = data.rfind(b"PK\x01\x02" + data[data.rfind(b"PK\x01\x02") + 4:data.rfind(b"PK\x01\x02") + 4])
    idx = data.rfind(b"word/document.xml")  # the central directory's name; its size field is 22 bytes before
    struct.pack_into("<I", data, idx - 46 + 24, 2_000_000_000)
    docx.write_bytes(bytes(data))
    assert cd >= 0
    with pytest.raises(CorruptBook, match="zip bomb"):
        load_book(docx)
    fake = tmp_path / "report.docx"
    fake.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)
    with pytest.raises(ProtectedBook, match="password-protected"):
        load_book(fake)


def test_a_password_protected_odt_is_one_line(tmp_path):
    # LibreOffice keeps an encrypted ODT a ZIP; its manifest gives content.xml encryption data.
    real = sample("pandoc-odt-odt-headers.odt")
    locked = tmp_path / "locked.odt"
    with zipfile.ZipFile(real) as src, zipfile.ZipFile(locked, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "META-INF/manifest.xml":
                data = data.replace(b'manifest:full-path="content.xml"/>',
                                    b'manifest:full-path="content.xml"><manifest:encryption-data '
                                    b'manifest:checksum-type="SHA1/1K"/></manifest:file-entry>')
                assert b"encryption-data" in data
            dst.writestr(info, data)
    with pytest.raises(ProtectedBook, match="password-protected"):
        load_book(locked)


def _exth(data: bytes) -> dict[int, bytes]:
    """Return the EXTH records of a MOBI's first record (read here, not with the mobi package)."""
    first = struct.unpack(">I", data[78:82])[0]
    rec = data[first:]
    header_len = struct.unpack(">I", rec[20:24])[0]
    exth = rec[16 + header_len:]
    assert exth[:4] == b"EXTH"
    count = struct.unpack(">I", exth[8:12])[0]
    out, pos = {}, 12
    for _ in range(count):
        kind, size = struct.unpack(">II", exth[pos:pos + 8])
        out.setdefault(kind, exth[pos + 8:pos + size])
        pos += size
    return out


def test_mobi_reads_its_book_and_refuses_drm(tmp_path, run_cli):
    mobi = sample("demo.mobi")
    exth = _exth(mobi.read_bytes())
    book = load_book(mobi)
    first = struct.unpack(">I", mobi.read_bytes()[78:82])[0]
    record = mobi.read_bytes()[first:]
    offset, length = struct.unpack(">II", record[84:92])  # the MOBI header's full name
    name = exth[503] if 503 in exth else record[offset:offset + length]
    assert book.title == name.decode("utf-8")
    assert exth[100].decode("utf-8").split("&")[0].strip().split(",")[0] in book.author
    assert len(book.chapters) >= 10 and book.cover is not None and book.source == mobi
    locked = bytearray(mobi.read_bytes())
    first = struct.unpack(">I", locked[78:82])[0]
    struct.pack_into(">H", locked, first + 12, 2)  # the MOBI header's encryption type: Mobipocket DRM
    (tmp_path / "locked.azw3").write_bytes(bytes(locked))
    result = run_cli(tmp_path / "locked.azw3", "--list-chapters")
    assert result.returncode == 2 and "DRM-protected" in result.stderr
    assert result.stderr.strip().count("\n") == 0 and "AUDIOBOOK_DEBUG" not in result.stderr


def test_a_missing_book_is_one_line_without_the_debug_hint(tmp_path, run_cli):
    result = run_cli(tmp_path / "book.pdf")
    assert result.returncode == 2
    assert result.stderr.strip() == f"error: No such file: {tmp_path / 'book.pdf'}. Check the path and try again."


def test_a_book_read_in_the_guarded_child_keeps_the_path_it_was_given(tmp_path):
    # The reader's child gets an absolute path, not a resolved one: a book behind a symlinked folder
    # keeps the name the user gave it (CI's ../shared may be a link).
    link = tmp_path / "shelf"
    link.symlink_to(sample("demo.mobi").parent, target_is_directory=True)
    book = load_book(link / "demo.mobi")
    assert book.source == link / "demo.mobi"


_TRACKED_BODY = (
    '<w:p><w:r><w:t xml:space="preserve">The miller kept </w:t></w:r>'
    '<w:del w:id="1" w:author="A" w:date="2020-01-01T00:00:00Z"><w:r><w:delText>seven grey</w:delText></w:r></w:del>'
    '<w:ins w:id="2" w:author="A" w:date="2020-01-01T00:00:00Z"><w:r><w:t>three brown</w:t></w:r></w:ins>'
    '<w:r><w:t xml:space="preserve"> geese by the mill pond.</w:t></w:r></w:p>'
    '<w:p><w:moveFrom w:id="3" w:author="A" w:date="2020-01-01T00:00:00Z"><w:r><w:t>Lanterns swung over the '
    'weir.</w:t></w:r></w:moveFrom></w:p>'
    # A deleted paragraph mark: the paragraph joins the next; neither's text is lost.
    '<w:p><w:pPr><w:rPr><w:del w:id="4" w:author="A" w:date="2020-01-01T00:00:00Z"/></w:rPr></w:pPr>'
    '<w:r><w:t>Rain came at dusk</w:t></w:r></w:p>'
    '<w:p><w:r><w:t xml:space="preserve"> and the wheel turned all night.</w:t></w:r>'
    '<w:moveTo w:id="5" w:author="A" w:date="2020-01-01T00:00:00Z"><w:r><w:t xml:space="preserve"> Lanterns swung '
    'over the weir.</w:t></w:r></w:moveTo></w:p>'
    '<w:del w:id="6" w:author="A" w:date="2020-01-01T00:00:00Z"><w:p><w:r><w:delText>A whole paragraph struck '
    'out by the editor.</w:delText></w:r></w:p></w:del>'
)


def test_docx_tracked_changes_are_read_as_accepted(tmp_path):
    import docx

    # Written with python-docx, then its body replaced by Word's tracked-change markup: an insertion
    # over a deletion, a move (its old place w:moveFrom, its new w:moveTo), a deleted paragraph mark.
    path = tmp_path / "tracked.docx"
    docx.Document().save(str(path))
    edited = tmp_path / "edited.docx"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(edited, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "word/document.xml":
                head, _, rest = data.decode().partition("<w:body>")
                data = f"{head}<w:body>{_TRACKED_BODY}{rest[rest.index('<w:sectPr'):]}".encode()
            dst.writestr(info, data)
    text = " ".join(_all_text(load_book(edited)).split())
    assert "three brown geese" in text and "seven" not in text and "grey" not in text
    assert text.count("Lanterns swung over the weir.") == 1, text
    assert "Rain came at dusk" in text and "wheel turned all night" in text
    assert "struck out" not in text


def test_odt_tracked_deletions_are_not_read(tmp_path):
    # LibreOffice's record of changes: the deleted words live in text:tracked-changes, the body holds
    # a text:change mark where they stood; an insertion is the body's own text between its marks.
    real = sample("pandoc-odt-odt-headers.odt")
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" office:version="1.2"><office:body><office:text>'
        '<text:tracked-changes>'
        '<text:changed-region text:id="ct1"><text:deletion><office:change-info><dc:creator>A</dc:creator>'
        '<dc:date>2020-01-01T00:00:00</dc:date></office:change-info><text:p>seven grey</text:p></text:deletion>'
        '</text:changed-region>'
        '<text:changed-region text:id="ct2"><text:insertion><office:change-info><dc:creator>A</dc:creator>'
        '<dc:date>2020-01-01T00:00:00</dc:date></office:change-info></text:insertion></text:changed-region>'
        '</text:tracked-changes>'
        '<text:p>The miller kept <text:change text:change-id="ct1"/><text:change-start text:change-id="ct2"/>'
        'three brown<text:change-end text:change-id="ct2"/> geese by the mill pond.</text:p>'
        '</office:text></office:body></office:document-content>')
    edited = tmp_path / "tracked.odt"
    with zipfile.ZipFile(real) as src, zipfile.ZipFile(edited, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, content.encode() if info.filename == "content.xml" else src.read(info))
    text = " ".join(_all_text(load_book(edited)).split())
    assert "The miller kept three brown geese by the mill pond." in text
    assert "seven" not in text and "grey" not in text
