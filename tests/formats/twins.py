"""Real files for the readers of other formats, and a score of two readings of one book.

- `sample(name)`: a small real file of ../shared/corpus/formats (its README names the sources), read in place.
- `debian_file(package, path)`: a file of a Debian package, fetched once into the real-books cache,
  never committed: tests/books/corpus.py's own function (apt-get download + dpkg-deb -x, its lock).
- `pandoc_twin(epub, fmt)`: the EPUB converted by Debian's pandoc, cached beside the packages.
- `chapter_errors(a, b)`: the word error of each chapter of reading `a` against the same chapter of `b`,
  with the words of tests/books/corpus.py and jiwer's word-level edit distance (C, fast on long chapters).
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import jiwer
import pytest

from tests.books.corpus import CACHE, debian_file, title_key, words

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT.parent / "shared" / "corpus" / "formats"
STANDARD_EBOOKS = ROOT.parent / "shared" / "corpus" / "literature" / "standard-ebooks"
__all__ = ["CACHE", "STANDARD_EBOOKS", "chapter_errors", "debian_file", "pandoc_twin", "sample", "spoken_words"]


def sample(name: str) -> Path:
    path = SAMPLES / name
    if not path.is_file():
        pytest.skip(f"the shared corpus is not beside the checkout ({SAMPLES})")
    return path


def pandoc_twin(epub: Path, fmt: str) -> Path:
    """Return the EPUB converted to fmt (docx, odt, fb2) by Debian's pandoc, made once."""
    if not shutil.which("pandoc"):
        pytest.skip("the DOCX/ODT/FB2 twins are made with Debian's pandoc (scripts/system-deps.sh)")
    out = CACHE / "twins" / f"{epub.stem}.{fmt}"
    if not out.is_file():
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + ".part")
        subprocess.run(["pandoc", "-f", "epub", "-t", fmt, str(epub), "-o", str(tmp)], check=True,
                       capture_output=True, timeout=300)
        tmp.replace(out)
    return out


def spoken_words(chapter) -> str:
    return " ".join(words(" ".join(chapter.paragraphs)))


def matching(title: str, chapters) -> object | None:
    """Return the chapter titled like `title`, numbering aside, or titled by its part before ': '."""
    keys = (title_key(title), title_key(title.split(":")[0]))
    return next((c for c in chapters if title_key(c.title) in keys or title_key(c.title.split(":")[0]) in keys),
                None)


def chapter_errors(reading, reference) -> list[tuple[str, float | None]]:
    """Return (reference chapter title, word error of the reading's same chapter or None when absent)."""
    out: list[tuple[str, float | None]] = []
    for ref in reference.chapters:
        got = matching(ref.title, reading.chapters)
        if got is None:
            out.append((ref.title, None))
            continue
        out.append((ref.title, jiwer.wer(spoken_words(ref) or "empty", spoken_words(got) or "nothing")))
    return out
