"""Classify every failing book of score_txt.py's rows by what went wrong, automatically (round txt19).

    PYTHONPATH=. .venv/bin/python tests/literature/fetched/classify_txt.py ROWS.json [ROWS.json ...] [--books]

Each book not exactly right gets one main class and any number of tags:

- main class: "count right, titles differ" (how: a subtitle missing, the label or number missing, numerals
  written otherwise, accents or "&" the comparison drops, titles shifted by one, other), "over by N" or
  "under by N" (N bucketed 1, 2-3, 4-10, >10), "one chapter" (no heading found), "crashed".
- tags, from an alignment of the titles with the truth's: extras before the first matched title (front
  matter read as chapters), after the last (back matter), a run of short chapters whose titles stand again
  later (contents read as chapters); missing truth headings at the front, inside or at the back; "truth
  doubtful" where the HTML twin is itself inconsistent (a truth chapter of under 20 words, the same title
  twice, a matter title, or truth and text differing in total words by more than a third).

Rows are development rows only: never give it the held-out half's.
"""
from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.literature.fetched.classify import align  # noqa: E402  (the HTML classifier's title alignment)
from tests.literature.fetched.score import norm_words, title_agrees  # noqa: E402

_MATTER = re.compile(r"\b(contents|illustrations|index|advertisements?|footnotes|notes|transcriber|catalogue|"
                     r"errata|bibliography|list of|by the same author|appendix)\b", re.I)
_NUMBERISH = re.compile(r"^(\d+|[ivxlcdm]+|chapter|book|part|section|canto|letter|act|scene)$")


def _loose(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c)).replace("&", " and ")


def _how_titles_differ(got: str, want: str, prev: str | None, nxt: str | None) -> str:
    if title_agrees(_loose(got), _loose(want)):
        return "accents or '&' dropped by the comparison"
    g, w = norm_words(got), norm_words(want)
    if not g:
        return "empty title"
    if set(g) <= set(w):
        missing = [x for x in w if x not in g]
        if all(_NUMBERISH.match(x) for x in missing):
            return "label or number missing"
        return "subtitle missing"
    strip = [x for x in g if not _NUMBERISH.match(x)], [x for x in w if not _NUMBERISH.match(x)]
    if strip[0] and set(strip[0]) == set(strip[1]):
        return "numeral written otherwise"
    if any(t is not None and title_agrees(got, t) for t in (prev, nxt)):
        return "shifted by one"
    return "other"


def _bucket(n: int) -> str:
    return "1" if n == 1 else "2-3" if n <= 3 else "4-10" if n <= 10 else ">10"


def classify(row: dict) -> tuple[str, list[str], list[str]]:
    """(main class, tags, title subclasses) of one failing row."""
    got, want = row.get("titles", []), row["truth_titles"]
    words, twords = row.get("words", []), row["truth_words"]
    tags: list[str] = []
    if not row.get("ok", True) and not got:
        return "crashed", tags, []
    if len(set(map(str.casefold, want))) < len(want) or any(w < 20 for w in twords[:-1]) \
            or any(_MATTER.search(t) for t in want) \
            or (sum(words) and abs(sum(twords) - sum(words)) > sum(words) / 3):
        tags.append("truth doubtful")
    subs: list[str] = []
    d = len(got) - len(want)
    if d == 0:
        main = "count right, titles differ"
        for i, (g, w) in enumerate(zip(got, want)):
            if not title_agrees(g, w):
                subs.append(_how_titles_differ(g, w, want[i - 1] if i else None,
                                               want[i + 1] if i + 1 < len(want) else None))
        return main, tags, subs
    main = "one chapter" if len(got) == 1 else f"{'over' if d > 0 else 'under'} by {_bucket(abs(d))}"
    pairs = align(got, want)
    if pairs:
        gi = [p[0] for p in pairs]
        ti = [p[1] for p in pairs]
        extra = sorted(set(range(len(got))) - set(gi))
        missing = sorted(set(range(len(want))) - set(ti))
        if any(i < gi[0] for i in extra):
            tags.append("extra at front")
        if any(i > gi[-1] for i in extra):
            tags.append("extra at back")
        if any(gi[0] < i < gi[-1] for i in extra):
            tags.append("extra inside")
        if any(j < ti[0] for j in missing):
            tags.append("missing at front")
        if any(j > ti[-1] for j in missing):
            tags.append("missing at back")
        if any(ti[0] < j < ti[-1] for j in missing):
            tags.append("missing inside")
    elif len(got) > 1:
        tags.append("no title agrees")
    # contents read as chapters: three or more short chapters in a row whose titles stand again later
    folded = [" ".join(norm_words(t)) for t in got]
    run = 0
    for i, t in enumerate(folded):
        again = t and t in folded[i + 1:] and i < len(words) and words[i] < 80
        run = run + 1 if again else 0
        if run >= 3:
            tags.append("contents read as chapters")
            break
    return main, tags, subs


def main(argv: list[str]) -> None:
    files = [a for a in argv if not a.startswith("--")]
    mains, tags, subs, books = Counter(), Counter(), Counter(), Counter()
    failing = total = 0
    for f in files:
        for row in json.loads(Path(f).read_text()):
            total += 1
            if row["exact"]:
                continue
            failing += 1
            m, t, s = classify(row)
            mains[m] += 1
            tags.update(t)
            tags.update([f"{m}: {x}" for x in t if x == "truth doubtful"])
            for x in set(s):
                books[x] += 1
            subs.update(s)
            if "--books" in argv:
                print(f"{Path(f).stem:>14} {row['key']:>6} {row.get('chapters'):>4}/{row['truth']:<4} {m}; "
                      f"{', '.join(t)}{'; ' + ', '.join(sorted(set(s))) if s else ''}")
    print(f"\n{failing} of {total} books not exactly right\n\n| class | books |\n| --- | ---: |")
    for m, n in mains.most_common():
        print(f"| {m} | {n} |")
    print("\n| tag | books |\n| --- | ---: |")
    for m, n in tags.most_common():
        print(f"| {m} | {n} |")
    print("\n| titles differ: how | books | titles |\n| --- | ---: | ---: |")
    for m, n in books.most_common():
        print(f"| {m} | {n} | {subs[m]} |")


if __name__ == "__main__":
    main(sys.argv[1:])
