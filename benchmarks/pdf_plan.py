"""Time reading and planning a 1,000-page PDF, and its peak memory (issue 26's speed goal).

    python -m benchmarks.pdf_plan                      # c++-annotations' 1,151-page PDF (Debian package)
    python -m benchmarks.pdf_plan --pdf BOOK.pdf       # any other

The default book is fetched once with `apt-get download c++-annotations-pdf` + `dpkg-deb -x` into the
real-books cache (~/.cache/audiobook-books, AUDIOBOOK_BOOKS_CACHE), as the tests do. Goal: under 60 s
on the 2-core machine, peak RSS under 400 MB, flat in page count (a page's PDFium objects are freed
before the next page is opened).
"""
from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pdf", type=Path, help="the PDF to read (default: c++-annotations' cplusplus.pdf)")
    ap.add_argument("--chunk-size", type=int, default=40)
    args = ap.parse_args()
    from app.book import load_book
    from app.pipeline.plan import make_plan

    pdf = args.pdf
    if pdf is None:
        from tests.formats.twins import debian_file

        pdf = debian_file("c++-annotations-pdf", "usr/share/doc/c++-annotations/cplusplus.pdf")
    import pypdfium2 as pdfium

    pages = len(pdfium.PdfDocument(str(pdf)))
    started, cpu0 = time.monotonic(), time.process_time()
    book = load_book(pdf)
    loaded, cpu1 = time.monotonic(), time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        plan = make_plan(book, {}, chunk_size=args.chunk_size, fmt="m4b", output=Path(tmp) / "book.m4b")
    done, cpu2 = time.monotonic(), time.process_time()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{pdf.name}: {pages} pages, {len(book.chapters)} chapters, {book.words:,} words; "
          f"read {loaded - started:.1f} s wall / {cpu1 - cpu0:.1f} s CPU, "
          f"plan {done - loaded:.1f} s wall / {cpu2 - cpu1:.1f} s CPU ({len(plan.chunks)} chunks); "
          f"total {done - started:.1f} s; peak RSS {peak:.0f} MB; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
