"""Where the cast tests read real books in place: the literature corpus and PDNC beside the checkout."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
PRIDE = Path(os.environ.get("AUDIOBOOK_LITERATURE", SHARED / "literature")) / "standard-ebooks" / "jane-austen_pride-and-prejudice.epub"
PDNC = Path(os.environ.get("AUDIOBOOK_PDNC", SHARED / "pdnc"))


def require(path: Path) -> Path:
    """Return path, or skip the test with the reason where the shared corpus is not beside the checkout."""
    if not path.exists():
        pytest.skip(f"{path} is not there (see ../shared/corpus/README.md)")
    return path
