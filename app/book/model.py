"""A book as plain data: chapters of paragraphs, ready to be chunked."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


#: How a code block is read: a short spoken mention, nothing, or its text.
CODE_CHOICES = ("mention", "skip", "read")


@dataclass(frozen=True)
class ReadOptions:
    """What of a book is read aloud, beyond its narration."""

    #: Keep front and back matter (licence, index, unlisted front pages, text before the first chapter).
    include_matter: bool = False
    #: One of CODE_CHOICES; "mention" says "Code example." where a code block stands.
    code: str = "mention"
    #: Language of the text to read when the book holds several translations (a code like "de").
    language: str | None = None


@dataclass(frozen=True)
class Chapter:
    """One narrated chapter: its title and its paragraphs of plain text."""

    #: 1-based position among the narrated chapters (what --chapters selects).
    index: int
    title: str
    #: Plain text, one entry per paragraph, whitespace normalized, never empty.
    paragraphs: tuple[str, ...]

    @property
    def words(self) -> int:
        return sum(len(p.split()) for p in self.paragraphs)


@dataclass(frozen=True)
class Cover:
    data: bytes
    #: e.g. "image/jpeg", "image/png"
    media_type: str


@dataclass(frozen=True)
class Person:
    """A person the book names: as printed, and as sorted ("Dickens, Charles", EPUB's file-as)."""

    name: str
    #: The sort form; "" when the book gives none (sort_name() then derives one).
    file_as: str = ""

    @property
    def sort_name(self) -> str:
        """Return the file-as name, else "Last, First" made from the name (a single word as it is)."""
        if self.file_as:
            return self.file_as
        parts = self.name.split()
        return f"{parts[-1]}, {' '.join(parts[:-1])}" if len(parts) > 1 else self.name


@dataclass(frozen=True)
class Metadata:
    """What a book says about itself beyond its title and author line: what libraries and players file it by.

    Every field defaults to empty, so a reader fills what its format states and leaves the rest.
    Book.title and Book.author stay the names the run uses everywhere; `authors` are the same
    people one by one with their sort names.
    """

    subtitle: str = ""
    #: The title's sort form ("Christmas Carol, A"); "" when the book gives none.
    title_sort: str = ""
    authors: tuple[Person, ...] = ()
    translators: tuple[Person, ...] = ()
    editors: tuple[Person, ...] = ()
    #: Who reads the audiobook, when the user says (--narrator). Never read from the source: a narrator
    #: an ebook names (a read-along EPUB's media:narrator) did not read this run; empty: the run's
    #: voice, which planning fills in (app/options.py voice_narrator).
    narrator: str = ""
    series: str = ""
    #: Position in the series as written ("2", "1.5"); "" when not numbered.
    series_index: str = ""
    publisher: str = ""
    #: The work's original publication year ("1843"), never the ebook's release or modification date.
    year: str = ""
    #: BCP 47 code as the book states it ("en-GB"); "" when it states none.
    language: str = ""
    #: Subject headings and tags as the book lists them (LCSH, calibre tags, keywords).
    subjects: tuple[str, ...] = ()
    #: Genre-like subjects (Standard Ebooks' se:subject); empty: derived from `subjects`.
    genres: tuple[str, ...] = ()
    #: Plain text: a short blurb; `long_description` the full one when the book has both.
    description: str = ""
    long_description: str = ""
    isbn: str = ""
    #: The book's home page or its identifier when that is a URL.
    url: str = ""
    #: Every identifier as (scheme, value), e.g. ("ISBN", "9780141439600"), ("URL", "https://...").
    identifiers: tuple[tuple[str, str], ...] = ()
    rights: str = ""


@dataclass(frozen=True)
class Book:
    title: str
    author: str
    chapters: tuple[Chapter, ...]
    source: Path
    language: str = "en"
    cover: Cover | None = field(default=None, repr=False)
    #: The book's own pronunciation hints (EPUB 3 PLS, ssml:ph): (word, alias, IPA), "" when absent.
    lexicon: tuple[tuple[str, str, str], ...] = field(default=(), repr=False)
    #: Everything else the book says about itself (app/book/metadata.py fills it for every format).
    meta: Metadata = field(default=Metadata(), repr=False)

    @property
    def words(self) -> int:
        return sum(c.words for c in self.chapters)
