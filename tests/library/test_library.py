"""`--library DIR`: real conversions (the CLI, Piper's real voice) filed the way Audiobookshelf scans a library.

Audiobookshelf's documented conventions, which these tests hold the folder to:
- https://www.audiobookshelf.org/docs#book-directory-structure: a book is a folder,
  `{Author}/{Series}/{Book}` or `{Author}/{Book}`;
- https://www.audiobookshelf.org/docs#book-title-folder: the series sequence may start the title
  folder, "followed by ' - '" ("1 - Wizards First Rule");
- https://www.audiobookshelf.org/docs#book-additional-metadata: `desc.txt` is the description,
  `reader.txt` the narrator, an `.opf` file is parsed (title, author, narrator, publishYear, publisher,
  isbn, description, genres, language, series, volumeNumber); a cover image beside the audio
  (https://www.audiobookshelf.org/docs#book-audio-metadata: embedded art is used only when the folder has none).
(The pages' source: github.com/audiobookshelf/audiobookshelf-web, components/docs/book/*.vue.)
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from app.book import load_book
from app.pipeline.outpath import library_path

from .books import CALIBRE_METADATA, CHAPTERS, CORPUS, abs_opf, abs_tag, make_epub, png_cover, probe_tags

FOLDER = Path("Mara Quill") / "Tales of the Road" / "2 - The Dragon Road"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def dragon(tmp_path):
    return make_epub(tmp_path / "dragon.epub", CALIBRE_METADATA, chapters=CHAPTERS, cover=png_cover(tmp_path))


def test_a_calibre_book_in_a_series_is_filed_with_its_sidecars_and_rerun_in_place(run_cli, tmp_path, dragon):
    library = tmp_path / "library"
    first = run_cli(dragon, "--library", library, "--narrator", "Kim Lee")
    assert first.returncode == 0, first.stderr
    folder = library / FOLDER
    m4b = folder / "The Dragon Road.m4b"
    assert first.stdout.strip() == str(m4b)
    assert sorted(p.name for p in folder.iterdir() if p.suffix != ".json") == \
        ["The Dragon Road.m4b", "cover.jpg", "desc.txt", "metadata.opf", "reader.txt"]
    assert (folder / "cover.jpg").read_bytes()[:3] == b"\xff\xd8\xff"  # the EPUB's PNG, filed as a JPEG
    assert (folder / "desc.txt").read_text() == "A road, a dragon and a map.\n\nThe second of the tales.\n"
    assert (folder / "reader.txt").read_text() == "Kim Lee\n"
    opf = abs_opf(folder / "metadata.opf")
    assert opf == {
        "title": "The Dragon Road", "subtitle": None, "authors": ["Mara Quill"], "author_sort": ["Quill, Mara"],
        "narrators": ["Kim Lee"], "publishedYear": "1987", "publisher": "Harbour Press", "isbn": "9780306406157",
        "description": "A road, a dragon and a map.\n\nThe second of the tales.", "genres": ["Fantasy", "Adventure"],
        "language": "en", "series": [("Tales of the Road", "2")]}
    tags = probe_tags(m4b)
    assert (abs_tag(tags, "series"), abs_tag(tags, "series-part"), abs_tag(tags, "composer")) == \
        ("Tales of the Road", "2", "Kim Lee")
    # The same book again: the same folder, its M4B up to date, no second folder.
    before = _sha(m4b)
    again = run_cli(dragon, "--library", library, "--narrator", "Kim Lee")
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == str(m4b) and "up to date" in again.stderr and _sha(m4b) == before
    assert [p.name for p in folder.parent.iterdir()] == [folder.name]
    # The same book with another narrator: its files are replaced in place.
    renamed = run_cli(dragon, "--library", library, "--narrator", "Ana Reyes")
    assert renamed.returncode == 0, renamed.stderr
    assert (folder / "reader.txt").read_text() == "Ana Reyes\n" and abs_tag(probe_tags(m4b), "composer") == "Ana Reyes"
    assert [p.name for p in folder.parent.iterdir()] == [folder.name]


def test_another_book_at_the_same_folder_never_replaces_it(run_cli, tmp_path, dragon):
    library = tmp_path / "library"
    assert run_cli(dragon, "--library", library).returncode == 0
    kept = library / FOLDER / "The Dragon Road.m4b"
    before = _sha(kept)
    # Another edition: the same title, author and series position, another ISBN.
    other = make_epub(tmp_path / "dragon-2nd.epub", CALIBRE_METADATA.replace("978-0-306-40615-7", "0-306-40615-2"),
                      chapters={"The Gate": "A second edition begins here."})
    result = run_cli(other, "--library", library)
    assert result.returncode == 0, result.stderr
    moved = library / FOLDER.parent / f"{FOLDER.name} (dragon-2nd)" / "The Dragon Road.m4b"
    assert result.stdout.strip() == str(moved) and moved.is_file()
    assert "holds another book" in result.stderr and str(moved.parent) in result.stderr
    assert _sha(kept) == before
    assert abs_opf(moved.parent / "metadata.opf")["isbn"] == "0306406152"


def test_a_standard_ebooks_chapter_is_filed_under_its_author_with_the_voice_as_narrator(run_cli, tmp_path):
    book = CORPUS / "standard-ebooks" / "charles-dickens_a-christmas-carol.epub"
    if not book.exists():
        pytest.skip(f"the literature corpus is not at {CORPUS}")
    library = tmp_path / "library"
    result = run_cli(book, "--chapters", "1", "--library", library)
    assert result.returncode == 0, result.stderr
    folder = library / "Charles Dickens" / "A Christmas Carol (chapter 1)"
    m4b = folder / "A Christmas Carol (chapter 1).m4b"
    assert result.stdout.strip() == str(m4b)
    opf = abs_opf(folder / "metadata.opf")
    narrator = (folder / "reader.txt").read_text().strip()
    assert narrator == "en_US-joe-medium (Piper)" and opf["narrators"] == [narrator]
    assert (opf["publishedYear"], opf["publisher"], opf["language"], opf["series"]) == \
        ("1843", "Standard Ebooks", "en-GB", [])
    tags = probe_tags(m4b)
    assert (abs_tag(tags, "composer"), abs_tag(tags, "date"), abs_tag(tags, "genre")) == (narrator, "1843", "Fiction")
    assert "first edition, published on 19th December" in (folder / "desc.txt").read_text()


def test_library_paths_are_safe_names_and_a_book_that_says_nothing_is_filed_under_unknown(tmp_path):
    bare = load_book(make_epub(tmp_path / "CON.epub", "<dc:title>What?: A *Tale* &lt;1/2&gt;</dc:title>",
                               chapters=CHAPTERS))
    path, moved = library_path(tmp_path / "lib", bare)
    assert moved is None
    assert path.relative_to(tmp_path / "lib").parts == ("Unknown", "What A Tale 1 2", "What A Tale 1 2.m4b")
    # No metadata at all: the title is its first heading, a Windows device name here.
    nothing = load_book(make_epub(tmp_path / "plain.epub", "", chapters={"CON": "Text.", "Two": "More."}))
    assert nothing.title == "CON" and nothing.author == "Unknown"
    assert library_path(tmp_path / "lib", nothing)[0].relative_to(tmp_path / "lib").parts == \
        ("Unknown", "CON (book)", "CON (book).m4b")


@pytest.mark.parametrize("extra, says", [(("--output", "x.m4b"), "--library or --output"),
                                         (("--format", "m4b,mp3"), "--library files one M4B"), (("--format", "epub"), "--library files an M4B")])
def test_library_with_an_output_or_mp3_is_one_line_before_any_synthesis(run_cli, tmp_path, dragon, extra, says):
    result = run_cli(dragon, "--library", tmp_path / "lib", *extra)
    assert result.returncode == 2 and says in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "lib").exists()


def test_a_queue_of_two_books_with_one_title_files_two_folders_and_reruns_in_place(run_cli, tmp_path):
    books = []
    for name, text in (("first", "Hello there."), ("second", "Goodbye now.")):
        path = tmp_path / f"{name}.txt"
        path.write_text(f"Title: Same\nAuthor: Al Bee\n\nChapter 1: One\n\n{text}\n", encoding="utf-8")
        books.append(path)
    library = tmp_path / "library"
    result = run_cli(*books, "--library", library)
    assert result.returncode == 0, result.stderr
    want = [library / "Al Bee" / "Same" / "Same.m4b", library / "Al Bee" / "Same (second)" / "Same.m4b"]
    assert result.stdout.split("\n")[:2] == [str(p) for p in want]
    keys = [abs_opf(p.parent / "metadata.opf") for p in want]
    assert all(k["title"] == "Same" and k["authors"] == ["Al Bee"] for k in keys)
    sums = [_sha(p) for p in want]
    again = run_cli(*books, "--library", library)
    assert again.returncode == 0, again.stderr
    assert again.stdout.split("\n")[:2] == [str(p) for p in want] and [_sha(p) for p in want] == sums
    assert sorted(p.name for p in (library / "Al Bee").iterdir()) == ["Same", "Same (second)"]


@pytest.mark.parametrize("planted", ["entities", "dev-zero", "someone-elses-files"])
def test_a_library_folder_that_is_not_ours_is_never_written_into(tmp_path, dragon, planted):
    book = load_book(dragon)
    want, _ = library_path(tmp_path / "lib", book)
    want.parent.mkdir(parents=True)
    opf = want.parent / "metadata.opf"
    if planted == "entities":
        opf.write_text('<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
                       '<package xmlns="http://www.idpf.org/2007/opf"><metadata>&b;</metadata></package>')
    elif planted == "dev-zero":
        opf.symlink_to("/dev/zero")
    else:
        (want.parent / "Chapter 01.mp3").write_bytes(b"ID3")
    path, moved = library_path(tmp_path / "lib", book)
    assert path.parent == want.parent.with_name(f"{want.parent.name} (dragon)") and str(path.parent) in moved
