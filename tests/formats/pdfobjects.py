"""Hand-written PDFs for reader tests: number a list of object bodies 1..n, write them with their xref table and a
trailer whose /Root is object 1 (the catalog), as a minimal conforming PDF 1.4 file."""
from __future__ import annotations

from pathlib import Path


def write_pdf(path: Path, objs: list[bytes]) -> Path:
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    path.write_bytes(bytes(out))
    return path
