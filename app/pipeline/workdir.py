"""Where one book's working files go: encoded chapters, the plan memo, the run lock's manifest."""
from __future__ import annotations

import hashlib
from pathlib import Path

from app.core import paths
from app.pipeline.plan import safe_filename


def book_work_dir(source: Path) -> Path:
    """Return the per-book work folder, named after the book and the hash of its path."""
    digest = hashlib.sha256(str(source.resolve()).encode()).hexdigest()[:16]
    return paths.work_dir() / f"{safe_filename(source.stem)[:40]}-{digest}"


__all__ = ["book_work_dir"]
