"""Dialogue set with a leading dash instead of quotation marks: "—Go away, he said.", "--Go away, he said."

Many translations and plain-text editions open each spoken paragraph with an em dash (a double hyphen where
the typesetter had no dash) and use no quotation mark at all. The paragraph is then speech from its dash to
the tag, and the tag is found where it would follow a closing quotation mark: after a comma, a question or
an exclamation mark ("—Go away, he said."), or after a second dash ("—Go away — he said — now."). Dashes
also cut a speech inside, as in any English book ("—I was going — but never mind."): only a dash followed by
a tag, or by a lower-case incise that another dash closes ("— Привет, — сказал он. — Как дела?"), or
attached to the word after it ("—Hola —dijo Juan—."), opens narration.
"""
from __future__ import annotations

import re

from app.cast.tags import tag_after_end

#: The dash characters that open a line of dialogue in French, Spanish, Russian... books.
DASHES = "\u2014\u2013\u2015"
#: One dash: a run of dash characters, or of two or three hyphens (a plain-text edition's em dash).
_TOKEN = re.compile(r"[\u2014\u2013\u2015]+|(?<!-)-{2,3}(?!-)")
#: Where a tag may start in the speech of a dash paragraph: after ", " "? " "! " as after a closing mark.
_TAG_POINT = re.compile(r"[,?!](?=\s)")
#: The end of a tag's clause; the speech resumes after it ("—The mockery of it! he said gaily. Your name...").
_CLAUSE_END = re.compile(r"[.,!?;:]")
#: Words after "he said," that go on narrating, not speaking ("he said, and left", "he said, as he rose").
_NARRATING = frozenset("and as while with then when without before after looking turning".split())
_WORD = re.compile(r"\w+")
#: A tag clause longer than this many words past its subject is narration running on, not a tag.
_TAG_TAIL_WORDS = 3


def opening_dash(text: str) -> int:
    """Return the length of the dash that opens a paragraph (0 when none: a rule line "----" is no dash)."""
    m = _TOKEN.match(text)
    return m.end() if m and _WORD.search(text, m.end()) else 0


#: A typewriter's "--" also leads an index's ditto entries ("-- Duke of, 326.") and a dictionary's run-on
#: forms: "--"-led paragraphs are dialogue only when at least this share of them has a speech tag in it.
_TAGGED_SHARE = 0.1


def dialogue_dashes(dash_led: list[str]) -> int:
    """Return how many of a book's dash-led paragraphs count as dialogue: every dash-led one, but those led by
    "--" only when enough of them carry a tag (the speech stops before the paragraph's end)."""
    hyphens = [p for p in dash_led if p.startswith("-")]
    tagged = sum(1 for p in hyphens if (spans := dash_quotes(p)) and spans[0][1] < len(p))
    return len(dash_led) - (len(hyphens) if tagged < max(1, _TAGGED_SHARE * len(hyphens)) else 0)


def _spaced(text: str, start: int, end: int) -> bool:
    """Return whether a dash stands apart from the word before or after it (a cut, not a hyphen)."""
    return start == 0 or text[start - 1].isspace() or (end < len(text) and (text[end].isspace() or text[end] in ".,;"))


def _incise(text: str, start: int, end: int, tokens: list[re.Match]) -> bool:
    """Return whether a dash opens a narration incise with no English tag: a lower-case word after it that a
    later dash closes ("— сказал он. —"), or one attached to the dash after a space ("—Hola —dijo Juan")."""
    word = _WORD.search(text, end)
    if word is None or not word.group()[0].islower() or not _spaced(text, start, end):
        return False
    closes = any(t.start() > end and _spaced(text, t.start(), t.end()) for t in tokens)
    attached = start > 0 and text[start - 1].isspace() and end < len(text) and text[end].isalpha()
    return closes or attached


def _next_break(text: str, at: int, tokens: list[re.Match]) -> tuple[int, int, bool] | None:
    """Return (where the speech stops, where the narration begins, whether a tag opens it), from at on."""
    points = [t for t in tokens if t.start() >= at] + list(_TAG_POINT.finditer(text, at))
    for m in sorted(points, key=lambda m: m.start()):
        if m.group()[0] in ",?!":
            if tag_after_end(text[m.end():]) is not None:
                return m.end(), m.end(), True
        elif tag_after_end(text[m.end():]) is not None:
            return m.start(), m.start(), True
        elif _incise(text, m.start(), m.end(), tokens):
            return m.start(), m.start(), False
    return None


def _resume(text: str, at: int, tagged: bool, tokens: list[re.Match]) -> int | None:
    """Return where the speech goes on after the narration that starts at at, None when the rest is narration."""
    token = next((t for t in tokens if t.start() == at), None)
    body = token.end() if token else at
    later = [t for t in tokens if t.start() >= body and _spaced(text, t.start(), t.end())]
    if not tagged:
        return later[0].start() if later else None
    end = body + (tag_after_end(text[body:]) or 0)
    stop = _CLAUSE_END.search(text, end)
    closing = next((t for t in tokens if t.start() >= end), None)
    if closing is not None and (stop is None or closing.start() < stop.start()):
        if token is not None:
            # A dash opened the tag: the next dash, spaced or not, closes it ("--Go away--he said--now.").
            return closing.start() if len(_WORD.findall(text[end:closing.start()])) <= _TAG_TAIL_WORDS else None
        stop = closing  # after "—Go away, he said" a dash ends the tag's clause as a comma does
    if stop is None or len(_WORD.findall(text[end:stop.start()])) > _TAG_TAIL_WORDS:
        return None
    rest = text[stop.end():]
    first = _WORD.search(rest)
    if first is None:
        return None
    if stop.group() not in ".!?;:" and (first.group().lower() in _NARRATING or first.group().endswith("ing")):
        return None  # "he said, and left", "he said--turning away"
    return stop.end() + first.start() - (1 if rest[:first.start()].strip()[-1:] in "\u00bf\u00a1" else 0)


def dash_quotes(text: str) -> list[tuple[int, int, bool]]:
    """Return (start, end, closed) of the spoken parts of a paragraph that opens with a dialogue dash."""
    if not opening_dash(text):
        return []
    tokens = list(_TOKEN.finditer(text))
    found: list[tuple[int, int, bool]] = []
    start = 0
    while True:
        skip = next((t.end() for t in tokens if t.start() == start), start)
        cut = _next_break(text, skip, tokens)
        if cut is None:
            found.append((start, len(text), True))
            return found
        found.append((start, cut[0], True))
        resumed = _resume(text, cut[1], cut[2], tokens)
        if resumed is None or resumed <= start:
            return found
        start = resumed


def spoken_text(text: str, start: int, end: int) -> str:
    """Return a dash paragraph's spoken part without its dashes ("—. ¿Qué tal?": the stop ends the tag)."""
    return text[start:end].lstrip(DASHES + "-").lstrip(" .,;").rstrip(" " + DASHES + "-")
