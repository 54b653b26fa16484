"""A Gutenberg HTML title page set in chapter-level headings: the title, the author, a society's name.

Many HTML editions set every line of the title page as a heading (<h1> the title, <h2> the author, <h2>
the publisher) at the level of the chapters; each carries a line or two and no text of its own. Before the
book's first heading with text of its own, such a heading is the title page's, no chapter (the title page
is read as front matter, or not, as the options say).
"""
from __future__ import annotations

import re

from app.book.narration.cleanup import is_apparatus_title, is_matter_title
from app.book.formats.htmllisting import is_publishers_list
from app.book.formats.htmltitle import holds_title, names_title, is_title_page
from app.book.normalize import clean_text
from app.book.structure.blocks import UNLISTED_MIN_WORDS, Block, body_words, names_the_book, split_level
from app.book.structure.headings import FRONT_MATTER
from app.book.structure.lines import KEYWORD, NUMERAL, is_named_heading

#: "PREFACE TO THE FIRST EDITION.", "Introduction to the Second Edition": an edition's own preface.
_EDITION_PREFACE = re.compile(r"^(?:preface|introduction|foreword)\s+to\s+the\s+\w+\s+edition\W*$", re.I)

#: A preface by another name: "PREFATORY NOTE.", "Introductory Remarks", "TRANSLATOR'S NOTE.", "The Editor's
#: Introduction", "To the Reader", "Proem".
_PREFACE_BY_NAME = re.compile(
    r"^(?:(?:the\s+)?(?:author|editor|translator|compiler)s?['\u2019]s?\s+(?:preface|note|notes|introduction|"
    r"foreword|remarks|apology)|(?:prefatory|preliminary|introductory|explanatory|biographical)\s+(?:note|notes|remarks|"
    r"chapter|letter|sketch|essay|memoir)|(?:a\s+)?note\s+to\s+the\s+reader|to\s+the\s+reader|proem|"
    # A preface for its readers or by its writer: "FOREWORD FOR INSTRUCTORS.", "Preface by the Translator".
    r"(?:an?\s+)?(?:preface|foreword|introduction)\s+(?:for|by)\s+[\w .,'\u2019-]{1,40}|"
    r"(?:preface|foreword)\s+to\s+the\s+(?:reader|readers|student|teacher)s?|"
    # A preface set with what goes with it: "PREFACE AND DEDICATION.", "Introduction and Acknowledgments".
    r"(?:preface|foreword|introduction)\s+(?:and|&)\s+(?:dedication|acknowledg(?:e)?ments?|preface|introduction))\W*$", re.I)


def opens_text(heading: str) -> bool:
    """Return whether a heading before the listed chapters opens text of the book's own (a preface)."""
    text = clean_text(heading)
    return is_named_heading(heading) or bool(_EDITION_PREFACE.match(text) or _PREFACE_BY_NAME.match(text))


#: A heading with fewer words than this under it (up to the next heading at its level) has no text of its
#: own: a title page's line. A chapter, a preface or a poem has more.
_MIN_OWN_WORDS = 20


def without_title_headings(blocks: list[Block], listed: bool = False) -> list[Block]:
    """Return the blocks with the chapter-level headings before the first one with text of its own read as
    the title page's lines (level 0), and later ones with a line or two under them read as text of the
    chapter they close, unless they name a chapter, a part, a preface or matter ("CHAPTER I", "BOOK II",
    "IV.", "Introduction", "Notes"), which keep their place. `listed`: the book's contents named its chapters."""
    level = split_level(blocks)
    if level is None:
        return blocks
    heads = [k for k, b in enumerate(blocks) if b.level == level]
    ends = [next((j for j in range(k + 1, len(blocks)) if 0 < blocks[j].level <= level), len(blocks)) for k in heads]
    owns = [body_words(blocks[k + 1:end]) for k, end in zip(heads, ends)]
    if listed or 2 * sum(1 for own in owns if own >= _MIN_OWN_WORDS) < len(heads):
        # Where the book's contents named the chapters, every heading at their level is one it named; a book
        # of short pieces (a few lines each) is divided by its headings, however short.
        return blocks
    out = list(blocks)
    leading = True
    bare: list[int] = []  # title-page headings with nothing under them
    for k, end, own in zip(heads, ends, owns):
        text = clean_text(blocks[k].text)
        if is_matter_title(text) or is_apparatus_title(text):
            continue  # the notes, the contents, an index: matter, read or left out as the options say
        if opens_text(text) or KEYWORD.match(text) or NUMERAL.match(text):
            leading = False
            continue
        if own >= _MIN_OWN_WORDS:
            leading = False
            continue
        # Past the first text, an unlisted heading with a line or two under it and another heading straight
        # after (a letter's signature, a date line, a motto set as a heading) is text of the chapter it
        # closes; a heading alone (a part's label over its chapters) is left to title the next.
        # A heading with nothing under it but the next heading titles that one (a piece's title over its
        # "I"), unless the next is a title page's line too.
        if own and (leading or end < len(blocks)):
            b = blocks[k]
            out[k] = Block(b.text, 0, b.ids, b.kind, b.links)
        elif leading and not own:
            bare.append(k)
    for k in reversed(bare):
        nxt = next((j for j in heads if j > k), None)
        if nxt is not None and not out[nxt].level:
            out[k] = Block(blocks[k].text, 0, blocks[k].ids, blocks[k].kind, blocks[k].links)
    return out


#: A contents listing's own heading ("CONTENTS.", "Table of Contents"), a volume's too ("CONTENTS OF VOL. V.",
#: "Contents to the Second Volume").
_CONTENTS_HEAD = re.compile(r"^(?:table\s+of\s+)?contents(?:\s+(?:of|to)\s+(?:the\s+)?(?:vol(?:ume)?\.?\s*[\w.]+|"
                            r"\w+\s+volume))?\W*$", re.I)
#: The contents heading opens the book's front, not its back: it stands in the first part of the words.
_FRONT_SHARE = 0.2
#: A heading before the contents with this many words of its own is a preface by a name of its own
#: ("FOREWORDS", "TO MY READERS"), no title page's line: a title page, its verso and a dedication are shorter.
_MAX_FRONT_WORDS = 300
#: Lines without a link among a contents' entries (an entry whose link was lost, a label) before it ends.
_MAX_UNLINKED = 2
#: A contents table's row whose page cell is a dash ("1688; Assembled at the heath; –"): an entry on the
#: page of the one before, no link of its own, and no end of the listing however many follow.
_NO_PAGE_ROW = re.compile(r";\s*[-\u2013\u2014]{1,3}\s*$")
#: Entries (lines with in-page links) that must follow a contents heading within a few blocks.
_MIN_LINKED = 3


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", clean_text(text).casefold())) + " "


def without_pre_contents_headings(blocks: list[Block]) -> list[Block]:
    """Return the blocks with the headings before the book's contents read as the title page's lines (level 0),
    unless they open a text ("PREFACE", "CHAPTER I", "Introduction"), and the contents itself left out.

    The contents follows the title page, its verso and a dedication: whatever heading stands before it (the
    compiler's name over the publisher's imprint, a society's name, the title set over a motto) is the front's,
    unless a page or more of text stands under it (a preface by a name of its own). Only where the contents
    heading is followed by its entries (lines with in-page links) and stands in the first fifth of the book's
    words; used where no listing divided the book."""
    total = sum(len(b.text.split()) for b in blocks)
    seen = 0
    at = None
    for i, b in enumerate(blocks):
        if b.level and _CONTENTS_HEAD.match(clean_text(b.text)):
            linked = sum(1 for x in blocks[i + 1:i + 1 + 2 * _MIN_LINKED] if x.links)
            if linked >= _MIN_LINKED:
                at = i
            break
        seen += len(b.text.split())
        if seen > _FRONT_SHARE * total:
            break
    if at is None:
        return blocks
    level = split_level(blocks)
    if level is None:
        return blocks
    # The contents itself is never read: its heading and its entries (lines linked further on, a line or two
    # whose link was lost between them), however long each entry (a chapter's synopsis).
    listing = {at}
    gap = 0
    for k in range(at + 1, len(blocks)):
        if blocks[k].level:
            break
        if blocks[k].links or _NO_PAGE_ROW.search(blocks[k].text):
            listing.update(range(k - gap, k + 1))
            gap = 0
        elif gap == _MAX_UNLINKED:
            break
        else:
            gap += 1
    # Every heading before the contents at the dividing level or the one below: a title page sets the
    # author's name and the publisher's at the level of the chapters below a title set above it (they become
    # chapters once the book is divided at that level).
    heads = [k for k in range(at) if 0 < blocks[k].level <= level + 1]
    ends = [next((j for j in range(k + 1, at) if 0 < blocks[j].level <= max(level, blocks[k].level)), at)
            for k in heads]
    # A heading the contents names is a piece of the book set before it (a first story the title page
    # runs into), no title page's line; unless a heading of its words stands again after the contents (a
    # book named after its first piece: the title page's title, then the piece's own heading).
    entries = [_words(blocks[k].text) for k in listing if blocks[k].links]
    later = {_words(b.text) for b in blocks[at + 1:] if b.level}
    front = {k for k, end in zip(heads, ends)
             if not opens_text(blocks[k].text) and body_words(blocks[k + 1:end]) < _MAX_FRONT_WORDS
             and (_words(blocks[k].text) in later or not any(e.startswith(_words(blocks[k].text)) for e in entries))}
    return [Block(b.text, 0, b.ids, b.kind, b.links) if i in front else b
            for i, b in enumerate(blocks) if i not in listing]


#: A half-title's own words (a dedication, a motto, a portrait's caption) are fewer than a page's.
_HALF_TITLE_WORDS = 150


def _words_key(text: str) -> str:
    return " ".join(re.findall(r"\w+", clean_text(text).casefold().replace("&", " and ")))


def without_half_title(blocks: list[Block], starts: dict[int, str], min_entries: int) -> dict[int, str]:
    """Return the starts without a first entry that is the book's half-title: its heading repeats a heading
    of the title page before it ("THE LIFE OF ANN LEE" over the contents, then again over "EARLY YEARS"), and
    it stands above the level of every other listed heading, the one heading at its level. Listed as the
    first line of the contents, it titles the whole book, no chapter of it (its few lines of dedication or
    motto are read with the front matter). Not when a page of text or more stands under it."""
    first = min(starts)
    level = blocks[first].level
    others = [blocks[k].level for k in starts if k != first]
    if not level or len(others) < min_entries or not all(lv > level for lv in others):
        return starts
    nxt = min(k for k in starts if k != first)
    if sum(len(b.text.split()) for b in blocks[first + 1:nxt] if not b.level) >= _HALF_TITLE_WORDS:
        return starts  # an introduction under the book's title: text of its own, a chapter
    key = _words_key(blocks[first].text)
    # (The title page's line may be read as text by then: a title over a by-line is.)
    if not key or not any(not blocks[k].links and _words_key(blocks[k].text) == key for k in range(first)):
        return starts
    return {k: t for k, t in starts.items() if k != first}


#: A paragraph this long is prose; a title page, its verso, a publisher's list and a dedication are set in
#: shorter lines.
_PROSE_WORDS = 40


def without_title_preamble(blocks: list[Block], book_title: str) -> list[Block]:
    """Return the blocks with a title page before the first chapter headed as front matter.

    Where no contents listing divided the book, the text before its first heading at the dividing level is
    read as a first chapter when it is long. Headed by the book's own title set above that level, and made
    of short lines only (the title, a by-line, the imprint, the publisher's list of the author's other
    books, a dedication), it is the title page and what goes with it, not text."""
    level = split_level(blocks)
    first = next((i for i, b in enumerate(blocks) if level and b.level == level), None)
    if not first:
        return blocks
    heads = [b for b in blocks[:first] if b.level]
    if not heads or heads[0].level >= level or not _titles_the_book(clean_text(heads[0].text), book_title):
        return blocks
    if any(opens_text(b.text) for b in heads) or any(
            not b.level and len(b.text.split()) >= _PROSE_WORDS for b in blocks[:first]):
        return blocks
    return [Block(FRONT_MATTER, level)] + blocks


#: A publisher's catalogue is a list: a book's title, its price, its edition, each a short line of its own.
_LIST_LINE_WORDS = 10


def without_publishers_preamble(blocks: list[Block], book_title: str) -> list[Block]:
    """Return the blocks with what stands before the title page under no heading headed as front matter, where
    it is a list (most of its lines short: titles, prices, editions, with a press notice or two between) and
    the book's first heading is its title: the publisher's catalogue old editions bound in before the title
    page. Read as the text before the first heading, it became a first chapter. A preface set before the
    title in paragraphs of prose is left as it was."""
    head = next((i for i, b in enumerate(blocks) if b.level), None)
    if not head or not _titles_the_book(clean_text(blocks[head].text), book_title):
        return blocks
    short = sum(1 for b in blocks[:head] if len(b.text.split()) < _LIST_LINE_WORDS)
    # (A few lines, a frontispiece's caption, are read with the title page anyway.)
    if 2 * short <= head or body_words(blocks[:head]) < UNLISTED_MIN_WORDS:
        return blocks
    return [Block(FRONT_MATTER, split_level(blocks) or blocks[head].level)] + blocks


def with_title_lines_joined(blocks: list[Block], book_title: str) -> list[Block]:
    """Return the blocks with a title set line by line in headings of one level ("Some" / "Memories
    of" / "Dr. Lee", nothing between) joined into one heading, where the lines together name the
    book. Apart, the lines too short to name the book were read as a part's name over the first chapter
    ("Some: Dr. Lee: I"); joined, it is the book's title (a half-title), which adds nothing to the chapter's."""
    out: list[Block] = []
    i = 0
    while i < len(blocks):
        b = blocks[i]
        j = i + 1
        while j < len(blocks) and blocks[j].level == b.level and b.level:
            j += 1
        # The lines that together are the title, whole ("I" after them is the chapter's own heading).
        k = next((k for k in range(j, i + 1, -1) if _words_key(" ".join(x.text for x in blocks[i:k])) == _words_key(book_title)), 0)
        if k:
            joined = " ".join(clean_text(x.text) for x in blocks[i:k])
            out.append(Block(joined, b.level, set().union(*(x.ids for x in blocks[i:k])), b.kind, b.links))
            i = k
            continue
        out.append(b)
        i += 1
    return out


def _titles_the_book(heading: str, book_title: str) -> bool:
    """Return whether a heading is the book's title, whole or with its second title ("THE MILL; OR, A YEAR
    AT THE WEIR" for "The Mill")."""
    words, title = _words_key(heading).split(), _words_key(book_title).split()
    return names_the_book(heading, book_title) or len(title) >= 2 and words[:len(title)] == title


def after_contents(body: list[Block], listed_at: list[int]) -> set[int]:
    """Return the ids of the blocks after the book's contents (its heading, or a listing the walk skipped)."""
    at = next((i for i, b in enumerate(body) if b.level and _CONTENTS_HEAD.match(clean_text(b.text))), None)
    at = min([a for a in [at, *listed_at] if a is not None], default=None)
    return set() if at is None else {id(b) for b in body[at + 1:]}


def opens_before_listed(blocks: list[Block], first: int, after: set[int] = frozenset()) -> set[int]:
    """Return the headings before the first chapter a contents listing names that open text of the book's own:
    a preface by name ("PREFACE AND DEDICATION."), or an unlisted heading after the contents over more words
    than a half-title's motto (a frame story before the tales the contents lists, a poem set before the listed
    ones in memory of someone). `after`: the ids of the blocks after the contents (see after_contents). Before
    the contents a heading over a page may be a publisher's list, a dedication or a title page's imprint; a
    list of illustrations or a transcriber's note is matter."""
    keep: set[int] = set()
    for i in range(first):
        b = blocks[i]
        if not b.level:
            continue
        text = clean_text(b.text)
        if opens_text(b.text):
            keep.add(i)
            continue
        if is_matter_title(text) or is_apparatus_title(text) or is_publishers_list(text):
            continue
        # Its own text: what stands under it before the next heading (a title page's lines are headings too).
        end = next((j for j in range(i + 1, first) if blocks[j].level), first)
        own = [x for x in blocks[i + 1:end] if not x.level]
        if own and id(own[0]) in after and body_words(own) >= _HALF_TITLE_WORDS:
            keep.add(i)
    return keep


#: A heading with this many short lines under it or fewer (none of this many words) may be a line of the
#: title set as a heading ("NOTES FOR A VALLEY MEETING" over "Compiled by"): the title page may go on after it.
_TITLE_LINES_AHEAD, _MEAN_TITLE_LINE_WORDS = 2, 12


#: A volume's number alone ("VOL. IV.") is a title page's line as often as a part's label: it ends no title page
#: by itself (round html21); a part over its chapters has their text under it, which does.
_VOLUME_LABEL = re.compile(r"^\W*vol(?:\.|ume)\s*(?:[IVXLC]+|\d+|[a-z]+)\W*$", re.I)


def without_title_page_chapters(blocks: list[Block], title: str = "") -> list[Block]:
    """Return the blocks with the chapter-level headings that open the book over a title page, its verso or a
    publisher's list read as front matter: the author's name ("ANN LEE, M.A.") over the imprint, a society's
    name over its list of publications, a volume's number over its year. Such a heading, set at the level of
    the chapters, was read as a first chapter of short lines. Headings with nothing under them before it (the
    title's lines) go with it, and those with a line or two; the first heading over text of another kind (prose, a poem, a listing) ends
    the title page, as does one naming a chapter, a part or a preface."""
    level = split_level(blocks)
    if level is None:
        return blocks
    heads = [k for k, b in enumerate(blocks) if b.level == level]
    demoted: list[int] = []
    pending: list[int] = []  # headings with a line or two of their own, waiting on the next
    for n, k in enumerate(heads):
        text = clean_text(blocks[k].text)
        if text == FRONT_MATTER or is_matter_title(text) or is_apparatus_title(text):
            # Round html21: headings of a line or two before the contents or a list of illustrations, the book's
            # title among their lines ("BUREAU OF ..." / "SIGN LANGUAGE" / "BY" / "ANN LEE."), are its title page.
            if pending and holds_title([clean_text(b.text) for b in blocks[pending[0]:k]], title):
                demoted += [j for j in range(pending[0], k) if blocks[j].level]  # the title's lines set above too
            pending = []
            continue
        if opens_text(text) or KEYWORD.match(text) and not _VOLUME_LABEL.match(text) or NUMERAL.match(text):
            break
        end = next((j for j in range(k + 1, len(blocks)) if 0 < blocks[j].level <= level), len(blocks))
        lines = [b.text for b in blocks[k + 1:end] if not b.links and b.text.strip()]
        if is_title_page([text, *lines]):
            demoted += pending + [k]
            pending = []
            continue
        if len(lines) > _TITLE_LINES_AHEAD or lines and sum(len(t.split()) for t in lines) >= _MEAN_TITLE_LINE_WORDS * len(lines):
            break
        # A line or two under it ("Compiled by", "OF"): the title's own lines, set as headings between its words.
        pending.append(k)
    if not demoted:
        return blocks
    # The title page and its verso come before the book's contents: without a contents after them in the front of
    # the book (its heading, or a run of linked entries), a name over a few lines may be the book's first piece,
    # unless the page opens with the book's own title ("THE" / "PRIVATE LIBRARY" over the imprint, round html21).
    if not _contents_follows(blocks, demoted[-1]) and not names_title(
            [clean_text(b.text) for b in blocks[demoted[0]:demoted[-1] + _TITLE_LINES_AHEAD + 1]], title):
        return blocks
    first = demoted[0]
    before = max((k for k in heads if k < first), default=None)
    out = [Block(b.text, 0, b.ids, b.kind, b.links) if k in set(demoted) else b for k, b in enumerate(blocks)]
    if before is not None and clean_text(blocks[before].text) == FRONT_MATTER:
        return out
    return out[:first] + [Block(FRONT_MATTER, level)] + out[first:]


def _contents_follows(blocks: list[Block], at: int) -> bool:
    """Return whether the book's contents (its heading, or _MIN_LINKED entries with links in a row) stands after
    block `at` within the front of the book (its first fifth of words)."""
    total = sum(len(b.text.split()) for b in blocks)
    seen = sum(len(b.text.split()) for b in blocks[:at + 1])
    run = 0
    for b in blocks[at + 1:]:
        if _CONTENTS_HEAD.match(clean_text(b.text)):
            return True
        run = run + 1 if b.links else 0
        if run >= _MIN_LINKED:
            return True
        seen += len(b.text.split())
        if seen > _FRONT_SHARE * total:
            return False
    return False
