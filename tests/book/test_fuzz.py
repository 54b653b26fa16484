"""Mutated real fixtures: load_book returns a Book or raises an InputError, nothing else."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from app.book import load_book
from app.book.model import Book
from app.errors import InputError

_SETTINGS = settings(max_examples=250, deadline=None, derandomize=True,
                     suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@st.composite
def _mutations(draw, data: bytes) -> bytes:
    """Return data with a few byte flips, deletions, insertions or a truncation."""
    buf = bytearray(data)
    for _ in range(draw(st.integers(1, 6))):
        if not buf:
            break
        op = draw(st.sampled_from(["flip", "delete", "insert", "truncate", "dup"]))
        i = draw(st.integers(0, len(buf) - 1))
        if op == "flip":
            buf[i] = draw(st.integers(0, 255))
        elif op == "delete":
            del buf[i:i + draw(st.integers(1, 64))]
        elif op == "insert":
            buf[i:i] = draw(st.binary(min_size=1, max_size=32))
        elif op == "truncate":
            del buf[i:]
        else:
            j = draw(st.integers(i, min(len(buf), i + 200)))
            buf[i:i] = buf[i:j]
    return bytes(buf)


def _zip_entries(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def _rezip(entries: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return out.getvalue()


def _load(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    try:
        book = load_book(path)
    except InputError as exc:
        line = exc.one_line()
        assert line and "\n" not in line
        return
    assert isinstance(book, Book) and book.chapters
    assert all(c.paragraphs and all(p.strip() == p and p for p in c.paragraphs) for c in book.chapters)


@pytest.mark.parametrize("kind", ["txt", "md", "html"])
def test_mutated_text_formats(book_files, tmp_path, kind):
    original = book_files[kind].read_bytes()

    @_SETTINGS
    @given(data=_mutations(original))
    def run(data):
        _load(tmp_path / f"fuzz.{kind}", data)

    run()


@pytest.mark.parametrize("kind", ["epub3", "epub2"])
def test_mutated_epub_bytes(book_files, tmp_path, kind):
    """Mutate the raw zip: mostly exercises the container and decompression errors."""
    original = book_files[kind].read_bytes()

    @_SETTINGS
    @given(data=_mutations(original))
    def run(data):
        _load(tmp_path / "fuzz.epub", data)

    run()


@pytest.mark.parametrize("kind", ["epub3", "epub2"])
def test_mutated_epub_entries(book_files, tmp_path, kind):
    """Mutate one entry inside a valid zip: exercises the OPF, NCX, nav and XHTML parsers."""
    entries = _zip_entries(book_files[kind])
    names = sorted(n for n in entries if n != "mimetype")

    @_SETTINGS
    @given(name=st.sampled_from(names), data=st.data())
    def run(name, data):
        mutated = dict(entries)
        mutated[name] = data.draw(_mutations(entries[name]))
        _load(tmp_path / "fuzz.epub", _rezip(mutated))

    run()
