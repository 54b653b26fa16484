"""The fetched corpus of issue 32: its manifest, and the cache its books are read from.

Books are never committed. `materialize()` writes each manifest row at its commit into
AUDIOBOOK_FETCHED_CACHE (default ~/.cache/audiobook-books/fetched): a Gutenberg book as `book.txt` and
`book.html`, a Standard Ebooks source as `book.epub` (its `src/` zipped with `mimetype` first, as their
build does). The git objects come from a local mirror (AUDIOBOOK_MIRRORS, default /work/.mirror, as the
`fetch` tool leaves them) or else from a bounded `git clone` of https://github.com/<repo>.
"""
from __future__ import annotations

import io
import os
import subprocess
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

MANIFEST = Path(__file__).with_name("manifest.tsv")
CACHE = Path(os.environ.get("AUDIOBOOK_FETCHED_CACHE",
                            Path.home() / ".cache" / "audiobook-books" / "fetched"))
MIRRORS = Path(os.environ.get("AUDIOBOOK_MIRRORS", "/work/.mirror"))
GIT_TIMEOUT = 600


@dataclass(frozen=True)
class Book:
    split: str   # "dev" or "held"
    source: str  # "gutenberg" or "standard-ebooks"
    key: str     # Gutenberg number, or SE's repository name
    repo: str
    commit: str
    text: str    # path of the .txt edition (Gutenberg) or "src" (SE)
    html: str    # path of the HTML edition (Gutenberg) or of toc.xhtml (SE)

    @property
    def folder(self) -> Path:
        return CACHE / self.key

    @property
    def files(self) -> dict[str, Path]:
        """The editions to score: {"txt": ..., "html": ...} or {"epub": ...}."""
        if self.source == "gutenberg":
            return {"txt": self.folder / "book.txt", "html": self.folder / "book.html"}
        return {"epub": self.folder / "book.epub"}


def books(split: str | None = None) -> list[Book]:
    rows = [line.split("\t") for line in MANIFEST.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    return [Book(*r) for r in rows if split in (None, r[0])]


def _git_dir(book: Book) -> Path:
    owner, name = book.repo.split("/")
    for candidate in (MIRRORS / f"{owner}+{name}" / "repo" / ".git", MIRRORS / f"{owner}+{name}" / "repo"):
        if candidate.is_dir():
            return candidate
    clone = CACHE / ".git" / f"{owner}+{name}.git"
    if not clone.is_dir():
        clone.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "clone", "--bare", "--filter=blob:none", f"https://github.com/{book.repo}", str(clone)],
                       check=True, timeout=GIT_TIMEOUT, capture_output=True)
    return clone


def _show(git: Path, commit: str, path: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(git), "show", f"{commit}:{path}"], check=True,
                          capture_output=True, timeout=GIT_TIMEOUT).stdout


def materialize(book: Book) -> None:
    """Write the book's editions into the cache, once (a complete folder is left alone)."""
    if all(p.is_file() for p in book.files.values()):
        return
    git = _git_dir(book)
    book.folder.mkdir(parents=True, exist_ok=True)
    if book.source == "gutenberg":
        book.files["txt"].write_bytes(_show(git, book.commit, book.text))
        book.files["html"].write_bytes(_show(git, book.commit, book.html))
        return
    tar = subprocess.run(["git", "--git-dir", str(git), "archive", "--format=tar", book.commit, "src"],
                         check=True, capture_output=True, timeout=GIT_TIMEOUT).stdout
    part = book.files["epub"].with_suffix(".part")
    with tarfile.open(fileobj=io.BytesIO(tar)) as tf, zipfile.ZipFile(part, "w") as zf:
        members = {m.name[len("src/"):]: m for m in tf.getmembers() if m.isfile()}
        zf.writestr(zipfile.ZipInfo("mimetype"), members.pop("mimetype") and b"application/epub+zip")
        for name, member in sorted(members.items()):
            zf.writestr(name, tf.extractfile(member).read(), compress_type=zipfile.ZIP_DEFLATED)
    part.replace(book.files["epub"])


if __name__ == "__main__":
    for b in books():
        materialize(b)
    print(f"{len(books())} books in {CACHE}")
