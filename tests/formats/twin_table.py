"""Score the readers on the twin corpus of tests/formats/twin_manifest.toml, both halves, as a table.

    PYTHONPATH=. .venv/bin/python -m tests.formats.twin_table pdf|docx|odt|fb2|mobi [--half dev|held-out] [--key K] [--repo OWNER/NAME] [--group G]

PDF: the expected chapters are the top entries of the PDF's outline (qpdf); each chapter's reference is
the twin's text from that title's heading to the next title's (the last such heading in the twin, so a
contents listing before the body is passed over); word error = jiwer's word-level edit distance over
tests/books/corpus.py's words(). Running lines spoken = occurrences, in the reading, of pdftotext's
repeated first/last page lines beyond their occurrences in the twin; bare numbers = paragraphs that are
a number alone. Chapter titles are counted twice: over every top entry, and with matter and a title page's
lines aside (chapter_titles).

DOCX/ODT: the reference is pandoc's reading of the file as printed (tests/formats/references.py, printed.py: text
boxes, ODF fields and sections in, a contents field out; the last column is against pandoc's reading of the file
itself, the reference before round office21); chapters expected = pandoc's headings of the top level used more
than once, matter headings aside; word error over the whole document; "not spoken" counts header,
footer, comment and deleted-text paragraphs found in the reading more often than in the reference (a
deletion: the whole words it touches, with or without the insertions beside it; references.not_spoken_phrases).
"""
from __future__ import annotations

import argparse
import re
from collections import Counter
import sys

import jiwer

from tests.books.corpus import title_key, words
from tests.formats import references as ref


def key(title: str) -> str:
    # The numbering aside ("Chapter 5: Managing Packages"); a title that is its numbering alone
    # ("CHAPTER XVI.") keeps it, or every such chapter would match every other.
    # Zero-width joiners go first (HeVeA writes "Chapter\u200d1 Preface").
    title = re.sub("[\u200b-\u200d\u2060\ufeff]", "", title)
    t = re.sub(r"^(?:chapter|appendix|part)\s+(?:\d+|[IVXLC]+|[A-Z])\b\s*[:.]?\s*", "", title.strip(), flags=re.I)
    # A number before the title ("6. I get an error") goes first, so that title_key, which takes one
    # numbering token off, sees the same words on both sides (else it takes the pronoun "I" off one).
    t = re.sub(r"^\d+(?:\.\d+)*\.?\s+(?=\S)", "", t)
    if not title_key(t):
        return " ".join(title.casefold().split())
    # An appendix's letter before a title that opens with "A" ("A A sample session", Texinfo's outline), or a
    # part's Roman number ("II Plotting styles", an outline of parts whose HTML edition heads "Plotting styles").
    t = re.sub(r"^(?:[A-Z]|X{0,3}(?:IX|IV|VI{0,3}|I{2,3}))\s+(?=[A-Z])", "", t)
    return title_key(t)


def uwords(text: str) -> list[str]:
    """words() for any script: lower-case letters of every alphabet, numbers out."""
    return [w for w in re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", text.replace("\u2019", "'").lower())]


def _spoken(chapter) -> str:
    # A chapter's heading is its first paragraph: the title itself is not spoken again.
    return " ".join(words(" ".join(chapter.paragraphs)))


def _segments(events, titles: list[str], headings_only: bool) -> dict[str, str]:
    """Return {title: the twin's words from its heading to the next title's heading}."""
    keys = [key(t) for t in titles]
    pos: dict[int, int] = {}
    limit = len(events)
    # The chapters' heading level: the level of the titles the twin heads once. A section titled as its
    # chapter ("14 Typemaps" over "14.3 Typemaps") or a book's top page titled as one ("Bash Features" over
    # the Top node, "6 Bash Features") is not the chapter's heading.
    heads: dict[str, list[int]] = {}
    for i, e in enumerate(events):
        if e[0] == "h":
            heads.setdefault(key(e[2]), []).append(e[1])
    once = Counter(heads[k][0] for k in keys if len(heads.get(k, ())) == 1)
    level = once.most_common(1)[0][0] if headings_only and once else None
    for k in range(len(keys) - 1, -1, -1):  # backwards: the body's heading, not the contents listing's
        cands = [i for i in range(limit) if (not headings_only or events[i][0] == "h") and key(events[i][2]) == keys[k]]
        if level is not None and any(events[i][1] == level for i in cands):
            cands = [i for i in cands if events[i][1] == level]
        if cands:
            pos[k] = cands[-1]
            limit = cands[-1]
    out: dict[str, str] = {}
    starts = sorted(pos.items(), key=lambda kv: kv[1])
    for n, (k, start) in enumerate(starts):
        end = starts[n + 1][1] if n + 1 < len(starts) else len(events)
        if n + 1 == len(starts):
            # The last chapter ends where a heading of its level or above follows (an index, the colophon).
            level = events[start][1]
            end = next((i for i in range(start + 1, len(events)) if events[i][0] == "h" and 0 < events[i][1] <= level),
                       len(events)) if level else len(events)
        out[titles[k]] = " ".join(words(" ".join(e[2] for e in events[start:end])))
    return out


def _unmatched_after(title: str, titles: list[str], segments: dict, got: dict) -> list:
    """Return the reading's chapters for the outline entries after `title` that the twin has no heading
    for, up to the next entry it has: the twin's segment for `title` runs on over their text, so the
    reading's words for them are scored with it (an entry set as a paragraph in the HTML edition)."""
    out = []
    for t in titles[titles.index(title) + 1:]:
        if t in segments:
            break
        if (c := got.get(key(t))) is not None:
            out.append(c)
    return out


#: Listings the reader leaves out as matter (not narrated): not scored. An index ("Function and variable
#: index" too), a list of illustrations, figures or tables.
_LISTING = re.compile(r"\bindex$|^list\s+of\s+(?:illustrations|figures|tables|plates)\b", re.I)
#: Outline entries that name matter an audiobook leaves out by design (indexes, listings, licences, a colophon):
#: written here, not taken from app/book, so that the reader's own rule does not decide what it is scored on.
_MATTER = re.compile(r"\bind(?:ex|exes|ices)$|^(?:[a-z]\s+)?list\s+of\s|^(?:table\s+of\s+)?contents\.?$|"
                     r"\blicen[cs]es?$|^colophon$|^imprint$|^uncopyright$", re.I)


def _title_lines(titles: list[str], segments: dict) -> set[str]:
    """Return the entries that head no text of the book's: before the first entry the twin gives 20 words
    or more, a title page's lines set as entries of their own ("OR,", "By", the author's name); after it,
    an entry the twin gives under 20 words (a half-title repeating the book's title before chapter one),
    which score_pdf reads with the next entry too. An entry the twin has no heading for stays: its text
    is set as paragraphs there."""
    out, front = set(), True
    for t in titles:
        n = len(segments.get(t, "").split())
        front = front and n < 20
        if front or (t in segments and n < 20):
            out.add(t)
    return out


def chapter_titles(titles: list[str], segments: dict, found: list[str]) -> tuple[int, int]:
    """Return (found, expected) over the outline's entries that are chapters: matter and a title page's
    lines aside (the table shows this beside the count over every entry)."""
    aside = _title_lines(titles, segments) | {t for t in titles if _MATTER.search(t.strip(" .:"))}
    kept = [t for t in titles if t not in aside]
    return sum(t in found for t in kept), len(kept)


def running_spoken(pdf, said: str, twin: str) -> tuple[int, int, int]:
    """Return how often the PDF's running lines are spoken beyond the twin's count of them, as counted since round
    pdf26 and before it, and the pages whose edge is a bare number. Before: a line's words anywhere in the
    reading's words, beyond the twin's. Since, both must hold: the words are said more often than the twin says
    them, and more often where they stand as printed (references.phrase_count: not inside a hyphenated command or
    a path) than the twin prints them; and a line is allowed as often as the PDF's outline names it where the twin
    has fewer (an appendix the HTML edition keeps elsewhere: its heading is said once). So a book's count can only
    go down, and only by a line inside a printed word or an outline's heading (round pdf26: every running line the
    dev half's old count found was one of those; round pdf25's count on printed words alone rose on a held-out
    book, for reasons nobody could look at)."""
    spoken, reference = f" {' '.join(words(said))} ", f" {' '.join(words(twin))} "
    printed, printed_twin = ref.printed_words(said), ref.printed_words(twin)
    lines, numbered = ref.running_lines(pdf)
    headings = ref.outline_headings(pdf)
    before = since = 0
    for ln, form in lines.items():
        loose = spoken.count(f" {ln} ") - reference.count(f" {ln} ")
        before += max(0, loose)
        allowed = max(reference.count(f" {ln} "), headings[ln])
        as_printed = ref.phrase_count(form, printed) - max(ref.phrase_count(form, printed_twin), headings[ln])
        since += max(0, min(spoken.count(f" {ln} ") - allowed, as_printed))
    return since, before, numbered


def score_pdf(entry: dict) -> dict:
    from app.book import load_book

    from app.book.model import ReadOptions

    pdf = ref.pdf_file(entry)
    # Code read on both sides: the twins' text and <pre> hold it, and what is code is another question.
    book = load_book(pdf, options=ReadOptions(code="read"))
    titles = ref.expected_outline(entry, pdf)
    events = ref.twin_events(entry)
    headings_only = entry["twin_kind"] != "text"  # pandoc's reading of a DOCX has its headings too
    segments = _segments(events, titles, headings_only)
    got = {key(c.title): c for c in book.chapters}
    found = [t for t in titles if key(t) in got]
    chapters_found = chapter_titles(titles, segments, found)
    errors = {}
    if not titles:  # no outline (a short document): the whole text is the one chapter
        whole = " ".join(words(" ".join(e[2] for e in events)))
        if len(whole.split()) >= 20:
            segments = {"(whole)": whole}
            errors["(whole)"] = jiwer.wer(whole, " ".join(_spoken(c) for c in book.chapters) or "nothing")
    pending = ""
    for t, seg in segments.items():
        if t == "(whole)":
            continue
        c = got.get(key(t))
        if c is None and len(seg.split()) < 20:
            # A title page's lines set as entries of their own ("OR,", "By"): read with the next entry.
            pending = f"{pending} {seg}"
            continue
        seg, pending = f"{pending} {seg}".strip(), ""
        if len(titles) == 1 and len(seg.split()) >= 20:
            # A lone top entry is the document's title over all of it: the whole reading is its chapter.
            errors[t] = jiwer.wer(seg, " ".join(_spoken(c) for c in book.chapters) or "nothing")
        elif c is not None and len(seg.split()) >= 20 and not _LISTING.search(t.strip()):
            errors[t] = jiwer.wer(seg, " ".join(_spoken(x) for x in [c] + _unmatched_after(t, titles, segments, got))
                                  or "nothing")
    leaked, leaked_before, numbered = running_spoken(pdf, " ".join(" ".join(c.paragraphs) for c in book.chapters),
                                                     " ".join(e[2] for e in events))
    bare = sum(bool(re.fullmatch(r"\d{1,4}|[ivxlc]{1,7}", p.strip())) for c in book.chapters for p in c.paragraphs)
    return {"key": entry["key"], "producer": entry["producer"], "half": entry["half"], "title": book.title,
            "author": book.author, "titles": (len(found), len(titles)), "chapter_titles": chapters_found,
            "missed": [t for t in titles if t not in found], "errors": errors,
            "scored": (len(errors), len(segments)), "running": leaked, "running_before": leaked_before, "bare": bare, "pages_numbered": numbered}


def score_office(entry: dict) -> dict | None:
    from app.book import load_book

    path = ref.office_file(entry)
    if path is None:
        return None
    from app.book.model import ReadOptions

    # Code read on both sides, as for PDFs: pandoc's reading holds code blocks as text.
    book = load_book(path, options=ReadOptions(code="read"))
    events = ref.pandoc_reference(path, printed=True)
    heads = [e for e in events if e[0] == "h" and words(e[2])]
    # The outline's chapters: the top level used more than once (a heading alone at the top is the title).
    levels = sorted({e[1] for e in heads})
    top = next((lv for lv in levels if sum(e[1] == lv for e in heads) >= 2), levels[0] if levels else 0)
    # A heading of matter (a contents typed by hand, an index, a licence) is not expected: an audiobook leaves
    # that out by design, as the PDF table does (_MATTER; a contents field's or control's went in round office21).
    expected = [e[2] for e in heads if e[1] == top and not _MATTER.search(e[2].strip(" .:"))]
    got = {key(c.title) for c in book.chapters}
    found = [t for t in expected if key(t) in got]
    spoken = " ".join(_spoken(c) for c in book.chapters)
    reference = " ".join(words(" ".join(e[2] for e in events)))
    error = jiwer.wer(reference, spoken or "nothing") if len(reference.split()) >= 5 else None
    # The reference before round office21: pandoc's reading of the file itself (shown beside, so that a change
    # of the reference and one of the reader can be told apart in one scoring).
    alone = " ".join(words(" ".join(e[2] for e in ref.pandoc_reference(path))))
    error_alone = jiwer.wer(alone, spoken or "nothing") if len(alone.split()) >= 5 else None
    leaks = {}
    for kind, phrases in ref.not_spoken_phrases(path).items():
        n = sum(any(f" {spoken} ".count(f" {a} ") > f" {reference} ".count(f" {a} ") for a in p.split("|"))
                for p in set(phrases))
        leaks[kind] = (n, len(set(phrases)))
    return {"key": entry["key"], "producer": entry["producer"], "half": entry["half"], "repo": entry["repo"],
            "titles": (len(found), len(expected)), "error": error, "words": len(reference.split()),
            "error_alone": error_alone, "leaks": leaks, "title": book.title}


def score_fb2(entry: dict) -> dict | None:
    from app.book import load_book
    from app.book.model import ReadOptions

    path = ref.office_file(entry)
    if path is None:
        return None
    book = load_book(path, options=ReadOptions(include_matter=True))
    expected, text = ref.fb2_reference(path)
    reference = " ".join(uwords(text))
    # A part is announced with its first chapter ("Part One: The Coast: Arrival"), as in the MOBI table: that
    # chapter is its entry (the part's name may hold ": " itself, so every leading run of the title counts).
    got = [key(": ".join(c.title.split(": ")[:k])) for c in book.chapters
           for k in range(1, c.title.count(": ") + 2)]
    found = [t for t in expected if key(t) in got]
    spoken = " ".join(" ".join(uwords(" ".join(c.paragraphs))) for c in book.chapters)
    return {"key": entry["key"], "producer": entry["producer"], "half": entry["half"],
            "titles": (len(found), len(expected)), "error": jiwer.wer(reference, spoken or "nothing"),
            "words": len(reference.split()), "title": book.title, "author": book.author,
            "chapters": len(book.chapters), "sections": ref.fb2_sections(path)}


def score_mobi(entry: dict) -> dict | None:
    from app.book import load_book
    from app.book.model import ReadOptions

    path = ref.office_file(entry)
    if path is None:
        return None
    expected, text = ref.mobi_reference(path)
    book = load_book(path, options=ReadOptions(include_matter=True, code="read"))
    reference = " ".join(uwords(text))
    # A label over numbered divisions is announced with the first ("Part Two: Scene 1"): that chapter is its entry.
    got = [key(c.title) for c in book.chapters] + [key(c.title.split(": ")[0]) for c in book.chapters]
    found = [t for t in expected if key(t) in got]
    spoken = " ".join(" ".join(uwords(" ".join(c.paragraphs))) for c in book.chapters)
    return {"key": entry["key"], "producer": entry["producer"], "half": entry["half"],
            "titles": (len(found), len(expected)), "chapters": len(book.chapters),
            # An edit distance over a dictionary's 700,000 words is beyond reach: such a book is not scored.
            "error": jiwer.wer(reference, spoken or "nothing") if 0 < len(reference.split()) <= 150_000 else None,
            "words": len(reference.split()), "title": book.title, "author": book.author}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _scored(entry: dict, score, columns: int) -> dict | None:
    """Return `score(entry)`, or print the entry's row as not read (an error) or not fetched and return None.

    One book that cannot be read is a row, not the end of the table; `columns` is the table's width.
    """
    blanks = " |" * (columns - 4)
    try:
        result = score(entry)
    except Exception as exc:  # noqa: BLE001 - the table reports it and goes on
        print(f"| {entry['half']} | {entry['key']} | {entry['producer']} | not read: {type(exc).__name__}: "
              f"{str(exc)[:80]} |{blanks}")
        result = None
    else:
        if result is None:
            print(f"| {entry['half']} | {entry['key']} | {entry['producer']} | not fetched |{blanks}")
    sys.stdout.flush()
    return result


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["pdf", "docx", "odt", "fb2", "mobi"])
    ap.add_argument("--half", choices=["dev", "held-out"])
    ap.add_argument("--key")
    ap.add_argument("--repo", help="only the entries of this repository (owner/name)")
    ap.add_argument("--group", help="only the entries of this manifest group (a round's fresh files, e.g. fresh23); "
                                    "'none' for the entries of no group")
    args = ap.parse_args(argv)
    rows = [e for e in ref.manifest(args.kind) if (not args.half or e["half"] == args.half)
            and (not args.key or e["key"] == args.key) and (not args.repo or e.get("repo") == args.repo)
            and (not args.group or e.get("group", "none") == args.group)]
    if args.kind == "pdf":
        print("| half | book | producer | title / author read | chapter titles found | word error per chapter (%) "
              "| max | running lines spoken | bare numbers |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for e in rows:
            if (r := _scored(e, score_pdf, 9)) is None:
                continue
            errs = list(r["errors"].values())
            print(f"| {r['half']} | {r['key']} | {r['producer']} | {r['title']} / {r['author'] or '—'} "
                  f"| {r['titles'][0]} of {r['titles'][1]} ({r['chapter_titles'][0]} of {r['chapter_titles'][1]} "
                  f"matter aside) | {', '.join(_pct(x) for x in errs)} "
                  f"({r['scored'][0]} of {r['scored'][1]} scored) | {_pct(max(errs)) if errs else '—'} "
                  f"| {r['running']} (before round pdf26: {r['running_before']}) | {r['bare']} |")
            sys.stdout.flush()
    elif args.kind == "mobi":
        print("| half | file | producer | title / author read | its contents' titles found (chapters read) "
              "| word error (%) | words |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for e in rows:
            if (r := _scored(e, score_mobi, 7)) is None:
                continue
            print(f"| {r['half']} | {r['key']} | {r['producer']} | {r['title']} / {r['author'] or '—'} "
                  f"| {r['titles'][0]} of {r['titles'][1]} ({r['chapters']}) "
                  f"| {_pct(r['error']) if r['error'] is not None else '—'} | {r['words']} |")
            sys.stdout.flush()
    elif args.kind == "fb2":
        print("| half | file | producer | title / author read | its contents' titles found | chapters read (top "
              "sections) | word error (%) | words |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for e in rows:
            if (r := _scored(e, score_fb2, 8)) is None:
                continue
            print(f"| {r['half']} | {e['repo']}/{r['key']} | {r['producer']} | {r['title']} / {r['author'] or '—'} "
                  f"| {r['titles'][0]} of {r['titles'][1]} | {r['chapters']} ({r['sections']}) | {_pct(r['error'])} "
                  f"| {r['words']} |")
    else:
        print("| half | file | producer | headings found | word error (%) | words | headers/footers, comments, "
              "deleted spoken | word error against pandoc alone (%) |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for e in rows:
            if (r := _scored(e, score_office, 8)) is None:
                continue
            leaks = ", ".join(f"{n}/{m}" for n, m in r["leaks"].values())
            print(f"| {r['half']} | {r['key']} | {r['producer']} | {r['titles'][0]} of {r['titles'][1]} "
                  f"| {_pct(r['error']) if r['error'] is not None else '— (under 5 words)'} "
                  f"| {r['words']} | {leaks} | {_pct(r['error_alone']) if r['error_alone'] is not None else '—'} |")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
