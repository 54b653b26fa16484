"""Chapter headings of plain-text books under the conventions of printed fiction.

A plain text marks its chapters only by words and layout: "CHAPTER XXXI." (indented or not, "Chap.",
"Chapter the First", "Stave One"), a bare numeral line ("IV"), a named heading ("PREFACE."), parts above
them ("BOOK THE SECOND", "VOLUME I", "EPOCH THE THIRD"), a title line under the label, and blank lines
around it. The book's contents listing, when it has one, is the strongest evidence of which lines are
its chapters; without one the headings' repetition and layout decide (a bare numeral is a chapter only
in a sequence, and only where it stands apart as the others do: verse stanzas are numbered too).

The result is the text with each chapter heading rewritten as one "# Title" line (the title with its
subtitle, and the part when chapter numbers restart in each part), the contents listing taken out, and
what follows a closing "THE END" marked as back matter, for text.py to read as headings.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

#: A heading line's own words for chapters and for the parts above them.
_CHAPTER_WORDS = (r"chapter|chap\.?|stave|canto|letter|section|lesson|story|tale|adventure|episode|lecture|sermon|"
                  r"essay|sketch|fit|day|night|scene")
_PART_WORDS = r"book|part|volume|vol\.|epoch|period|act"
_UNITS = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen " \
         "sixteen seventeen eighteen nineteen".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth " \
            "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth".split()
_TENS_ORD = "twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth ninetieth".split()
_WORD_NUMBER = (r"(?:(?:" + "|".join(_TENS) + r")[\s-])?(?:" + "|".join(_UNITS + _ORDINALS) + r")|"
                + "|".join(_TENS + _TENS_ORD) + "|last|final")
_NUMBER = rf"(?:\d{{1,3}}|[IVXLCDM]{{1,8}}|{_WORD_NUMBER})"
#: "CHAPTER XXXI.", "Chapter the First", "CHAP. II.", "Stave One: Marley's Ghost", "BOOK THE SECOND".
_KEYWORD = re.compile(
    rf"^(?P<word>{_CHAPTER_WORDS}|{_PART_WORDS})\s+(?:the\s+)?(?P<num>{_NUMBER})\b(?P<rest>.*)$", re.I)
#: A numeral alone on its line: "IV", "IV.", "12".
_NUMERAL = re.compile(r"^(?P<num>[IVXLCDM]{1,8}|\d{1,3})\.?$")
#: A numeral and a name on one line: "I. The Period", "IV. HERO'S STORY".
_NUMBERED_TITLE = re.compile(r"^(?P<num>[IVXLCDM]{1,8}|\d{1,3})\.\s+(?P<name>\S.*)$")
#: Headings that name a part of the book rather than number it.
_NAMED = re.compile(
    r"^(?:preface|prologue|prelude|epilogue|finale|foreword|introduction|afterword|conclusion|postscript|"
    r"author's\s+preface|introductory|l'envoi|envoi|appendix)\b[\s.:]*(?P<rest>.*)$", re.I)
#: A numbered section's heading ("16.1. Authors"), never a chapter's title line.
_SECTION = re.compile(r"^\d+(?:\.\d+)+\.?\s")
_CONTENTS = re.compile(r"^(?:table\s+of\s+)?contents\.?$", re.I)
#: A contents entry: "  IV.  HERO'S STORY    55", "Chapter 4. Title", "VI  Title", "PREFACE ..... 1".
_ENTRY = re.compile(
    rf"^(?:(?P<word>{_CHAPTER_WORDS}|{_PART_WORDS})\s+(?:the\s+)?)?(?P<num>{_NUMBER})\b[.:]?"
    r"(?:(?:\s+|\s*[-\u2013\u2014]+\s*)(?P<name>.*?))?\s*$", re.I)
#: A page number at a contents line's end, set off by dot leaders or a column of spaces.
_PAGE = re.compile(r"(?:\s*\.{2,}\s*|\s{2,})(?:page\s+)?\d{1,4}\s*$", re.I)
#: "FIRST EPILOGUE: 1813 - 20", "SECOND PART": a part numbered by an ordinal before its word.
_ORDINAL_PART = re.compile(
    r"^(?P<num>" + "|".join(_ORDINALS + _TENS_ORD) + r"|last|final)\s+(?P<word>epilogue|part|book|volume|series)\b"
    r"(?P<rest>.*)$", re.I)
#: Where an entry starts inside a line of several: "CHAPTER XIII", "Chap. 4".
_ENTRY_WORD = re.compile(rf"\b(?:{_CHAPTER_WORDS})\s+(?:[IVXLCDM]{{1,8}}|\d{{1,3}})\b", re.I)
#: Column headings of a contents listing ("CHAPTER     PAGE").
_COLUMNS = re.compile(r"^(?:chapter|chap\.|page|part)(?:\s+(?:page|chapter))?\.?$", re.I)
#: Where the listing of contents ends: the next listing of the front matter.
_AFTER_CONTENTS = re.compile(r"^(?:list\s+of\s+|illustrations|plates|maps)", re.I)
_CLOSING = re.compile(r"^(?:the\s+end|finis|end)\.?$", re.I)
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
#: A heading's title line is short; a longer line is the chapter's first sentence.
_MAX_TITLE_WORDS = 12
_MAX_HEADING_WORDS = 14


@dataclass
class _Para:
    """A run of non-blank lines and the blank lines before it."""

    first: int
    lines: list[str]
    gap: int

    @property
    def text(self) -> str:
        return " ".join(ln.strip() for ln in self.lines)

    @property
    def last(self) -> int:
        return self.first + len(self.lines)


@dataclass
class _Heading:
    para: int
    kind: str  # "chapter", "part", "named"
    word: str
    number: int | None
    label: str
    subtitle: str = ""
    #: Paragraph index of the subtitle line, when it is a paragraph of its own.
    sub_para: int | None = None


def number_value(text: str) -> int | None:
    """Return the value of an Arabic, Roman or spelled number ("XIV", "14", "fourteenth"), None otherwise."""
    t = text.strip(" .").lower()
    if t.isdigit():
        return int(t)
    if t and all(c in _ROMAN for c in t):
        total = 0
        for a, b in zip(t, t[1:] + " "):
            v = _ROMAN[a]
            total += -v if b in _ROMAN and _ROMAN[b] > v else v
        return total if total > 0 else None
    words = re.split(r"[\s-]+", t)
    total = 0
    for w in words:
        if w in _UNITS:
            total += _UNITS.index(w) + 1
        elif w in _ORDINALS:
            total += _ORDINALS.index(w) + 1
        elif w in _TENS:
            total += 20 + 10 * _TENS.index(w)
        elif w in _TENS_ORD:
            total += 20 + 10 * _TENS_ORD.index(w)
        else:
            return None
    return total or None


def _paragraphs(lines: list[str]) -> list[_Para]:
    paras: list[_Para] = []
    gap = 0
    for n, line in enumerate(lines):
        if not line.strip():
            gap += 1
        elif paras and gap == 0:
            paras[-1].lines.append(line)
        else:
            paras.append(_Para(n, [line], gap if paras else 99))
            gap = 0
    return paras


def _clean(line: str) -> str:
    """Return a line without the underscores and equals signs Gutenberg uses for italics and bold."""
    return re.sub(r"\s+", " ", re.sub(r"(?<!\w)[_=]+|[_=]+(?!\w)", "", line)).strip()


def _keyword(text: str) -> re.Match | None:
    m = _KEYWORD.match(text) or _ORDINAL_PART.match(text)
    if not m or len(text.split()) > _MAX_HEADING_WORDS:
        return None
    rest = m.group("rest").strip()
    # "Chapter 12 began badly." is prose; a heading's rest is empty, set off, or in capitals.
    if rest and rest[0] not in ".:-\u2013\u2014" and not text.isupper():
        return None
    if number_value(m.group("num")) is None:
        return None
    return m


def _title_line(para: _Para | None) -> str:
    """Return a paragraph's text when it reads as a chapter's title line (short, a name not a sentence)."""
    if para is None or len(para.lines) > 2:
        return ""
    text = _clean(para.text)
    words = text.split()
    if not words or len(words) > _MAX_TITLE_WORDS or _keyword(text) or _NUMERAL.match(text) or _SECTION.match(text):
        return ""
    bare = text.strip("\"'\u201c\u201d\u2018\u2019 ")
    if not bare or bare[-1] in ",;!?" or (bare[-1] == ":" and not text.isupper()):
        return ""
    letters = [c for c in bare if c.isalpha()]
    if not letters:
        return ""
    # Title case leaves the small words in lower case ("Monseigneur in the Country").
    counted = [w for w in words if w.lower() not in _SMALL_WORDS] or words
    capitalised = sum(1 for w in counted if w[:1].isupper() or not w[:1].isalpha()) / len(counted)
    # A title is in capitals or title case; "It was night." is a sentence.
    if not bare.isupper() and (capitalised < 0.6 or (bare.endswith(".") and capitalised < 0.8)):
        return ""
    return text.rstrip(" .")


def _candidates(paras: list[_Para], lo: int) -> list[_Heading]:
    """Return every paragraph from lo on that reads as a heading, with the title line under it."""
    found: list[_Heading] = []
    for i in range(lo, len(paras)):
        p = paras[i]
        if len(p.lines) > 2:
            continue
        first = _clean(p.lines[0])
        second = _clean(p.lines[1]) if len(p.lines) == 2 else ""
        heading: _Heading | None = None
        if m := _keyword(first):
            word = m.group("word").lower().rstrip(".")
            part = m.re is _ORDINAL_PART or re.fullmatch(_PART_WORDS, word + ("." if word == "vol" else ""), re.I)
            kind = "part" if part else "chapter"
            word = {"chap": "chapter", "vol": "volume"}.get(word, word)
            heading = _Heading(i, kind, word, number_value(m.group("num")), first)
        elif m := _NUMERAL.match(first):
            heading = _Heading(i, "numeral", "", number_value(m.group("num")), first)
        elif (m := _NUMBERED_TITLE.match(first)) and not second and _title_line(_Para(0, [m.group("name")], 0)):
            # "I. The Period": the numeral and the chapter's name on one line.
            heading = _Heading(i, "numeral", "", number_value(m.group("num")), m.group("num"),
                               subtitle=_title_line(_Para(0, [m.group("name")], 0)))
            found.append(heading)
            continue
        elif (m := _NAMED.match(first)) and len(first.split()) <= 6 and not m.group("rest").strip(" .")[:1].islower():
            heading = _Heading(i, "named", first.split()[0].lower(), None, first)
        if heading is None:
            continue
        if heading.kind in ("chapter", "part") and m.group("rest").strip(" .:"):
            pass  # "Chapter 16. General information": named already; the next line is the text's
        elif second:
            if not _title_line(_Para(0, [second], 0)):
                continue  # a heading word opening a two-line sentence
            heading.subtitle = _title_line(_Para(0, [second], 0))
        elif i + 1 < len(paras) and (sub := _title_line(paras[i + 1])):
            heading.subtitle, heading.sub_para = sub, i + 1
        found.append(heading)
    return found


@dataclass
class _Entry:
    word: str
    number: int | None
    name: str
    #: An unnumbered entry ("PREFACE", "HISTORICAL NOTES"): a named heading, or a group label.
    label: str = ""
    #: A part above chapters ("Book the First", "FIRST EPILOGUE"), matched to part headings only.
    part: bool = False


def _contents(paras: list[_Para]) -> tuple[int, int, list[_Entry]]:
    """Return the paragraph range of the contents listing and its entries ((0, 0, []) when none).

    The listing follows a "CONTENTS" line, or (in older texts) stands near the top with no heading:
    a paragraph of three or more numbered entries, with the entry paragraphs just before it.
    """
    heads = [i for i, p in enumerate(paras) if len(p.lines) == 1 and _CONTENTS.match(_clean(p.text))]
    for i in heads:
        k, entries = _listing(paras, i + 1)
        if sum(1 for e in entries if e.number is not None) >= 2:
            return i, k, entries
    for i, p in enumerate(paras[: max(10, len(paras) // 5)]):
        parsed = [_entry(_clean(_PAGE.sub("", ln))) for ln in p.lines]
        if len(p.lines) >= 3 and all(isinstance(e, _Entry) and e.number is not None and e.name for e in parsed):
            while i > 0 and all(isinstance(_entry(_clean(_PAGE.sub("", ln))), _Entry) for ln in paras[i - 1].lines):
                i -= 1
            k, entries = _listing(paras, i)
            return i, k, entries
    return 0, 0, []


def _listing(paras: list[_Para], k: int) -> tuple[int, list[_Entry]]:
    """Return the index after a listing's last paragraph and its entries, reading from paragraph k."""
    entries: list[_Entry] = []
    widest = 0
    while k < len(paras):
        q = paras[k]
        lines = [part for ln in q.lines for part in _split_entries(_clean(_PAGE.sub("", ln)))]
        if _AFTER_CONTENTS.match(lines[0]):
            break
        parsed = [_entry(ln) for ln in lines]
        named = _entry_name(lines, entries)
        if named:
            entries[-1].name = named  # "CHAPTER I" / "Jonathan Harker's Journal   1": the entry's name below it
            k += 1
            continue
        if not all(parsed):
            break
        if len(entries) >= 2 and q.gap >= 3 and q.gap > widest:
            break  # set off wider than anything inside the listing: the book itself begins
        if entries:
            widest = max(widest, q.gap)
        entries.extend(e for e in parsed if isinstance(e, _Entry))
        k += 1
    return k, entries


def _entry_name(lines: list[str], entries: list[_Entry]) -> str:
    """Return a one-line paragraph as the name of the entry above it that has none ("" when it is not)."""
    if len(lines) != 1 or not entries or entries[-1].name or entries[-1].number is None or _entry(lines[0]):
        return ""
    name = lines[0].strip()
    return _title_line(_Para(0, [name], 0)) if len(name.split()) <= 8 else ""


def _split_entries(line: str) -> list[str]:
    """Return a contents line that lists several bare entries ("CHAPTER I CHAPTER II CHAPTER III") as one each."""
    starts = [m.start() for m in _ENTRY_WORD.finditer(line)]
    if len(starts) < 2 or starts[0] != 0:
        return [line]
    return [line[a:b].strip() for a, b in zip(starts, starts[1:] + [len(line)])]


def _entry(line: str) -> _Entry | bool | None:
    """Return a contents line as an entry, True for a column heading, None when it is no entry."""
    if _COLUMNS.match(line):
        return True
    if len(line) > 100:
        return None
    if m := _ORDINAL_PART.match(line):
        return _Entry(m.group("word").lower(), number_value(m.group("num")),
                      _clean(m.group("rest").strip(" .:-\u2013\u2014")), part=True)
    m = _ENTRY.match(line)
    if m and number_value(m.group("num")) is not None and (m.group("name") or m.group("word")):
        word = (m.group("word") or "").lower().rstrip(".")
        return _Entry({"chap": "chapter", "vol": "volume"}.get(word, word), number_value(m.group("num")),
                      _clean(m.group("name") or ""), part=bool(re.fullmatch(_PART_WORDS, word, re.I)) or word == "vol")
    label = line.strip()
    if label and len(label.split()) <= 8 and (label.isupper() or _NAMED.match(label)):
        return _Entry("", None, "", label=label.rstrip(" ."))
    return None


def _key(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.casefold().replace("'s", ""))


def _names_agree(a: str, b: str) -> bool:
    """Return whether two chapter names are the same one (a contents entry is often longer or shorter)."""
    ka, kb = set(_key(a)), set(_key(b))
    if not ka or not kb:
        return False
    return len(ka & kb) / min(len(ka), len(kb)) >= 0.6


class _Index:
    """Candidates and short paragraphs looked up by number and by words, so matching a listing of
    thousands of entries against thousands of headings stays linear (a hostile file is bounded too)."""

    def __init__(self, cands: list[_Heading], paras: list[_Para]) -> None:
        self.by_number: dict[tuple[bool, int | None], list[int]] = {}
        self.by_label: dict[tuple[str, ...], list[int]] = {}
        for n, c in enumerate(cands):
            if c.kind in ("part", "chapter", "numeral"):
                self.by_number.setdefault((c.kind == "part", c.number), []).append(n)
            self.by_label.setdefault(tuple(_key(c.label)), []).append(n)
        #: Each candidate's paragraph, in order.
        self.paras = [c.para for c in cands]
        self.short: dict[tuple[str, ...], list[int]] = {}
        for j, p in enumerate(paras):
            if len(p.lines) <= 2:
                self.short.setdefault(tuple(_key(p.text)), []).append(j)

    def fits(self, e: _Entry, pos: int, limit: int = 64) -> list[int]:
        """Return the indexes (from pos on, the first few) of candidates with the entry's number and kind."""
        # A part entry ("Book the First") is a part heading; a chapter entry a chapter or numeral.
        found = self.by_number.get((e.part, e.number), [])
        k = bisect.bisect_left(found, pos)
        return found[k:k + limit]

    @staticmethod
    def after(found: list[int], pos: int) -> int | None:
        k = bisect.bisect_left(found, pos)
        return found[k] if k < len(found) else None


def _name(c: _Heading) -> str:
    """Return the name a heading gives its chapter: its title line, or what follows its number."""
    m = _keyword(c.label)
    return c.subtitle or (m.group("rest").strip(" .:-\u2013\u2014") if m else "")


def _match_contents(entries: list[_Entry], cands: list[_Heading], paras: list[_Para]) -> list[_Heading]:
    """Return the headings of the body that the contents entries name, in order."""
    index = _Index(cands, paras)
    where = {id(c): n for n, c in enumerate(cands)}
    # For each entry, the next numbered entry after it (the bound of a heading named otherwise).
    following: list[_Entry | None] = [None] * len(entries)
    nxt: _Entry | None = None
    for i in range(len(entries) - 1, -1, -1):
        following[i] = nxt
        if entries[i].number is not None:
            nxt = entries[i]
    chosen: list[_Heading] = []
    pos = 0
    for i, e in enumerate(entries):
        if e.label:
            n = index.after(index.by_label.get(tuple(_key(e.label)), []), pos)
            hit = cands[n] if n is not None else None
            if hit is None:
                # A group label ("HISTORICAL NOTES.") stands as a line of its own, not a heading word.
                since = chosen[-1].para + 1 if chosen else (cands[0].para if cands else len(paras))
                idx = index.after(index.short.get(tuple(_key(e.label)), []), since)
                if idx is not None:
                    hit = _Heading(idx, "part", "", None, _clean(paras[idx].text))
                    chosen.append(hit)
                    pos = bisect.bisect_right(index.paras, idx)
                continue
        else:
            fits = index.fits(e, pos)
            named = [n for n in fits if e.name and _names_agree(_name(cands[n]), e.name)]
            unnamed = [n for n in fits if not (e.name and _name(cands[n]))]
            # A heading named otherwise than the entry ("Letter from Miss Mina Murray" for "Letters--Lucy
            # and Mina") is still this chapter when it comes before the next entry's; after it, it is a
            # later part's chapter of the same number.
            after = following[i]
            bound = (index.fits(after, pos, 1) or [len(cands)])[0] if after else len(cands)
            pick = (named or unnamed or [n for n in fits if n < bound] or [None])[0]
            if pick is None:
                continue
            hit = cands[pick]
            named_label = (m := _keyword(hit.label)) and m.group("rest").strip(" .:")
            if e.name and not hit.subtitle and not named_label:
                hit.subtitle = smart_title(e.name)  # the body numbers it; the contents names it
        chosen.append(hit)
        pos = where[id(hit)] + 1 if id(hit) in where else pos
    return chosen


def _beyond_listing(chosen: list[_Heading], cands: list[_Heading]) -> list[_Heading]:
    """Return the chapters with those a short listing leaves out: a prelude before, the numbering's rest and
    a finale after ("CHAPTER LXXXII." to "LXXXVI.", "FINALE." where the contents stops at LXXXI)."""
    numbered = [c for c in chosen if c.kind in ("chapter", "numeral") and c.number is not None]
    if not numbered:
        return chosen
    first, last = chosen[0].para, numbered[-1]
    extra = [c for c in cands if c.kind == "named" and (c.para < first or c.para > last.para)]
    number = last.number
    for c in cands:
        if c.para > last.para and c.kind == last.kind and c.word == last.word and c.number == number + 1:
            extra.append(c)
            number += 1
    return sorted({id(c): c for c in chosen + extra}.values(), key=lambda c: c.para)


def _by_layout(cands: list[_Heading]) -> list[_Heading]:
    """Return the headings that repetition and layout make chapters, where no contents listing names them."""
    keyword = [c for c in cands if c.kind in ("chapter", "part")]
    words = {}
    for c in keyword:
        words[c.word] = words.get(c.word, 0) + 1
    chapter_words = {w for w, n in words.items() if n >= 2}
    chosen = [c for c in keyword if c.word in chapter_words or (c.kind == "part" and chapter_words)]
    if not any(c.kind == "chapter" for c in chosen):
        chosen += _numeral_chain([c for c in cands if c.kind == "numeral"])
    if chosen:
        chosen += [c for c in cands if c.kind == "named"]
    return sorted(chosen, key=lambda c: c.para)


def _numeral_chain(nums: list[_Heading]) -> list[_Heading]:
    """Return the numeral lines that number chapters: a counting run (1, 2, 3 ...), set apart as widely."""
    if len(nums) < 3:
        return []
    chain: list[_Heading] = []
    for c in nums:
        if c.number == (chain[-1].number + 1 if chain else 1):
            chain.append(c)
        elif c.number == 1 and chain:
            chain.append(c)  # a new part numbers its chapters again
    return chain if len(chain) >= 3 else []


def _with_gaps(cands: list[_Heading], paras: list[_Para]) -> list[_Heading]:
    """Return numeral candidates set apart by at least the gap most of them have (stanza numbers are not)."""
    nums = [c for c in cands if c.kind == "numeral"]
    if not nums:
        return cands
    wide = [c for c in nums if paras[c.para].gap >= 2]
    if len(wide) >= 3 and len(wide) < len(nums):
        keep = {id(c) for c in wide}
        return [c for c in cands if c.kind != "numeral" or id(c) in keep]
    return cands


def _missing_first(chosen: list[_Heading], paras: list[_Para], lo: int) -> list[_Heading]:
    """Return the headings with the unheaded first chapter found when numbering starts at two.

    Old books often head the first chapter with the book's title instead of "Chapter I": it starts at
    the last short line before chapter two that stands as far apart as the chapter headings do.
    """
    numbered = [c for c in chosen if c.kind in ("chapter", "numeral")]
    if not numbered or numbered[0].number != 2:
        return chosen
    first = numbered[0]
    gap = min(paras[c.para].gap for c in numbered)
    if gap < 2:
        return chosen
    before = max((c.para for c in chosen if c.para < first.para), default=lo - 1)
    for j in range(first.para - 1, before, -1):
        p = paras[j]
        if p.gap >= gap and len(p.lines) <= 2 and len(p.text.split()) <= 8:
            head = _Heading(j, "chapter", first.word, 1, _clean(p.text))
            if j + 1 < len(paras) and (sub := _title_line(paras[j + 1])) and paras[j + 1].gap < gap:
                head.subtitle, head.sub_para = sub, j + 1
            return sorted(chosen + [head], key=lambda c: c.para)
    return chosen


#: Words title case leaves in lower case.
_SMALL_WORDS = frozenset("a an and as at but by for in of on or the to with from into upon nor".split())


def smart_title(text: str) -> str:
    """Return a heading in capitals as title case ("CHAPTER XXXI: THE LAST VOYAGE" -> "Chapter XXXI: The Last Voyage")."""
    if not text.isupper():
        return text
    small = _SMALL_WORDS
    out = []
    for n, word in enumerate(text.split()):
        core = word.strip(".,:;!?\"'()\u201c\u201d\u2018\u2019")
        if core and all(c in "IVXLCDM" for c in core) and (len(core) > 1 or core in "IVX"):
            out.append(word)  # a Roman numeral
            continue
        low = word.lower()
        if n and core.lower() in small and not out[-1].endswith((":", ".", "\u2014")) and any(
                ch.isalnum() for ch in out[-1]):
            out.append(low)
        else:
            i = next((k for k, ch in enumerate(low) if ch.isalpha()), 0)
            out.append(low[:i] + low[i:i + 1].upper() + low[i + 1:])
    return " ".join(out)


def _title(h: _Heading) -> str:
    label = h.label.rstrip(" .:")
    m = _KEYWORD.match(label)
    if m and m.group("rest").strip():
        # "CHAPTER II. The River": the label in title case, the name as the book has it.
        head = label[: m.start("rest")]
        label = smart_title(head) + (m.group("rest") if not m.group("rest").isupper() else smart_title(m.group("rest")))
    else:
        label = smart_title(label)
    return f"{label}: {smart_title(h.subtitle)}" if h.subtitle else label


def mark_headings(text: str) -> str:
    """Return the text with its chapter headings as "# Title" lines, or the text as it was when it has none."""
    lines = text.split("\n")
    paras = _paragraphs(lines)
    lo, hi, entries = _contents(paras)
    cands = _candidates(paras, hi)
    chosen: list[_Heading] = []
    listed = False
    if entries:
        chosen = _match_contents(entries, cands, paras)
        listed = sum(1 for c in chosen if c.number is not None) >= 0.6 * sum(
            1 for e in entries if e.number is not None)
        if listed:
            # A preface or introduction before the listing is the book's too.
            chosen = [c for c in _candidates(paras[:lo], 0) if c.kind == "named"] + chosen
            chosen = _beyond_listing(chosen, cands)
        else:
            chosen = []
    if not chosen:
        chosen = _missing_first(_by_layout(_with_gaps(cands, paras)), paras, hi)
    if len(chosen) < 2:
        return text
    out = list(lines)
    for j in range(lo, hi):
        for n in range(paras[j].first, paras[j].last):
            out[n] = ""
    _rewrite(out, paras, chosen)
    _mark_closing(out, paras, chosen)
    start = paras[chosen[0].para].first
    if listed and any(ln.strip() for ln in out[:start]):
        # Before the first chapter the contents names: title page, imprint, advertisements, dedication.
        out[0] = f"# {FRONT_MATTER}\n\n{out[0]}"
    return "\n".join(out)


def _rewrite(out: list[str], paras: list[_Para], chosen: list[_Heading]) -> None:
    """Write each heading as one "# Title" line; chapters under parts whose numbering restarts carry the part."""
    restarts = False
    last = 0
    for c in chosen:
        if c.kind == "part":
            continue
        if c.number is not None:
            if c.number == 1 and last >= 1:
                restarts = True  # back to one: each part numbers its own chapters (a misprint is no restart)
            last = c.number
    part: _Heading | None = None
    for n, c in enumerate(chosen):
        title = _title(c)
        if c.kind == "part":
            part = c
            nxt = chosen[n + 1] if n + 1 < len(chosen) else None
            end = paras[nxt.para].first if nxt else len(out)
            start = paras[c.sub_para if c.sub_para is not None else c.para].last
            has_body = any(ln.strip() for ln in out[start:end])
            if restarts and nxt is not None and nxt.kind != "part" and not has_body:
                _blank(out, paras, c)
                continue
        elif restarts and part is not None and c.kind != "named":
            title = f"{_title(part)}, {title}"
        elif c.kind == "named":
            part = None
        _blank(out, paras, c)
        out[paras[c.para].first] = f"# {title}"


def _blank(out: list[str], paras: list[_Para], c: _Heading) -> None:
    for j in (c.para, c.sub_para):
        if j is not None:
            for n in range(paras[j].first, paras[j].last):
                out[n] = ""


def _mark_closing(out: list[str], paras: list[_Para], chosen: list[_Heading]) -> None:
    """Head what follows the book's closing "THE END" line as back matter (publishers' lists, ads)."""
    last = paras[chosen[-1].para].first
    for p in paras:
        if p.first > last and len(p.lines) == 1 and _CLOSING.match(_clean(p.text)):
            rest = [ln for ln in out[p.last:] if ln.strip()]
            if rest:
                out.insert(p.last, "")
                out.insert(p.last + 1, f"# {BACK_MATTER}")
                out.insert(p.last + 2, "")
            return


#: The titles given to what precedes a book's listed chapters and follows its closing line (matter).
FRONT_MATTER = "Front matter"
BACK_MATTER = "Back matter"


def is_named_heading(text: str) -> bool:
    """Return whether a heading names a part of the book of its own ("PREFACE.", "Introduction")."""
    line = _clean(text)
    m = _NAMED.match(line)
    return bool(m) and len(line.split()) <= 6 and not m.group("rest").strip(" .")


def mark_back_matter(blocks: list) -> list:
    """Return HTML blocks with what follows the closing "THE END" after the last chapter headed as back matter."""
    from app.book.blocks import Block

    last = max((i for i, b in enumerate(blocks) if b.level == 1), default=None)
    if last is None:
        return blocks
    for i in range(last + 1, len(blocks)):
        if _CLOSING.match(_clean(blocks[i].text)) and i + 1 < len(blocks):
            return blocks[:i + 1] + [Block(BACK_MATTER, 1)] + blocks[i + 1:]
    return blocks


_LEADING = re.compile(rf"^(?:(?:{_CHAPTER_WORDS})\s+(?:the\s+)?)?(?P<num>{_NUMBER})\b", re.I)


def leading_number(title: str) -> int | None:
    """Return the number a chapter title starts with ("Chapter XII", "IV. The Mail", "Stave One"), None otherwise."""
    m = _LEADING.match(title.strip())
    return number_value(m.group("num")) if m else None


def numbering_restarts(titles: list[str]) -> bool:
    """Return whether chapter numbers go back to one partway through ("I" ... "VI", then "I" again)."""
    numbers = [leading_number(t) for t in titles]
    return any(n == 1 and any(numbers[:k]) for k, n in enumerate(numbers))
