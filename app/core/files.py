"""Small file helpers every layer uses: content hashes and atomic writes."""
from __future__ import annotations

import hashlib
import os
import re
import threading
import time
import uuid
from pathlib import Path

#: The tag temp names carry: ".<pid>-<8 hex>.", so a later run can tell a dead run's leftovers.
_TAG = re.compile(r"\.(\d+)-[0-9a-f]{8}\.")
#: Temp files whose name carries no owner are leftovers once they are this old.
UNTAGGED_STALE_SECONDS = 24 * 3600


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


def temp_tag() -> str:
    """Return a unique tag for a temp name that records this process as its owner."""
    return f"{os.getpid()}-{uuid.uuid4().hex[:8]}"


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    except OverflowError:
        return False
    return True


def is_stale_temp(path: Path, *, untagged_after: float = UNTAGGED_STALE_SECONDS) -> bool:
    """Return whether a temp file is a leftover: its owner process is gone (or, untagged, it is old)."""
    found = _TAG.search(path.name)
    if found:
        return not _alive(int(found.group(1)))
    try:
        return time.time() - path.lstat().st_mtime > untagged_after
    except OSError:
        return False


#: Bytes a file name may take on common file systems (ext4, APFS, NTFS in UTF-16 units) is 255;
#: names made from titles stay well under it, leaving room for temp prefixes and tags.
NAME_BYTES = 150


def truncate_utf8(text: str, max_bytes: int = NAME_BYTES) -> str:
    """Return `text` cut to at most `max_bytes` bytes of UTF-8, never inside a character."""
    data = text.encode("utf-8", "surrogateescape")
    if len(data) <= max_bytes:
        return text
    return data[:max_bytes].decode("utf-8", "ignore").rstrip(" .")
