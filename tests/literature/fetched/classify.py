"""Sort the failures of a scored run into classes, automatically (a benchmark aid, not a test).

    PYTHONPATH=. .venv/bin/python tests/literature/fetched/classify.py rows.json [rows2.json ...] [--books]

Reads the rows `score_html.py --out` writes (each book's titles and words per chapter, its truth's titles and
words) and aligns the chapters with the truth by title (`score.title_agrees`, in order). A book not exactly right
gets every class that fits it, so a book may count in several; `--books` lists each book's classes.

Classes (a chapter "extra" is one no truth heading names; a truth chapter "missing" is one no chapter names):

- over by 1 / over by 2-5 / over by more; under by 1 / under by 2-5 / under by more; count right, titles differ;
  few titles agree (under half the chapters named in order: another heading level or other divisions).
- count right, titles differ, by kind: *part or prefix fused* (the truth's words all there, but so much more
  that three quarters of the title are not the heading's); *subtitle missing* (the chapter's words a part of
  the truth's: a bare "CHAPTER I." for "CHAPTER I. THE FORD"); *other heading* (few words in common).
- a listing taken as divisions: extra chapters titled as a contents or list of illustrations, or three extra
  chapters or more of under 30 words each.
- extra at the front (before the first named chapter), extra at the end (after the last: back matter read);
  extra inside, nested or sub-headings taken as chapters (extra chapters between named ones).
- missing inside, merged (a chapter named by one truth heading holding the words of the next ones too);
  missing at the front or the end.
- a title page or front matter read as a first chapter (an extra first chapter of under 600 words); a closing
  line read as a last chapter (an extra last chapter of under 10 words); a heading over a line or two read as a
  chapter (an extra chapter inside of under 30 words); a truth chapter of under 30 words missing; matter the
  truth counts (notes, an appendix, a publisher's list) not read.
- text lost: the chapters' words under 85% of the truth's.
- back matter read: an extra chapter at the end titled as an index, notes, appendix, catalogue or advertisements.
- truth doubtful: the truth's own titles read as matter the reader leaves out (advertisements, catalogues,
  lists), its chapters mostly under 30 words, or a book named doubtful in fetched/README.md.
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.literature.fetched.score import norm_words, title_agrees  # noqa: E402

#: Books whose truth fetched/README.md names doubtful (their keys; the README says why).
README_DOUBTFUL = frozenset(
    "10513 50768 59497 49225 14925 67051 23955 18679 18645 69385 19080 49570 57030 16925 30634 51070 52902 24627 "
    "35985 34995 21138 49480 68609 22463 25444 39440 16172 51205 24364 16626 61026 58250 46807 15998 67124 34618 "
    "24699 41095 41064 22903 40948".split())
#: A first chapter no truth heading names, of fewer words than this, is the front's (a title page, an imprint).
_FRONT_WORDS = 600
_LISTING = re.compile(r"\b(?:contents|illustrations|list of|plates|maps|figures)\b", re.I)
_BACK = re.compile(r"\b(?:index|notes?|appendix|appendices|glossary|catalogue|advertisements?|errata|bibliography|"
                   r"footnotes|transcriber|books by|publishers?|the end|finis|vocabulary)\b", re.I)
_TRUTH_MATTER = re.compile(r"\b(?:advertisements?|catalogue|list of|subscribers|books|publications|works by|"
                           r"price|series)\b", re.I)


def align(got: list[str], want: list[str]) -> list[tuple[int, int]]:
    """Return the matched (chapter, truth) index pairs of the longest in-order alignment by title."""
    n, m = len(got), len(want)
    if n * m > 4_000_000:
        return []
    agree = [[title_agrees(g, w) for w in want] for g in got]
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = max(best[i + 1][j], best[i][j + 1], best[i + 1][j + 1] + 1 if agree[i][j] else 0)
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if agree[i][j] and best[i][j] == best[i + 1][j + 1] + 1:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def _title_kind(got: str, want: str) -> str:
    g, w = set(norm_words(got)), set(norm_words(want))
    if not g:
        return "title empty"
    if w and w <= g:
        return "part or prefix fused"
    if g < w or (len(g & w) >= max(1, len(g) - 1) and len(g) < len(w)):
        return "subtitle missing"
    return "other heading"


def classify(row: dict) -> list[str]:
    """Return the classes of one book's row (empty when it is exactly right)."""
    if row.get("exact"):
        return []
    if not row.get("ok", True):
        return ["crash"]
    if not row.get("known", True):
        return ["truth unknown (the HTML sets no heading)"]
    got, want = row.get("titles", []), row.get("truth_titles", [])
    words, twords = row.get("words", []), row.get("truth_words", [])
    d = len(got) - len(want)
    out = []
    if d == 0:
        out.append("count right, titles differ")
    else:
        size = "1" if abs(d) == 1 else "2-5" if abs(d) <= 5 else "more"
        out.append(f"{'over' if d > 0 else 'under'} by {size}")
    pairs = align(got, want)
    matched_g = {i for i, _ in pairs}
    matched_w = {j for _, j in pairs}
    if d == 0:
        for i, (g, w) in enumerate(zip(got, want)):
            if not title_agrees(g, w):
                out.append("titles: " + _title_kind(g, w))
    extra = [i for i in range(len(got)) if i not in matched_g]
    missing = [j for j in range(len(want)) if j not in matched_w]
    if pairs and d != 0:
        first, last = pairs[0][0], pairs[-1][0]
        if any(i < first for i in extra):
            out.append("extra at the front")
        if any(i > last for i in extra):
            out.append("extra at the end")
            if any(i > last and _BACK.search(got[i]) for i in extra):
                out.append("back matter read")
        if any(first < i < last for i in extra):
            out.append("extra inside (nested or sub-headings)")
        if extra and extra[0] == 0 < first and words and words[0] < _FRONT_WORDS:
            out.append("a title page or front matter read as a first chapter")
        if extra and extra[-1] == len(got) - 1 > last and words and words[-1] < 10:
            out.append("a closing line ('THE END', an imprint) read as a last chapter")
        if any(first < i < last and i < len(words) and words[i] < 30 for i in extra):
            out.append("a heading over a line or two read as a chapter")
        fw, lw = pairs[0][1], pairs[-1][1]
        if any(fw < j < lw for j in missing):
            out.append("missing inside (merged)")
        if any(j < fw for j in missing):
            out.append("missing at the front")
        if any(j > lw for j in missing):
            out.append("missing at the end")
        if any(j < len(twords) and twords[j] < 30 for j in missing):
            out.append("a truth chapter of under 30 words missing")
        if any(_BACK.search(want[j]) or _TRUTH_MATTER.search(want[j]) for j in missing):
            out.append("matter the truth counts (notes, appendix, lists) not read")
    if len(pairs) < 0.5 * min(len(got), len(want)):
        out.append("few titles agree (another level or other divisions)")
    if any(_LISTING.search(got[i]) for i in extra) or sum(
            1 for i in extra if i < len(words) and words[i] < 30) >= 3:
        out.append("listing taken as divisions")
    if twords and words and sum(words) < 0.85 * sum(twords):
        out.append("text lost")
    if (row["key"] in README_DOUBTFUL or any(_TRUTH_MATTER.search(w) for w in want)
            or (twords and sum(1 for x in twords if x < 30) > len(twords) / 2)):
        out.append("truth doubtful")
    return list(dict.fromkeys(out))


def main(argv: list[str]) -> None:
    show = "--books" in argv
    books = Counter()
    total = 0
    failing = 0
    for path in [a for a in argv if not a.startswith("--")]:
        for row in json.loads(Path(path).read_text()):
            total += 1
            classes = classify(row)
            if not classes:
                continue
            failing += 1
            books.update(set(classes))
            if show:
                print(f"{Path(path).stem:>6} {row['key']:>6} truth={row['truth']:>3} got={row.get('chapters', 0):>3} "
                      f"{'; '.join(classes)}")
    print(f"\n{total} books, {total - failing} exactly right, {failing} not\n")
    print("| class | books |\n| --- | ---: |")
    for name, n in sorted(books.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"| {name} | {n} |")


if __name__ == "__main__":
    main(sys.argv[1:])
