"""The book's metadata, read from every kind of input: a calibre EPUB with a series, EPUB 3 collections,
Standard Ebooks and Project Gutenberg books read in place, Markdown front matter, an EPUB that says nothing.

What each book says is read here independently of the app (zipfile, regular expressions), so the
app's reading cannot agree with itself.
"""
from __future__ import annotations

import re
import zipfile

import pytest

from app.book import load_book
from app.core.errors import InputError
from app.options import with_book_details

from .books import CALIBRE_METADATA, CHAPTERS, CORPUS, make_epub

SE = CORPUS / "standard-ebooks"
GUTENBERG = CORPUS / "gutenberg"


def _corpus(path):
    if not path.exists():
        pytest.skip(f"the literature corpus is not at {CORPUS} (see ../shared/corpus/README.md)")
    return path


def test_a_calibre_epub_gives_its_series_people_year_subjects_and_isbn(tmp_path):
    book = load_book(make_epub(tmp_path / "dragon.epub", CALIBRE_METADATA, chapters=CHAPTERS))
    m = book.meta
    assert (book.title, book.author) == ("The Dragon Road", "Mara Quill")
    assert [(p.name, p.sort_name) for p in m.authors] == [("Mara Quill", "Quill, Mara")]
    assert [p.name for p in m.translators] == ["Ben Ross"]  # a translator, not an author
    assert (m.series, m.series_index) == ("Tales of the Road", "2")  # calibre's "2.0"
    assert m.year == "1987" and m.title_sort == "Dragon Road, The"
    assert m.isbn == "9780306406157" and ("ISBN", "9780306406157") in m.identifiers
    assert m.subjects == ("Fantasy", "Adventure") and m.publisher == "Harbour Press"
    # calibre stores the description as escaped HTML: it is plain text, its paragraphs kept.
    assert m.description == "A road, a dragon and a map.\n\nThe second of the tales."
    assert m.rights == "Copyright 1987 Mara Quill" and m.language == "en"


@pytest.mark.parametrize("kind, series", [("series", ("The Long Walk", "3")), ("", ("The Long Walk", "3")),
                                          ("set", ("", ""))])
def test_epub3_collections_are_a_series_unless_they_are_a_set(tmp_path, kind, series):
    typed = f'<meta property="collection-type" refines="#c1">{kind}</meta>' if kind else ""
    metadata = ('<dc:title id="t">Walking</dc:title><dc:creator id="a">Jo Park</dc:creator>'
                '<meta property="role" refines="#a" scheme="marc:relators">aut</meta>'
                '<meta property="file-as" refines="#a">Park, Jo</meta>'
                '<dc:title id="s">On Foot Again</dc:title><meta property="title-type" refines="#s">subtitle</meta>'
                '<meta property="title-type" refines="#t">main</meta>'
                f'<meta id="c1" property="belongs-to-collection">The Long Walk</meta>{typed}'
                '<meta property="group-position" refines="#c1">3</meta>'
                '<dc:date>2019-06-01T09:00:00Z</dc:date><meta property="dcterms:modified">2019-06-01T09:00:00Z</meta>')
    book = load_book(make_epub(tmp_path / "walk.epub", metadata, chapters=CHAPTERS, version="3.0"))
    assert (book.meta.series, book.meta.series_index) == series
    assert book.meta.subtitle == "On Foot Again" and book.meta.authors[0].sort_name == "Park, Jo"
    # That dc:date is the file's own modification instant: it dates the ebook, not the work.
    assert book.meta.year == ""


def test_an_epub_without_metadata_has_empty_metadata_and_the_usual_fallbacks(tmp_path):
    book = load_book(make_epub(tmp_path / "bare-book.epub", "", chapters=CHAPTERS))
    assert book.author == "Unknown" and book.title  # from its first heading or file name
    m = book.meta
    assert (m.series, m.year, m.publisher, m.description, m.isbn, m.subjects, m.authors) == ("", "", "", "", "", (), ())


def test_a_standard_ebooks_epub_gives_the_works_year_not_the_ebooks(tmp_path):
    path = _corpus(SE / "charles-dickens_a-christmas-carol.epub")
    with zipfile.ZipFile(path) as zf:
        opf = zf.read(next(n for n in zf.namelist() if n.endswith(".opf"))).decode()
        colophon = zf.read(next(n for n in zf.namelist() if n.endswith("colophon.xhtml"))).decode()
    ebook_year = re.search(r"<dc:date>(\d{4})", opf).group(1)
    work_year = re.search(r"was published in <time>(\d{4})</time>", colophon).group(1)
    assert ebook_year != work_year
    book = load_book(path)
    m = book.meta
    assert m.year == work_year
    assert m.publisher == re.search(r"<dc:publisher[^>]*>([^<]+)<", opf).group(1)
    assert m.language == re.search(r"<dc:language>([^<]+)<", opf).group(1)
    assert m.url == re.search(r'<dc:identifier id="uid">([^<]+)<', opf).group(1)
    assert m.authors[0].sort_name == re.search(r'property="file-as" refines="#author">([^<]+)<', opf).group(1)
    assert m.title_sort == re.search(r'property="file-as" refines="#title">([^<]+)<', opf).group(1)
    assert m.genres == tuple(re.findall(r'property="se:subject">([^<]+)<', opf))
    assert set(m.subjects) == set(re.findall(r"<dc:subject[^>]*>([^<]+)<", opf))
    assert m.description == re.search(r'<dc:description id="description">([^<]+)<', opf).group(1)
    assert "first edition, published on 19th December" in m.long_description and "<p>" not in m.long_description


def test_standard_ebooks_reading_lists_are_not_series_and_editors_are_named():
    book = load_book(_corpus(SE / "jane-austen_pride-and-prejudice.epub"))
    assert book.meta.series == ""  # "The BBC's 100 Greatest British Novels" is a set, not a series
    assert "R. W. Chapman" in [p.name for p in book.meta.editors] and book.meta.year == "1813"
    subtitled = load_book(_corpus(SE / "archibald-alexander_a-day-at-a-time.epub"))
    assert subtitled.meta.subtitle == "And Other Talks on Life and Religion"


@pytest.mark.parametrize("name", ["little-colonels-hero.txt", "little-colonels-hero.html", "log-school-house.txt"])
def test_a_gutenberg_book_gives_its_author_language_ebook_page_and_the_works_year(name):
    path = _corpus(GUTENBERG / name)
    raw = path.read_bytes().decode("latin-1")
    number = re.search(r"\[ebook #(\d+)\]", raw, re.I).group(1)
    author = re.search(r"Author: ([^\r\n<]+)", raw).group(1).strip()
    front = raw[re.search(r"\*\*\* ?START OF", raw).end():][:6000]
    year = re.search(r"Copyright, (\d{4})|^\s*(\d{4})\s*$", front, re.M)
    book = load_book(path)
    m = book.meta
    assert [p.name for p in m.authors] == [author] and book.author == author
    assert m.url == f"https://www.gutenberg.org/ebooks/{number}" and m.language == "en"
    # The title page's year, never the Gutenberg release date's.
    release = re.search(r"Release Date: [^\[]*?(\d{4})", raw).group(1)
    assert m.year == (year.group(1) or year.group(2)) and m.year != release


def test_markdown_front_matter_gives_pandocs_metadata(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("---\ntitle: Field Notes\nsubtitle: A Year Outside\nauthor: [Ana Lima, Rui Dias]\n"
                    "series: Seasons\nseries-index: 4\ndate: 2003-05-01\nlang: pt-BR\npublisher: Casa\n"
                    "subject: [Nature, Essays]\ndescription: Walks and birds.\nisbn: 0-306-40615-2\n---\n\n"
                    "# One\n\nThe first walk.\n\n# Two\n\nThe second walk.\n", encoding="utf-8")
    m = load_book(path).meta
    assert [p.name for p in m.authors] == ["Ana Lima", "Rui Dias"] and m.subtitle == "A Year Outside"
    assert (m.series, m.series_index, m.year, m.language) == ("Seasons", "4", "2003", "pt-BR")
    assert (m.publisher, m.subjects, m.description, m.isbn) == ("Casa", ("Nature", "Essays"), "Walks and birds.",
                                                                 "0306406152")


def test_the_options_fill_what_the_book_lacks_and_refuse_what_is_not_a_value(tmp_path):
    book = load_book(make_epub(tmp_path / "bare.epub", "", chapters=CHAPTERS))
    given = with_book_details(book, series="Tales", series_index="07", narrator="  Kim  Lee ", year="1901")
    assert (given.meta.series, given.meta.series_index, given.meta.narrator, given.meta.year) == \
        ("Tales", "7", "Kim Lee", "1901")
    for kwargs in ({"series_index": "two", "series": "Tales"}, {"series_index": "2"}, {"year": "190x"},
                   {"year": "0"}, {"narrator": " "}, {"series": ""}):
        with pytest.raises(InputError):
            with_book_details(book, **kwargs)


def test_the_narrator_is_the_voice_that_reads_unless_the_user_names_one(tmp_path):
    from app.backends.base import BackendOptions, VoiceOptions
    from app.options import voice_narrator

    assert voice_narrator("piper", "en_US-joe-medium", BackendOptions()) == "en_US-joe-medium (Piper)"
    server = BackendOptions(model="moss_tts_local", voice=VoiceOptions(voice="alice"))
    assert voice_narrator("sglomni", "sglomni", server) == "alice (moss_tts_local)"
    clone = BackendOptions(model="fish_s2_pro", voice=VoiceOptions(clone=tmp_path / "grandpa.wav"))
    assert voice_narrator("sglomni", "sglomni", clone) == "grandpa (fish_s2_pro)"
    assert voice_narrator("sglomni", "sglomni", BackendOptions()) == "sglomni"


def test_html_meta_tags_give_description_subjects_publisher_year_and_language(tmp_path):
    path = tmp_path / "guide.html"
    path.write_text('<!DOCTYPE html><html lang="de-AT"><head><title>Der Weg</title>'
                    '<meta name="author" content="Eva Berg">'
                    '<meta name="description" content="Ein Weg &amp; ein Ziel.">'
                    '<meta name="keywords" content="Wandern, Alpen">'
                    '<meta name="DC.publisher" content="Bergverlag"><meta name="DC.date" content="1958-04-02">'
                    '<meta name="DC.identifier" content="urn:isbn:9780306406157"></head>'
                    "<body><h1>Der Weg</h1><h2>Eins</h2><p>Erster Tag.</p><h2>Zwei</h2><p>Zweiter Tag.</p>"
                    "</body></html>", encoding="utf-8")
    book = load_book(path)
    m = book.meta
    assert (m.description, m.subjects, m.publisher, m.year) == ("Ein Weg & ein Ziel.", ("Wandern", "Alpen"),
                                                                "Bergverlag", "1958")
    assert (m.language, m.isbn, [p.name for p in m.authors]) == ("de-AT", "9780306406157", ["Eva Berg"])


@pytest.mark.parametrize("dates, year", [
    ('<dc:date>0101-01-01T00:00:00+00:00</dc:date>', ""),  # calibre's "no date"
    ('<dc:date opf:event="modification">2011-02-03</dc:date>', ""),
    ('<dc:date opf:event="publication">2011-02-03</dc:date>'
     '<dc:date opf:event="original-publication">1851</dc:date>', "1851"),
    ('<dc:date>1965</dc:date>', "1965"),
])
def test_the_year_is_the_works_never_a_modification_or_no_date(tmp_path, dates, year):
    metadata = re.sub(r"<dc:date>[^<]*</dc:date>", dates, CALIBRE_METADATA)
    assert load_book(make_epub(tmp_path / "d.epub", metadata, chapters=CHAPTERS)).meta.year == year


def test_title_and_author_options_replace_what_the_tags_sort_by(tmp_path):
    path = make_epub(tmp_path / "dragon.epub", CALIBRE_METADATA, chapters=CHAPTERS)
    book = load_book(path, title="Roads", author="Ann Other & Bo Dee")
    assert book.meta.title_sort == "" and [p.name for p in book.meta.authors] == ["Ann Other", "Bo Dee"]
    assert book.meta.series == "Tales of the Road"  # what the options do not name stays the book's
