"""A PDF's title and author from its title page as Texinfo sets one (GNU-style manuals): every line invented."""
from __future__ import annotations

from app.book import load_book
from tests.formats.test_pdf import _MEADOW, _typed_pdf


def _flush_right(y, size, text):
    return (540 - len(text) * size * 0.5, y, size, text)


def test_a_gnu_style_title_pages_author_under_long_subtitles_is_the_author(tmp_path):
    # The title large at the top; subtitles flush right, two of them long enough to read as sentences;
    # the authors lower down, one a line. The subtitles share no left margin: they are no paragraph, and
    # the first author is read under them.
    title = [(72, 120, 24, "Widget Frobbing"),
             _flush_right(180, 12, "A high level interactive language for frobbing widgets"),
             _flush_right(196, 12, "Edition 4 for Widget Frobbing version 6.1.0"),
             _flush_right(212, 12, "March 2020"),
             _flush_right(400, 14, "Ann Q. Writer"), _flush_right(418, 14, "Bo Maker")]
    body = [(72, 300 + 14 * k, 10, t) for k, t in enumerate(_MEADOW)]
    book = load_book(_typed_pdf(tmp_path / "manual.pdf", [title, body, body, body, body, body, body]))
    assert book.title == "Widget Frobbing" and book.author.startswith("Ann Q. Writer"), (book.title, book.author)


def test_a_paragraph_on_the_first_page_still_ends_the_search_for_an_author(tmp_path):
    # A document's first page: its title, then a paragraph on one left margin; a heading under it is no author.
    page = [(72, 80, 16, "Mill Report"), (72, 110, 11, "This quarterly report describes the state of the mill"),
            (72, 124, 11, "and the weir after the winter floods, with the repairs still to do."),
            (72, 150, 13, "Section With Centred Text"), (72, 170, 11, "The wheel turns again since March.")]
    book = load_book(_typed_pdf(tmp_path / "report.pdf", [page]))
    assert book.author in ("", "Unknown"), book.author


def test_a_title_that_names_its_author_gives_the_author(tmp_path):
    # A Gutenberg-style header: the title large, "..., by Ann Writer" at its end; the header's fields under it
    # ("Language: English") and its marker line are no author, and the author's own field was lost (a scan's
    # OCR read "Author:" apart from a piece of the name).
    page = [(72, 80, 18, "The Mill on the Weir, by Ann"), (72, 104, 18, "Writer"),
            (72, 160, 11, "Author:"), (72, 180, 11, "nn Writer"), (72, 200, 11, "Language: English"),
            (72, 220, 11, "*** START OF THE MILL ON THE WEIR ***")]
    body = [(72, 300 + 14 * k, 10, t) for k, t in enumerate(_MEADOW)]
    book = load_book(_typed_pdf(tmp_path / "mill.pdf", [page, body, body, body, body, body, body]))
    assert book.author == "Ann Writer", (book.title, book.author)


def test_a_title_printed_as_a_web_pages_title_names_the_book_without_its_wrapper(tmp_path):
    # Converters carry an HTML edition's <title> onto the title page (and into the metadata): "The Project
    # Gutenberg eBook of X, by Y" or "X;, by Y." The book is X; Y is its author.
    body = [(72, 300 + 14 * k, 10, t) for k, t in enumerate(_MEADOW)]
    for printed in ("The Project Gutenberg eBook of The Mill on the Weir, by Ann Writer",
                    "The Mill on the Weir;, by Ann Writer."):
        page = [(72, 80, 18, printed), (72, 160, 11, "Language: English")]
        book = load_book(_typed_pdf(tmp_path / "mill.pdf", [page, body, body, body, body, body, body]))
        assert (book.title, book.author) == ("The Mill on the Weir", "Ann Writer"), printed


def test_a_by_in_a_title_stays_unless_it_names_the_author():
    from app.book.formats.pdftitle import book_title

    # Metadata's title and author: the tail goes only when it is the author read.
    assert book_title("The Mill on the Weir, by Ann Writer", "Ann Writer") == ("The Mill on the Weir", "Ann Writer")
    assert book_title("Lanterns, by Night and Day", "Bo Maker") == ("Lanterns, by Night and Day", "Bo Maker")
    assert book_title("Lanterns, by Ann Writer", "Bo Maker") == ("Lanterns, by Ann Writer", "Bo Maker")
    assert book_title("Lantern Notes", "") == ("Lantern Notes", "")


def test_a_line_of_section_names_under_the_title_is_no_author():
    # A manual's first page lists its sections under the title ("Core Documentation", "Module
    # Documentation"): capitalised words, no names.
    from app.book.formats.pdftitle import _is_names

    assert not _is_names("Sections Core Documentation Module Documentation Developer Documentation")
    assert _is_names("Ann Marlowe and Tom Riley")


def test_a_contents_pages_entries_and_an_editions_line_name_no_book_the_written_by_line_names_its_author(tmp_path):
    # The book's name is a picture on its title page (a logo); the page prints only the edition and the author,
    # "Written by ...". The contents page after it sets its part entries larger than the title page's lines:
    # an entry ("I Field Notes 1") is a chapter's name, and the edition's line is none: the file's name stands.
    title = [(200, 300, 16, "Handbook for version 2.1"), (200, 340, 12, "Written by Ann Q. Writer"),
             (200, 360, 10, "2019-2024")]
    contents = [(72, 80, 24, "Contents"), (72, 130, 18, "I Field Notes 1"), (72, 160, 10, "1 Gardens 3"),
                (72, 174, 10, "2 Orchards 9"), (72, 200, 18, "II Tools 15"), (72, 230, 10, "3 Spades 17")]
    body = [(72, 300 + 14 * k, 10, t) for k, t in enumerate(_MEADOW)]
    book = load_book(_typed_pdf(tmp_path / "field_handbook.pdf", [title, contents, body, body, body, body, body]))
    assert "Field Notes" not in book.title and "version" not in book.title, book.title
    assert book.author == "Ann Q. Writer", book.author
    # The same title page set in the text's own size: no title stands out, the "Written by" line still names.
    plain = [(x, y, 10, t) for x, y, _size, t in title]
    book = load_book(_typed_pdf(tmp_path / "field_notes.pdf", [plain, contents, body, body, body, body, body]))
    assert "Field Notes" not in book.title and book.author == "Ann Q. Writer", (book.title, book.author)


def test_an_author_set_beside_the_date_on_one_line_is_the_author(tmp_path):
    # LaTeX's article title block as LinuxDoc sets it: the title large, then the author at the left margin and
    # the revision and date far to the right of the same line, then the abstract on that margin at once.
    page = [(72, 80, 20, "The Weir Keeper's Handbook"),
            (72, 120, 10, "The Weir Keepers Guild Team"), (330, 120, 10, "$Revision: 1.7 $ ($Date: 2002/05/02 $)"),
            (72, 160, 10, "The weir keeper opens the sluices at dawn and closes them again at dusk, and keeps"),
            (72, 174, 10, "a log of the water's height for the miller and the ferryman both.")]
    body = [(72, 300 + 14 * k, 10, t) for k, t in enumerate(_MEADOW)]
    book = load_book(_typed_pdf(tmp_path / "handbook.pdf", [page, body, body, body, body, body, body]))
    assert (book.title, book.author) == ("The Weir Keeper's Handbook", "The Weir Keepers Guild Team")


def test_a_subtitle_opening_with_an_article_is_no_author_the_names_under_it_are(tmp_path):
    # The program's name large, a subtitle ("An Interactive Charting Program") of capitalised words under it,
    # then its authors: the subtitle reads like a line of names but opens with an article.
    page = [(200, 80, 20, "Plotter 5.4"), (180, 110, 14, "An Interactive Charting Program"),
            (190, 136, 12, "Wren Quillby & Bo Maker"), (160, 160, 12, "Version 5.4 organized by: Cy Keeper and many others")]
    body = [(72, 300 + 14 * k, 10, t) for k, t in enumerate(_MEADOW)]
    book = load_book(_typed_pdf(tmp_path / "plotter.pdf", [page, body, body, body, body, body, body]))
    assert book.author == "Wren Quillby & Bo Maker", (book.title, book.author)


def test_a_metadata_author_that_is_the_titles_program_names_no_one():
    from app.book.formats.pdftitle import names_its_program

    assert names_its_program("plotter", "plotter documentation")  # a generator's fill-in: the program's name
    assert names_its_program("Plotter", "The Plotter Manual")
    assert not names_its_program("Wren Quillby", "Wren Quillby's Orchard")  # a person's name: never
    assert not names_its_program("Aristotle", "Poetics") and not names_its_program("", "Poetics")


def test_a_development_team_under_the_title_is_the_author(tmp_path):
    # "The Widget development team": a group's own words in lower case before its noun, as Texinfo manuals set it.
    page = [(72, 80, 20, "Widget"), (300, 100, 11, "The frobbing engine"), (72, 130, 20, "Contributor's Guide"),
            (72, 160, 14, "The Widget development team")]
    body = [(72, 300 + 14 * k, 10, t) for k, t in enumerate(_MEADOW)]
    book = load_book(_typed_pdf(tmp_path / "widget.pdf", [page, body, body, body, body, body, body]))
    assert book.author == "The Widget development team", (book.title, book.author)


def test_a_tables_header_and_rows_under_the_title_are_no_author(tmp_path):
    # A document opening with a table under its title: the header's cells set apart on one line ("Name" over
    # merged cells, "Contact") and the rows below ("First; Last; Email") are capitalised words, no names.
    page = [(72, 80, 16, "Merged Cells in a Table"), (72, 104, 11, "Name"), (300, 104, 11, "Contact"),
            (72, 120, 11, "First"), (160, 120, 11, "Last"), (300, 120, 11, "Email"), (420, 120, 11, "Phone"),
            (72, 136, 11, "Wren"), (160, 136, 11, "Quillby"), (300, 136, 11, "wren@example.org"), (420, 136, 11, "555")]
    book = load_book(_typed_pdf(tmp_path / "table.pdf", [page]))
    assert book.author in ("", "Unknown"), book.author
