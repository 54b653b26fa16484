"""Small file helpers every layer uses: content hashes and atomic writes."""
from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path


def sha256_file(path: Path) -> str:
    """Return the hex SHA-256 of the file at `path`, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a unique temp name in the same folder, then rename.

    A crash or a full disk leaves either the old file or none, never half of
    the new one. OSError propagates for the caller to turn into its message.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
