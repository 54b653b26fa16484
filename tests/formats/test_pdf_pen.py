"""PostScript typesetters' PDFs (groff through Ghostscript's ps2pdf): words spaced by the pen, FitH bookmarks,
a converter's picture placeholders (invented text, PDFs written by hand as Ghostscript writes them)."""
from __future__ import annotations

from app.book import load_book
from tests.formats.pdfobjects import write_pdf
from tests.formats.test_pdf_words import _one_page_text


def _pdf(path, pages: list[bytes], outline=()):
    """Write a PDF of pages given as content streams (Times-Roman as /F1, Times-Italic as /F2) and an outline
    of (title, page, y from the page's top) entries with FitH destinations, as Ghostscript writes pdfmarks."""
    n = len(pages)
    page_ids = [5 + 2 * i for i in range(n)]
    root = 5 + 2 * n
    objs = [b"<< /Type /Catalog /Pages 2 0 R%s >>" % (b" /Outlines %d 0 R" % root if outline else b""),
            b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % i for i in page_ids), n),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Italic >>"]
    for i, ops in enumerate(pages):
        objs.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R "
                    b"/F2 4 0 R >> >> /Contents %d 0 R >>" % (page_ids[i] + 1))
        objs.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(ops), ops))
    if outline:
        objs.append(b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>"
                    % (root + 1, root + len(outline), len(outline)))
        for k, (title, target, top) in enumerate(outline):
            near = (b" /Prev %d 0 R" % (root + k) if k else b"") + (
                b" /Next %d 0 R" % (root + k + 2) if k + 1 < len(outline) else b"")
            objs.append(b"<< /Title (%s) /Parent %d 0 R%s /Dest [%d 0 R /FitH %d] >>"
                        % (title.encode("latin-1"), root, near, page_ids[target], 792 - top))
    return write_pdf(path, objs)


def _lines(lines: list[str], top: int = 100, font: bytes = b"/F1") -> bytes:
    return b"".join(b"BT %s 11 Tf 72 %d Td %s Tj ET\n" % (font, 792 - top - 14 * k, t.encode("latin-1"))
                    for k, t in enumerate(lines))


def _text(path) -> str:
    return " ".join(p for c in load_book(path).chapters for p in c.paragraphs)


def test_word_spaces_made_by_character_spacing_part_the_words(tmp_path):
    # Ghostscript sets a justified line in pieces: a word's last letter and the next word's first as one
    # string drawn with character spacing ("(eh) Tj" at 2.9 Tc is "e", a word space's gap, "h"), no space
    # character between them. The words are two; inside a word the letters abut and stay one word.
    line = (b"0 Tc (The lamp was lit befor) Tj 2.9 Tc (eh) Tj 0 Tc [263.6 (e came up the stair and th) ] TJ"
            b" 2.9 Tc (eb) Tj 0 Tc [263.6 (annister shook under his hand.) ] TJ")
    rest = ["(He set the lamp down by the window and looked out over the dark water of the bay.)"]
    text = _text(_pdf(tmp_path / "stair.pdf", [b"BT /F1 11 Tf 72 692 Td " + line + b" ET\n" + _lines(rest, 114)]))
    assert "The lamp was lit before he came up the stair and the bannister shook under his hand." in text, text


def test_letters_spaced_alike_are_one_word(tmp_path):
    # A heading set letter-spaced ("W I N T E R" by character spacing) has the same gap after every letter:
    # it is no word space, and the word is read whole.
    page = b"BT /F1 11 Tf 72 692 Td 3 Tc (WINTER) Tj ET\n" + _lines(
        ["(The snow came early that year and the road over the hill was closed for a month.)"], 114)
    text = _text(_pdf(tmp_path / "winter.pdf", [page]))
    assert "W I N T E R" not in text and "WI NTER" not in text, text


def test_a_space_the_pen_backs_over_is_no_word_space(tmp_path):
    # groff's italic word through Ghostscript: "To", a space, then the pen moves back over the space and
    # "wer" follows the "o" where it ended. The word is one ("Tower"); a space that takes its room stays.
    line = b"/F2 11 Tf (the ) Tj (To ) Tj [250 (wer and the gate were there) ] TJ"
    rest = ["(in the clear pool below the mill, where the old man fished on every summer evening.)"]
    text = _text(_pdf(tmp_path / "pool.pdf", [b"BT 72 692 Td " + line + b" ET\n" + _lines(rest, 114)]))
    assert "the Tower and the gate were there in the clear pool" in text, text


_TALE = ["(The ferry crossed twice a day in the summer and once in the winter, when the ice)",
         "(allowed it, and the ferryman kept a lamp burning in the window of his house.)"]
_NOTES = ["(The ferry stopped running in the year the bridge was built, and the house is now)",
          "(a museum where the lamp still stands in the window on the long winter nights.)"]


def test_a_fith_bookmark_starts_its_chapter_at_its_place_on_the_page(tmp_path):
    # groff's bookmarks (pdfmark through Ghostscript) are FitH destinations: a top and no left. A chapter
    # whose heading is not printed as the outline names it starts at that top, not at the page's top, so
    # the end of the chapter before, above it on the page, stays in that chapter.
    page1 = _lines(["(The Crossing)"], 80) + _lines(_TALE * 3, 110)
    page2 = _lines(_TALE * 2, 80) + _lines(["(After the Bridge)"], 250) + _lines(_NOTES, 280)
    path = _pdf(tmp_path / "ferry.pdf", [page1, page2], [("The Crossing", 0, 70), ("Afterword", 1, 240)])
    chapters = {c.title: " ".join(c.paragraphs) for c in load_book(path).chapters}
    assert chapters["The Crossing"].count("the ferryman kept a lamp") == 5, chapters
    assert "ferryman" not in chapters["Afterword"] and "museum where the lamp" in chapters["Afterword"], chapters


def test_a_pictures_placeholder_is_not_read(tmp_path):
    # pandoc's ms writer prints a picture it cannot place as "[IMAGE: alt text]", alone or after a heading.
    text = _one_page_text(tmp_path / "plates.pdf", [
        "The first plate shows the mill as it stood before the flood, its wheel turning in the race.",
        "[IMAGE: The mill wheel.]",
        "The second shows the same mill ten years on, rebuilt in stone by the miller's sons [IMAGE: sons]."])
    assert "IMAGE" not in text and "wheel." not in text, text
    assert "turning in the race. The second shows the same mill" in text and "the miller's sons." in text, text
