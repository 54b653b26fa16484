"""Keep glibc's allocator from growing the heap with run length.

A conversion runs up to a hundred worker threads that each allocate and free
buffers of tens to hundreds of KiB (HTTP pieces, WAV headers, numpy blocks,
onnxruntime tensors). glibc gives threads their own arenas and, by default,
raises its mmap threshold after large frees, so freed memory stays in
fragmented arenas and RSS creeps up over a 10-hour book. A fixed 128 KiB
threshold returns large buffers to the OS at once, and a few arenas bound the
fragmentation. Measured in benchmarks/README.md (peak RSS vs book length).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import sys

#: mallopt parameters (glibc malloc.h).
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8

MMAP_THRESHOLD = 128 * 1024
ARENA_MAX = 4


def tune() -> bool:
    """Apply the settings on glibc Linux; return whether they took effect."""
    if not sys.platform.startswith("linux"):
        return False
    name = ctypes.util.find_library("c")
    if not name:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # musl and others have no mallopt
        return False
    ok = mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
    return mallopt(_M_ARENA_MAX, ARENA_MAX) == 1 and ok
