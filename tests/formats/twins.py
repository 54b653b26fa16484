"""Real files for the readers of other formats, and a score of two readings of one book.

- `sample(name)`: a small real file of ../shared/corpus/formats (its README names the sources), read in place.
- `debian_file(package, path)`: a file of a Debian package, fetched once with `apt-get download` +
  `dpkg-deb -x` into the real-books cache (tests/books/corpus.py's CACHE and lock), never committed.
- `pandoc_twin(epub, fmt)`: the EPUB converted by Debian's pandoc, cached beside the packages.
- `chapter_errors(a, b)`: the word error of each chapter of reading `a` against the same chapter of `b`,
  with the words of tests/books/corpus.py and jiwer's word-level edit distance (C, fast on long chapters).
"""
from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path

import jiwer
import pytest

from tests.books.corpus import CACHE, FETCH_TIMEOUT, _locked, title_key, words

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT.parent / "shared" / "corpus" / "formats"
STANDARD_EBOOKS = ROOT.parent / "shared" / "corpus" / "literature" / "standard-ebooks"


def sample(name: str) -> Path:
    path = SAMPLES / name
    if not path.is_file():
        pytest.skip(f"the shared corpus is not beside the checkout ({SAMPLES})")
    return path


def debian_file(package: str, path: str) -> Path:
    """Return a file of a Debian package (a .gz one unpacked beside), fetched and unpacked once."""
    root = CACHE / "root"
    src = root / path
    target = src.with_suffix("") if src.suffix == ".gz" else src
    if target.is_file():
        return target
    debs = CACHE / "debs"
    with _locked(CACHE / ".lock"):
        if not src.is_file():
            debs.mkdir(parents=True, exist_ok=True)
            if not list(debs.glob(f"{package}_*.deb")):
                if not shutil.which("apt-get") or not shutil.which("dpkg-deb"):
                    pytest.skip("the Debian twins are fetched with apt-get and dpkg-deb")
                run = subprocess.run(["apt-get", "download", package], cwd=debs, capture_output=True,
                                     text=True, timeout=FETCH_TIMEOUT)
                if run.returncode != 0:
                    raise RuntimeError(f"apt-get download {package} failed (run 'apt-get update'?): "
                                       f"{run.stderr.strip()[-400:]}")
            deb = sorted(debs.glob(f"{package}_*.deb"))[-1]
            subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True, timeout=FETCH_TIMEOUT)
        if src.suffix == ".gz" and not target.is_file():
            with gzip.open(src, "rb") as fin, open(target, "wb") as fout:
                shutil.copyfileobj(fin, fout)
    return target


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
