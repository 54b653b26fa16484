"""Ground truth for the fetched corpus, read with the standard library only (no code of app/book).

- Standard Ebooks: the leaf entries of the book's own `toc.xhtml` nav (tests/literature/corpus.py's reader),
  SE's own pages left out.
- Gutenberg: the HTML edition's headings between the START and END markers. The chapter level is the
  heading level (h1-h4) with the most headings that are not matter (contents, illustrations, notes,
  index, transcriber's notes, the book's own title); each chapter's words are the text from its heading
  to the next heading at its level or above. Headings above the chapter level are its parts.
The .txt edition is held against this same truth (its HTML twin).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

#: Headings that are no chapter of the author's text: the book's own apparatus and Gutenberg's.
MATTER = re.compile(
    r"^(?:(?:(?:table of )?contents?(?: and (?:list of )?illustrations)?|(?:list of|index to) (?:the )?(?:[\w-]+ )?(?:illustrations|plates|maps|figures|engravings|"
    r"water-?colou?rs|drawings|pictures|photographs|portraits|sketches)(?: by .*)?|"
    r"illustrations)(?:\W*(?:(?:of|to|in) )?(?:the )?(?:vol\.?|volume) \w+)?|"
    r"footnotes?|(?:end ?)?notes|(?:general )?index(?: (?:of|to) [\w ]+)?|glossary(?: of .*)?|(?:other )?volumes in the same series|transcribers?'?s? notes?|"
    r"(?:the )?end|finis|advertisements|(?:new (?:&|and) )?(?:recent |other )?(?:books|works) by .*|errata|corrigenda|new (?:&|and) recent books|"
    r"by the same author.*|uniform with this (?:volume|series|edition).*|colophon|"
    r"the full project gutenberg license|.*project gutenberg.*)\W*$",
    re.I)


#: Round txt21: the same apparatus as MATTER by the names it missed on the development draws: an index of any kind
#: ("ALPHABETICAL INDEX.", "HISTORICAL INDEX", "SHORT INDEX OF SUBJECTS.", "INDEX TO CHAPS. I.-XXXIX.", "INDEX AND
#: GLOSSARY"), a list or table of the pictures or maps however it names them ("LIST OF MAPS AND FIGURES", "Table of
#: Illustrations.", "MAPS"), a contents named in German ("INHALTSVERZEICHNISS"). Both readers leave these out.
#: (Bibliographies, a "List of notes", "SKETCH MAPS AND PLANS" and a title page's heading over its imprint are
#: no chapters either, but the HTML reader still reads them as chapters: left to be corrected with it.)
_MORE_MATTER = re.compile(
    r"^(?!(?:the|a|an) )(?:[\w-]+ ){0,2}ind(?:ex|exes|ices)(?: (?:of|to|and) .*)?|"
    r"(?:(?:list|table) of (?:the )?(?:[\w-]+ )?)?(?:illustrations|plates|maps|figures|engravings|charts|diagrams)"
    r"(?: (?:and|&) (?:[\w-]+ )?(?:illustrations|plates|maps|figures|plans|charts|diagrams))?|"
    r"inhaltsverzeichnis+\W*$|"
    # Round txt26: a contents by a qualifying word ("ANALYTICAL TABLE OF CONTENTS.", "DETAILED CONTENTS") and the
    # pictures "in the text".
    r"(?:analytical|detailed|general|full|complete|synoptical) (?:table of )?contents|"
    r"(?:list|table) of (?:the )?(?:illustrations|plates|figures|maps)(?: (?:in|to) the text)",
    re.I)


def is_matter(text: str, more: bool = True) -> bool:
    """Return whether a heading is apparatus, not the author's text (curly apostrophes read as straight);
    `more=False` leaves out _MORE_MATTER's names (a book that is only its indexes is its indexes)."""
    text = text.replace("\u2019", "'")
    # Round txt26: a qualifier in brackets after the name ("LIST OF ILLUSTRATIONS. [Drawn by ...]", "List of
    # Pictures (JPEG)", "By A. B. (C. D.)") leaves it the apparatus it names.
    bare = _QUALIFIER.sub("", text)
    return any(bool(MATTER.match(t) or _BYLINE.match(t) or more and _MORE_MATTER.fullmatch(t.strip(" .:;,")))
               for t in {text, bare} if t)


#: A bracketed or parenthesised qualifier at a heading's end.
_QUALIFIER = re.compile(r"\s*[\[(][^\[\]()]*[\])]\W*$")


#: A by-line set as a heading ("By Henry James 1911", "BY A. CAHAN"): the title page's, no chapter.
_BYLINE = re.compile(r"^(?:By|BY) (?!THE\b|The\b)[A-Z][\w.]*(?: [A-Z][\w.]*){0,4}(?: \d{4})?\W*$")
#: Headings that open the author's text even before the contents: a preface, a first chapter unlisted.
_OPENING = re.compile(r"^\W*(?:(?:the |author'?s |translator'?s )?(?:prefa|forewor|introduct|prolog|note|dedicat)|"
                      r"(?:a )?(?:note )?to the reader|advertisement\b|announcement|proem|"
                      r"chapter|chap\.|book|part|letter|[IVXL]+\b|\d+\b)", re.I)
#: A heading that calls itself a chapter, numbered.
_CHAPTER_LABEL = re.compile(r"^\W*chapter\s+(?:[IVXLC]+|\d+|[a-z]+)\b\W*", re.I)
#: Words of the book trade: a publisher's list of other books prices them and names their formats and bindings.
_TRADE = re.compile(r"\b(?:cloth|12mo|16mo|18mo|24mo|8vo|4to|folio|net|price|prices|postpaid|post-paid|"
                    r"post free|gilt|sewed|boards|bound|binding|illustrated|illustrations|uniform|vols?|volumes?|"
                    r"edition|editions|publishers?|booksellers?|cents|each)\b|[$£]\s?\d|\b\d+s\.(?: ?\d+d\.)?", re.I)
_HEADING = {"h1": 1, "h2": 2, "h3": 3, "h4": 4}
_SKIP = frozenset({"script", "style"})


@dataclass
class Heading:
    level: int
    text: str
    words_after: int = 0  # words of text from this heading to the next heading of any level
    ids: set = field(default_factory=set)  # its id, ids inside it, and ids just before it
    trade: int = 0  # words of the book trade after it (prices, formats, bindings): a publisher's list's
    original_level: int = 0  # its level on the page (`level` is lowered where it labels the next heading)

    def __post_init__(self) -> None:
        self.original_level = self.original_level or self.level


@dataclass
class Truth:
    chapters: list[str]
    words: list[int] = field(default_factory=list)  # per chapter, [] when not measured (SE)
    parts: list[str] = field(default_factory=list)
    #: False when the HTML sets no heading at all (h1-h4): its chapters are unknown, not zero.
    known: bool = True


class _Headings(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.headings: list[Heading] = []
        self.started = False
        self.ended = False
        self._in: int | None = None
        self._text: list[str] = []
        self._skip = 0
        self._pagenum = 0  # depth inside a page-number span (its text is no heading's)
        self._note_tag = ""
        self._note_from = 0  # where the note's anchor text begins in the heading's text
        self._note = 0  # depth inside a note's anchor set in a heading (round html21: its mark is no word of it)
        self._carry = 0  # words of text since the pending ids (round html21: a half-title line does not drop them)
        self._alone = False  # the pending ids' paragraph ended before any words: an anchor standing on its own
        self._pending_ids: set[str] = set()  # ids seen since the last words of text
        self.hrefs: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in _SKIP:
            self._skip += 1
        if self._pagenum:
            self._pagenum += 1
        elif re.search(r"pagenum|pageno|page-num", a.get("class") or ""):
            self._pagenum = 1
        elif self._in is not None and (tag == "figcaption" or re.search(r"\bcaption\b", a.get("class") or "")):
            # A picture set in the heading with its caption ("THE MILL AT DUSK" over "CHAPTER VI", round html29):
            # the caption is the picture's, no word of the heading (the reader reads it as the picture's too).
            self._pagenum = 1
        if self._note and tag == self._note_tag:
            self._note += 1
        elif not self._note and self._in is not None and _is_note_anchor(tag, a):
            self._note, self._note_tag, self._note_from = 1, tag, len(self._text)
        if tag == "a" and (a.get("href") or "").startswith("#"):
            self.hrefs.add(a["href"][1:])
        for key in ("id", "name"):
            if a.get(key):
                if self._in is not None:
                    self._heading_ids.add(a[key])
                else:
                    if not self._pending_ids:
                        self._carry, self._alone = 0, False
                    self._pending_ids.add(a[key])
        if a.get("id") == "pg-footer" or a.get("id") == "pg-end-separator":
            self.ended = True
        if a.get("id") == "pg-start-separator" or a.get("id") == "pg-header" and False:
            self.started = True
        if tag in _HEADING and self.started and not self.ended:
            self._in, self._text = _HEADING[tag], []
            self._heading_ids = set(self._pending_ids)
        if tag == "br" and self._in is not None:
            self._text.append(" ")
        if tag == "img" and self._in is not None:
            self._text.append(" ")
        elif tag == "img":
            self._carry = _CARRY_WORDS + 1  # a picture's anchor names the picture: its caption drops it as before

    def handle_endtag(self, tag):
        if tag in ("p", "div") and self._pending_ids and not self._carry:
            self._alone = True
        if tag in _SKIP:
            self._skip = max(0, self._skip - 1)
        if self._pagenum:
            self._pagenum -= 1
        if self._note and tag == self._note_tag:
            self._note -= 1
            # the mark is dropped; a superscript of letters ("6<sup>th</sup>", "Aug<sup>st</sup>") is a word's own
            if not self._note and _NOTE_MARK.fullmatch("".join(self._text[self._note_from:]).strip()):
                del self._text[self._note_from:]
        if tag in _HEADING and self._in is not None:
            text = " ".join("".join(self._text).split())
            # A note's mark set in the heading ("THE WEIR [3]") is no word of its title (eighth round).
            text = re.sub(r"\s*\[(?:\d{1,3}[a-z]?|[*†‡§]+)\]", "", text).strip()
            # So is a link back to the contents set at its end ("CHAPTER II<a href=#toc>ToC</a>", round txt15).
            text = re.sub(r"(?<=\S)\s*\[?(?:ToC|[Bb]ack to (?:the )?(?:[Tt]able of )?[Cc]ontents)\]?$", "", text)
            if text:
                self.headings.append(Heading(self._in, text, ids=self._heading_ids))
            self._in = None
            self._pending_ids = set()

    def handle_data(self, data):
        if self._skip or self._pagenum:
            return
        if data.strip() and self._in is None:
            self._carry += len(data.split())
            if not self._alone or self._carry > _CARRY_WORDS or not all(_carries(i) for i in self._pending_ids):
                self._pending_ids = set()
        if not self.started and re.search(r"\*\*\*\s*START OF (?:THE|THIS) PROJECT GUTENBERG", data, re.I):
            self.started = True
            return
        if self.started and re.search(r"\*\*\*\s*END OF (?:THE|THIS) PROJECT GUTENBERG", data, re.I):
            self.ended = True
        if not self.started or self.ended:
            return
        if self._in is not None:
            self._text.append(data)
        elif self.headings:
            self.headings[-1].words_after += len(re.findall(r"[^\W_]+(?:['’][^\W_]+)*", data))
            self.headings[-1].trade += len(_TRADE.findall(data))


#: Round html21: a contents link's target set on its own before a half-title or a part's line over the heading it
#: names ("<p><a id=x></a></p><p>THE BOOK'S TITLE</p>" then "<h2>PART ONE</h2><h3>FIRST POEM</h3>") still names that
#: heading: its ids carry over a line of this many words at most (an anchor inside a paragraph names the paragraph). A page's or a note's anchor carries none (an index's link to
#: a page, a note's back-link name no heading).
_CARRY_WORDS = 6
_NOT_CARRIED = re.compile(r"^(?:page|pg|p)[_-]?(?:\d+|[ivxlc]+)$|^(?:fn|foot|note|fnanchor|ref)", re.I)


def _carries(ident: str) -> bool:
    return not _NOT_CARRIED.match(ident)


#: What a note's mark reads: a number, a letter in brackets, an asterisk or a dagger.
_NOTE_MARK = re.compile(r"\[?(?:\d{1,3}|[*†‡§]+)\]?|\[[a-z]\]|\((?:\d{1,3}|[*†‡§]+)\)", re.I)


def _is_note_anchor(tag: str, attrs: dict) -> bool:
    """A note's mark set in a heading ("GLOSSARY<a class=fnanchor href=#Footnote_3>3</a>", "<sup>[2]</sup>") is no
    word of its title (round html21): its anchor names a note by its class or its target, or is a superscript
    number."""
    cls, href = attrs.get("class") or "", attrs.get("href") or ""
    if tag == "a" and (re.search(r"fnanchor|footnote|noteref", cls, re.I) or re.match(r"#(?:fn|foot|note)", href, re.I)):
        return True
    return tag == "sup"


def gutenberg_truth(html: Path, book_title: str = "") -> Truth:
    raw = html.read_bytes()
    m = re.search(rb'charset=["\']?([\w-]+)', raw[:4000])
    try:
        text = raw.decode(m.group(1).decode() if m else "utf-8")
    except (LookupError, UnicodeDecodeError):
        text = raw.decode("latin-1")
    parser = _Headings()
    parser.feed(text)
    parser.close()
    if not parser.headings:
        return Truth([], known=False)
    truth = _truth(parser, book_title, True)
    # Round txt21: a book that is nothing but its indexes or lists (an index volume) is what it lists, as the
    # app reads a file of notes: _MORE_MATTER's names are matter only where other chapters remain.
    return truth if truth.chapters else _truth(parser, book_title, False)


def _truth(parser: _Headings, book_title: str, more: bool) -> Truth:
    for h in parser.headings:
        h.level = h.original_level  # a label's level is lowered below; each reading starts from the page's
    heads = [h for h in parser.headings if not is_matter(h.text, more)]
    title_words = _words(book_title)
    heads = [h for h in heads if not (title_words and _words(h.text) == title_words)]
    if not heads:
        return Truth([])
    # The contents' links name the chapter level where they point at headings; else the commonest level.
    linked = [h for h in heads if h.ids & parser.hrefs]
    linked_counts = Counter(h.level for h in linked)
    # Sixth round: the links name the level only when at least three of them point at one level (one link
    # each at the title, an index and a day of a diary names none), and a level whose headings call
    # themselves chapters ("Chapter IV.") is the chapter level even when the links reach its sections too.
    if linked and max(linked_counts.values()) < 3:
        linked = []
    counts = Counter(h.level for h in (linked if len(linked) >= 3 else heads))
    level = max(counts, key=lambda lv: (counts[lv], -lv))
    labelled = Counter(h.level for h in heads if _CHAPTER_LABEL.match(h.text))
    if labelled and max(labelled.values()) >= 3:
        level = max(labelled, key=lambda lv: (labelled[lv], -lv))
    # A listed heading with no words of its own, followed at once by an unlisted heading at its level, is
    # a label whose name (or lead) is set as a heading of its own: the second is part of the first's chapter.
    for a, b in zip(parser.headings, parser.headings[1:]):
        if (a.level == level == b.level and a.ids & parser.hrefs and a.words_after < 5
                and not b.ids & parser.hrefs and not is_matter(b.text, more) and not _OPENING.match(b.text)):
            b.level = level + 1
    # Title-page headings ("BY", the author, the publisher) carry no text of their own.
    heads = [h for h in heads if not (h.level == level and _section_words(parser.headings, h, level) < 20
                                      and not h.ids & parser.hrefs)]
    # A listed heading with no words of its own before the next at its level labels what follows (a part
    # "BOOK FIRST" over "I", a "Chapter II." over its title set as a heading of its own): no chapter.
    heads = [h for h in heads if not (h.level == level and h.ids & parser.hrefs
                                      and _section_words(parser.headings, h, level) < 5)]
    if len(linked) >= 3:
        # Unlisted headings before the first listed one (and before the contents) are the title page's.
        first = parser.headings.index(linked[0])
        contents = next((n for n, h in enumerate(parser.headings) if re.match(r"(?:table of )?contents", h.text, re.I)),
                        first)
        heads = [h for h in heads if h.ids & parser.hrefs or parser.headings.index(h) > min(first, contents)
                 or _OPENING.match(h.text)]
    chapters: list[str] = []
    words: list[int] = []
    trade: list[int] = []
    parts: list[str] = []
    part = ""
    # A heading above the chapter level with text of its own and no chapter before the next heading at its
    # level or above (a preface set as a part, a book's one essay before its appendix) is a chapter itself.
    whole = set()
    for n, h in enumerate(parser.headings):
        if h.level < level and h in heads and h.words_after >= 100:
            nxt = next((x for x in parser.headings[n + 1:] if x.level <= h.level or x.level == level and x in heads),
                       None)
            if nxt is None or nxt.level <= h.level:
                whole.add(id(h))
    for h in parser.headings:
        if id(h) in whole:
            chapters.append(h.text)
            words.append(h.words_after)
            trade.append(h.trade)
            continue
        if h.level < level and h in heads:
            part = h.text
            parts.append(part)
            continue
        if h.level == level and h in heads:
            chapters.append(h.text)
            words.append(h.words_after)
            trade.append(h.trade)
        elif h.level > level and chapters and not is_matter(h.text, more):
            words[-1] += h.words_after + len(h.text.split())
            trade[-1] += h.trade
        elif h.level <= level:
            # matter at chapter level ends the chapter before it
            pass
    # Round txt19: a publisher's list of other books after the text ("WORKS BY THE SAME AUTHOR.", a series'
    # name over its titles and prices) is matter like "Uniform with this volume", however its heading reads:
    # the chapters that end the book and are named as a list of books or priced as one are no chapters.
    while len(chapters) > 1 and _publishers_list(chapters[-1], words[-1], trade[-1]):
        del chapters[-1], words[-1], trade[-1]
    # Round txt26: a publisher's catalogue in several sections ("MESSRS. X'S PUBLICATIONS." then "New Novels.",
    # "Popular Fiction." ...): from a heading that names a catalogue on, every short section near the end is
    # the catalogue's, whatever its own heading says.
    for n in range(1, len(chapters)):
        rest = words[n:]
        if (_CATALOGUE.search(chapters[n]) and all(w < 4000 for w in rest)
                and sum(rest) < 0.25 * sum(words)):
            del chapters[n:], words[n:], trade[n:]
            break
    return Truth(chapters, words, parts)


#: How a publisher's list of other books names itself: their series, library, catalogue, announcements.
_PUBLISHERS = re.compile(r"\b(?:publications|catalogue|announcements|series|library|libraries|works|books|"
                         r"editions|novels|stories|handbooks|in preparation|now ready|just published|"
                         r"men of letters)\b", re.I)


#: The names a publisher's catalogue gives itself, and no chapter of a book's own (narrower than _PUBLISHERS).
_CATALOGUE = re.compile(r"\b(?:publications|catalogue|announcements|in preparation|now ready|just published)\b", re.I)


def _publishers_list(title: str, words: int, trade: int) -> bool:
    """A section that names itself a list of books, or is priced as one (its trade words one in twenty); a
    list is short (a book's own long list of names, priced or dated, is its text)."""
    return words < 4000 and (bool(_PUBLISHERS.search(title)) or words >= 20 and trade >= 0.05 * words)


def _section_words(all_heads: list[Heading], h: Heading, level: int) -> int:
    i = all_heads.index(h)
    total = h.words_after
    for later in all_heads[i + 1:]:
        if later.level <= level:
            break
        total += later.words_after
    return total


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.casefold())
