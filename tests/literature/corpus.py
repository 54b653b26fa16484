"""The literature corpus: novels, stories, verse, letters and diaries from Standard Ebooks and
Project Gutenberg, read in place from ``../shared/corpus/literature`` (never copied into the repo).

Tests that need it skip with a clear reason when the folder is absent. Everything a test expects of a
title (its own contents, its boilerplate) is read here with the standard library, independently of the
app's ingest, so a bug there cannot hide itself.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(os.environ.get(
    "AUDIOBOOK_LITERATURE",
    Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "literature",
))


@dataclass(frozen=True)
class Title:
    """One real book of the corpus: a key for test ids, its file, and where it comes from."""

    key: str
    #: Path relative to ROOT.
    path: str
    #: "standard-ebooks" (EPUB 3) or "gutenberg" (plain text or HTML with header and licence).
    source: str

    @property
    def file(self) -> Path:
        return ROOT / self.path


def _titles() -> list[Title]:
    found = []
    for sub, source in (("standard-ebooks", "standard-ebooks"), ("gutenberg", "gutenberg")):
        folder = ROOT / sub
        if not folder.is_dir():
            continue
        for f in sorted(folder.iterdir()):
            if f.suffix in {".epub", ".txt", ".html"}:
                found.append(Title(f"{f.stem}{f.suffix}", f"{sub}/{f.name}", source))
    return found


TITLES = _titles()


def require_corpus() -> None:
    """Skip (with the reason) where the shared literature corpus is not beside the checkout."""
    if not ROOT.is_dir():
        pytest.skip(f"the literature corpus is not at {ROOT} (see ../shared/corpus/README.md)")
