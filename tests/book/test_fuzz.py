"""Mutated real fixtures and hostile families: load_book returns a Book or raises an InputError, nothing else.

The mutation tests flip bytes of real fixtures; the issue-17 families at the end generate
hostile books, settings and non-files (see tests/faults/README.md).
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from app.book import load_book
from app.book.model import Book
from app.core.errors import InputError

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


# -- issue 17: hostile families, generated here ----------------------------------------------------
# Each family mixes the cases the hostile-input report found; every example must end in a Book or
# one line of InputError/ConfigError (what the CLI prints), never another exception ("This is a bug").

_HOSTILE = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
_MARK = "Zebra"


def _load_or_refuse(path: Path):
    try:
        return load_book(path)
    except InputError as exc:
        line = exc.one_line()
        assert line and "\n" not in line
        return None


@st.composite
def _hostile_html(draw) -> bytes:
    tag = draw(st.sampled_from(["font", "div", "center", "blockquote", "span", "b", "li", "td", "p"]))
    depth = draw(st.sampled_from([0, 1, 255, 256, 1000, 2047, 2500]))
    hide = draw(st.sampled_from(["", " hidden", ' style="display:none"', ' aria-hidden="true"']))
    declared = draw(st.sampled_from([None, "utf-16", "UTF-32", "shift_jis", "no-such-codec", "utf-8", "latin-1"]))
    actual = draw(st.sampled_from(["utf-8", "utf-16", "cp1252"]))
    head = f'<?xml version="1.0" encoding="{declared}"?>' if declared else ""
    body = (f"<h1>Start</h1>" + f"<{tag}>word caf\u00e9 " * depth + f"<p{hide}>Hidden{_MARK}</p>"
            + f"<h1>End</h1><p>Last{_MARK} words.</p>")
    return (head + f"<html><body>{body}</body></html>").encode(actual, errors="replace")


def test_hostile_html_family(tmp_path):
    @_HOSTILE
    @given(data=_hostile_html())
    def run(data):
        path = tmp_path / "hostile.html"
        path.write_bytes(data)
        book = _load_or_refuse(path)
        if book is not None:
            text = " ".join(p for c in book.chapters for p in c.paragraphs)
            assert f"Last{_MARK}" in text  # never silently shortened

    run()


@st.composite
def _hostile_epub_entries(draw) -> dict[str, bytes]:
    from tests.faults.hostile import CONTAINER, opf, xhtml

    names = ["Text/Chapter 1.xhtml", "Text/ch2.xhtml"]
    pkg = opf([n.replace(" ", "%20") for n in names])
    if draw(st.booleans()):  # a UTF-16 package, with or without a DOCTYPE that declares an entity
        pkg = pkg.replace('encoding="utf-8"', 'encoding="utf-16"')
        if draw(st.booleans()):
            pkg = pkg.replace("<package", '<!DOCTYPE package [<!ENTITY t "T">]><package', 1).replace(
                "Hostile Book", "&t;")
        pkg_bytes = pkg.encode(draw(st.sampled_from(["utf-16", "utf-16-le", "utf-16-be"])))
    else:
        pkg_bytes = pkg.encode()
    entries = {"mimetype": b"application/epub+zip", "META-INF/container.xml": CONTAINER.encode(),
               "OEBPS/content.opf": pkg_bytes}
    for i, name in enumerate(names):
        page = xhtml(f"Part {i}", f"<p>Words of part {i}, caf\u00e9.</p>")
        if draw(st.booleans()):
            page = page.replace('encoding="utf-8"', 'encoding="utf-16"')  # a false declaration
        entries[f"OEBPS/{name}"] = page.encode("utf-8")
    uris = draw(st.lists(st.sampled_from(["OEBPS/Text/Chapter%201.xhtml", "/OEBPS/Text/ch2.xhtml",
                                          "OEBPS/fonts/a.otf", "OEBPS/Text/../Text/ch2.xhtml",
                                          "http://example.org/x", "%ZZ", ""]), max_size=3))
    if uris or draw(st.booleans()):
        refs = "".join(f'<CipherReference URI="{u}"/>' for u in uris)
        entries["META-INF/encryption.xml"] = (f'<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
                                              f"{refs}</encryption>").encode()
    return entries


def test_hostile_epub_family(tmp_path):
    @_HOSTILE
    @given(entries=_hostile_epub_entries())
    def run(entries):
        path = tmp_path / "hostile.epub"
        path.write_bytes(_rezip(entries))
        book = _load_or_refuse(path)
        if book is not None:  # never noise: an encrypted chapter is refused, not narrated
            assert all("Words of part" in p for c in book.chapters for p in c.paragraphs if "part" in p)

    run()


@st.composite
def _hostile_text(draw) -> str:
    token = draw(st.sampled_from(["", "x" * 2000, "ab" * 50, "https://example.org/" + "q" * 300]))
    fence = draw(st.sampled_from(["", "```\nfor i in range(3): print(i)\n```\n", "    indented = {code}\n"]))
    line = draw(st.sampled_from(["", "word " * 3000, "Mr. Smith. " * 500]))
    return f"# Title\n\nIntro {token} end.\n\n{fence}\n{line}\n\nLast line here.\n"


@pytest.mark.parametrize("suffix", [".md", ".txt"])
def test_hostile_text_family(tmp_path, suffix):
    from app.pipeline.plan import make_plan

    @_HOSTILE
    @given(text=_hostile_text())
    def run(text):
        path = tmp_path / f"hostile{suffix}"
        path.write_text(text, encoding="utf-8")
        book = _load_or_refuse(path)
        if book is not None:
            plan = make_plan(book, {}, chunk_size=30, fmt="m4b", output=tmp_path / "o.m4b")
            assert all(len(w) <= 45 for pc in plan.chunks for w in pc.text.split())
            if suffix == ".md":
                assert not any("range(" in pc.text or "{code}" in pc.text for pc in plan.chunks)

    run()


_TOML_VALUES = st.sampled_from(['"abc"', "-3", "1.5", "5", "true", "[]", "{}", '""', "0", "70000",
                                '"~/x"', "1e400", "nan"])


def test_settings_family(tmp_path):
    from app.core import settings as settings_mod
    from app.core.errors import ConfigError

    keys = ["chunk_size", "output_dir", "ffmpeg", "format", "backend", "sglomni.port",
            "sglomni.start_timeout", "sglomni.host", "sglomni", "nonsense"]

    @_HOSTILE
    @given(key=st.sampled_from(keys), value=_TOML_VALUES)
    def run(key, value):
        section, _, name = key.rpartition(".")
        text = f"[{section}]\n{name} = {value}\n" if section else f"{name} = {value}\n"
        path = tmp_path / "settings.toml"
        path.write_text(text)
        try:
            settings_mod.load(path)
        except ConfigError as exc:
            assert str(path) in exc.one_line() and "\n" not in exc.one_line()

    run()


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "dev-null", "folder", "dangling", "socket"])
def test_not_a_book_file_family(tmp_path, kind):
    import os
    import socket

    path = tmp_path / "book.txt"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind in ("dev-zero", "dev-null"):
        path.symlink_to(f"/dev/{kind[4:]}")
    elif kind == "folder":
        path.mkdir()
    elif kind == "dangling":
        path.symlink_to(tmp_path / "nowhere.txt")
    else:
        s = socket.socket(socket.AF_UNIX)
        s.bind(str(path))
        s.close()
    with pytest.raises(InputError):
        load_book(path)
