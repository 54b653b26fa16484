"""What an office file holds that is never to be spoken, read from its XML without app/book: the paragraphs
of its headers and footers, comments and tracked deletions (tests/formats/references.py re-exports it)."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

from tests.books.corpus import words

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"


def not_spoken_phrases(path: Path) -> dict[str, list[str]]:
    """Return {"headers/footers": [...], "comments": [...], "deleted": [...]}: each a paragraph's words
    (a deletion's: the words it touches, in one or two forms with "|" between, `_deleted_words`)."""
    out: dict[str, list[str]] = {"headers/footers": [], "comments": [], "deleted": []}

    def add(kind: str, text: str, least: int = 2) -> None:
        w = "|".join(" ".join(words(t)) for t in text.split("|"))
        if min(len(t.split()) for t in w.split("|")) >= least:
            out[kind].append(w)

    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        if "word/document.xml" in names:
            for name in names:
                kind = ("headers/footers" if re.fullmatch(r"word/(header|footer)\d*\.xml", name)
                        else "comments" if name == "word/comments.xml" else None)
                if kind:
                    for p in ET.fromstring(zf.read(name)).iter(f"{_W}p"):
                        add(kind, "".join(t.text or "" for t in p.iter(f"{_W}t")))
            doc = ET.fromstring(zf.read("word/document.xml"))
            for p in doc.iter(f"{_W}p"):
                # A deletion (w:del's w:delText) or moved text's old place (w:moveFrom: spoken there and
                # at w:moveTo is twice), in the paragraph's runs.
                pieces: list[tuple[str, str]] = []

                def walk(el, state: str) -> None:
                    if el.tag in (f"{_W}del", f"{_W}moveFrom"):
                        state = "del"
                    elif el.tag in (f"{_W}ins", f"{_W}moveTo"):
                        state = "ins"
                    if el.tag in (f"{_W}t", f"{_W}delText"):
                        pieces.append((el.text or "", state))
                    for child in el:
                        if child.tag != f"{_W}p":
                            walk(child, state)

                walk(p, "kept")
                for text in _deleted_words(pieces):
                    add("deleted", text, least=1)
        else:
            for name in ("styles.xml", "content.xml"):
                if name not in names:
                    continue
                root = ET.fromstring(zf.read(name))
                for tag in ("header", "footer", "header-left", "footer-left", "header-first", "footer-first"):
                    for h in root.iter(f"{_STYLE}{tag}"):
                        add("headers/footers", " ".join("".join(p.itertext()) for p in h.iter(f"{_TEXT}p")))
                for a in root.iter(f"{_OFFICE}annotation"):
                    add("comments", " ".join("".join(p.itertext()) for p in a.iter(f"{_TEXT}p")))
                gone = {r.get(f"{_TEXT}id"): " ".join("".join(p.itertext()) for p in d.iter(f"{_TEXT}p"))
                        for r in root.iter(f"{_TEXT}changed-region") for d in r.iter(f"{_TEXT}deletion")}
                for p in (e for e in root.iter() if e.tag in (f"{_TEXT}p", f"{_TEXT}h")):
                    # A deletion stands in the body as a text:change mark naming its region; an insertion
                    # is the text between its text:change-start and text:change-end.
                    pieces = [(p.text or "", "kept")]
                    state = ["kept"]

                    def walk(el) -> None:
                        cid = el.get(f"{_TEXT}change-id")
                        if el.tag == f"{_TEXT}change" and cid in gone:
                            pieces.append((gone[cid], "del"))
                        elif el.tag == f"{_TEXT}change-start" and cid not in gone:
                            state[0] = "ins"
                        elif el.tag == f"{_TEXT}change-end":
                            state[0] = "kept"
                        elif el.tag in (f"{_TEXT}s", f"{_TEXT}tab", f"{_TEXT}line-break"):
                            pieces.append((" " * int(el.get(f"{_TEXT}c", "1")), state[0]))
                        elif el.tag != f"{_TEXT}tracked-changes":
                            pieces.append((el.text or "", state[0]))
                            for child in el:
                                if child.tag not in (f"{_TEXT}p", f"{_TEXT}h"):
                                    walk(child)
                        pieces.append((el.tail or "", state[0]))

                    for child in p:
                        walk(child)
                    for text in _deleted_words(pieces):
                        add("deleted", text, least=1)
    return out


def _widened(pieces: list[tuple[str, str]]) -> list[str]:
    text, spans, pos = "", [], 0
    for piece, state in pieces:
        if state == "del" and piece:
            if spans and spans[-1][1] == pos:
                spans[-1] = (spans[-1][0], pos + len(piece))
            else:
                spans.append((pos, pos + len(piece)))
        text += piece
        pos += len(piece)
    out = []
    for start, end in spans:
        while start > 0 and text[start - 1].isalnum():
            start -= 1
        while end < len(text) and text[end].isalnum():
            end += 1
        out.append(text[start:end])
    return out


def _deleted_words(pieces: list[tuple[str, str]]) -> list[str]:
    """Return each deletion of a paragraph (its (text, "kept"|"del"|"ins") pieces in order) widened to the
    whole words it touches ("a[n excessively]" -> "an excessively"): what a reader that kept it would speak.
    Two forms, "|" between: with the insertions beside it ("[dummy][test]" -> "dummytest", a reader of every
    run) and without them ("dummy", a reader of the original); speaking either is the deletion spoken."""
    both = _widened(pieces)
    original = _widened([p for p in pieces if p[1] != "ins"])
    return [a if a == b else f"{a}|{b}" for a, b in zip(both, original)]
