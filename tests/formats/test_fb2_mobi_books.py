"""Whole FB2 and Kindle books' conventions (round office26): what their own table of contents says.

Each test builds its file from invented text and names the convention it shows."""
from __future__ import annotations

from app.book import load_book

_NS = "http://www.gribuser.ru/xml/fictionbook/2.0"


def _words(n: int, word: str = "lantern") -> str:
    return " ".join([f"The {word} swung in the wind over the harbour wall."] * (n // 10))


def _section(title: str, *inner: str) -> str:
    head = f"<title><p>{title}</p></title>" if title else ""
    return f"<section>{head}{''.join(inner)}</section>"


def _fb2(tmp_path, body: str):
    path = tmp_path / "book.fb2"
    path.write_text(f"<?xml version='1.0' encoding='utf-8'?><FictionBook xmlns='{_NS}'><description><title-info>"
                    "<book-title>Harbour Lights</book-title><author><first-name>Ada</first-name>"
                    "<last-name>Quill</last-name></author><lang>en</lang></title-info></description>"
                    f"<body>{body}</body></FictionBook>", encoding="utf-8")
    return load_book(path)


def test_sections_numbered_within_one_long_chapter_stay_its_sections(tmp_path):
    # A book's excerpt: an introduction, one long chapter of numbered sections ("1.1.", "1.2."), a closing note.
    sections = "".join(_section(f"1.{k}. Lesson {k}", f"<p>{_words(400, 'rope')}</p>") for k in range(1, 9))
    book = _fb2(tmp_path, _section("Introduction", f"<p>{_words(200)}</p>")
                + _section("Chapter 1 Selling", f"<p>{_words(40, 'gull')}</p>", sections)
                + _section("End of the excerpt", f"<p>{_words(50, 'tide')}</p>"))
    assert [c.title for c in book.chapters] == ["Introduction", "Chapter 1 Selling", "End of the excerpt"]
    assert any("rope" in p for p in book.chapters[1].paragraphs)


def test_a_typed_contents_of_chapter_lines_is_no_chain_of_titles(tmp_path):
    # calibre's FB2 of a book without headings: one untitled section of paragraphs, the contents typed as lines.
    listing = ["Contents", "Introduction"] + [f"Chapter {n}: Harbour {n}: A Morning" for n in range(1, 6)] + [
        "Epilogue", "Thanks", "for Mara"]
    body = [f"<p>{line}</p>" for line in listing] + ["<p>Introduction</p>"] + [f"<p>{_words(100)}</p>"] * 4 + [
        "<p>Chapter 1</p>", "<p>Harbour 1</p>"] + [f"<p>{_words(100, 'gull')}</p>"] * 6
    book = _fb2(tmp_path, _section("", *body))
    assert [c.title for c in book.chapters] == ["Introduction", "Chapter 1: Harbour 1"]


def test_untitled_sections_opened_by_a_bold_line_are_chapters(tmp_path):
    # calibre's FB2 of an EPUB: one untitled section a file, the chapter's number in bold and its name under it.
    def chapter(n: str, name: str) -> str:
        return _section("", "<empty-line/>", f"<p><strong>{n}</strong></p>", f"<p>{name}</p>",
                        *[f"<p>{_words(100, 'gull')}</p>"] * 4)
    book = _fb2(tmp_path, _section("", "<p><strong>Imprint</strong></p>", f"<p>{_words(40)}</p>")
                + chapter("I", "The Quay") + chapter("II", "A Long Night") + chapter("III", "Home Again"))
    assert [c.title for c in book.chapters][-3:] == ["I: The Quay", "II: A Long Night", "III: Home Again"]


def test_a_bold_line_in_a_book_with_titles_stays_a_paragraph(tmp_path):
    book = _fb2(tmp_path, _section("One", "<p><strong>Warning</strong></p>", f"<p>{_words(200)}</p>")
                + _section("Two", f"<p>{_words(200)}</p>"))
    assert [c.title for c in book.chapters] == ["One", "Two"]
    assert book.chapters[0].paragraphs[1] == "Warning"


# Whole books fetched from GitHub (tests/formats/twin_manifest.toml, group books26; dev half): each skips where the
# file is not in the cache, as on CI, which cannot reach GitHub.
def _fetched(kind: str, repo: str, path: str) -> dict:
    import pytest

    from tests.formats import references as ref

    entry = next(e for e in ref.manifest(kind) if e.get("repo") == repo and e.get("path") == path)
    assert entry["half"] == "dev"
    if ref.office_file(entry) is None:
        pytest.skip(f"{repo} {path} is not in the cache ({ref.OFFICE}): it comes from GitHub (the manifest names "
                    "repo and commit), or is made by Debian's calibre where it is installed")
    return entry


def test_a_kindlegen_book_reads_its_ncx_chapters_with_their_sections_inside():
    from tests.formats.twin_table import score_mobi

    r = score_mobi(_fetched("mobi", "thoughtbot/maybe_haskell", "release/maybe_haskell.mobi"))
    assert r["titles"] == (7, 7) and r["chapters"] == 7, r
    assert r["error"] < 0.01


def test_an_fb2_excerpt_reads_its_top_sections_not_the_numbered_ones():
    from tests.formats.twin_table import score_fb2

    r = score_fb2(_fetched("fb2", "DanikBruh/FB2-books-Reader-WPF", "fb2 books/5.fb2"))
    assert r["titles"] == (3, 3), r


def test_calibres_fb2_reads_a_chapter_for_each_of_its_untitled_sections():
    from tests.formats.twin_table import score_fb2

    r = score_fb2(_fetched("fb2", "calibre", "charlotte-perkins-gilman_herland.fb2"))
    assert r["chapters"] == r["sections"] == 16, r
