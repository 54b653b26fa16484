"""A single HTML page's own contents listing: the links to its chapters, as the strongest evidence of them.

Gutenberg's HTML editions (and many a hand-made web book) open with a contents block of in-page links
("CHAPTER I." -> #CHAPTER_I); their headings are less reliable (title-page lines, a play's "ACT II." set
as <h2>). Where such a listing exists, the chapters start where it points, the headings it does not
point at become sections inside them, and the listing itself is not read.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from app.book.formats.htmlfront import without_half_title
from app.book.formats.htmllisting import (back_links, by_columns, column_row, in_order, is_listing, is_publishers_list,
                                          joined, names_alike, numbered_keys, with_trailing)
from app.book.formats.htmlentry import front_lists, lists_pictures, numbered_alike, numbered_on
from app.book.formats.htmlnesting import nested
from app.book.narration.cleanup import is_apparatus_title, is_matter_title
from app.book.structure.blocks import Block
from app.book.structure.headings import BACK_MATTER
from app.book.structure.lines import is_byline
from app.book.normalize import clean_text

#: A contents block's entries are short; a longer paragraph with a link is prose.
_MAX_ENTRY_WORDS = 20
#: A contents line ending with its page number as its link, a synopsis under its chapter's bare number, is this long at most.
_MAX_PAGED_ENTRY_WORDS, _MAX_SYNOPSIS_ENTRY_WORDS = 45, 300
#: A label between entries ("HISTORICAL NOTES.", or a part's number with its name in six words or more) is this short.
_MAX_LABEL_WORDS = 12
_MIN_ENTRIES = 3
#: A synopsis under an entry ("The voyage having ended ...--Arrival at the harbour ...") runs this many
#: paragraphs at most before the next entry; the listing goes on over it.
_MAX_SYNOPSIS_BLOCKS = 2
_NOT_CONTENTS = re.compile(r"^(?:list\s+of|illustrations|plates|maps|figures)\b", re.I)
_CONTENTS_HEAD = re.compile(r"^(?:table\s+of\s+)?contents\.?$", re.I)
#: A heading that is only a chapter's number ("I.", "XII", "Chapter 4."), above the heading with its name.
_BARE_LABEL = re.compile(r"^(?:(?:chapter|chap\.|book|part|letter|stave|canto)\s+)?(?:[IVXLCDM]{1,8}|\d{1,3})\.?$", re.I)
#: A heading that carries its own chapter number ("CHAPTER I: THE FORD", "Chap. 4").
_NUMBERED = re.compile(r"^(?:chapter|chap\.)\s+(?:[IVXLCDM]{1,8}|\d{1,3})\b", re.I)
#: A paragraph between a chapter's number and its anchored name is its introduction when this short.
_MAX_INTRO_WORDS = 60
#: A link whose text is a page number (a contents line's last column).
_PAGE_LINK = re.compile(r"^\s*(?:p\.\s*|page\s+)?\d{1,4}\s*$", re.I)
#: A link whose text is an entry's number alone ("VI.", "12").
_NUMBER_LINK = re.compile(r"^(?:[IVXLCDM]{1,8}|\d{1,3})\.?$")
#: How many blocks after its anchor the heading a listing entry names may stand.
_WINDOW = 6
#: The share of a listing's links to page-number marks that must name their page's heading (see _starts).
_PAGES_NAMED = 0.8
#: Headings the listing does not name sink this many levels, so they never start a chapter.
_SINK = 3


def _key(text: str) -> str:
    return " ".join(re.findall(r"\w+", clean_text(text).casefold().replace("&", " and ")))


def _name_key(text: str) -> str:
    """Return the key of a heading's or entry's name: its number and a leading article left out."""
    return re.sub(r"^(?:the|a|an) ", "", _key(_ENTRY_NUMBER.sub("", clean_text(text), count=1)))


def _wrapped_rest(block: Block) -> str:
    """Return the words of a block's one link past the block's own text: the lines an entry wrapped onto."""
    if len(block.links) != 1:
        return ""
    own, full = _key(block.text), _key(block.links[0][1])
    return full[len(own):].strip() if own and full.startswith(own) and len(full) > len(own) else ""


def _runs(blocks: list[Block], where: dict[str, int]) -> list[list[int]]:
    """Return runs of consecutive contents-entry blocks (labels between entries included)."""
    runs: list[list[int]] = []
    run: list[int] = []
    tail = ""  # the words of the last entry's link its block did not show (an entry wrapped by <br>)
    for i, b in enumerate(blocks):
        forward = [t for t, _ in b.links if where.get(t, -1) > i] + sorted(back_links(blocks, where, i, _CONTENTS_HEAD.match))
        if forward and len(b.text.split()) <= _entry_words(b, blocks[i - 1] if i else None):
            run.append(i)
            tail = _wrapped_rest(b)
            continue
        if run and not b.links and tail and _key(b.text) and tail.startswith(_key(b.text)):
            run.append(i)  # "VIII. Wherein Mary Stuart's Loveliness flits" <br> "across the Course ..."
            tail = tail[len(_key(b.text)):].strip()
            continue
        tail = ""
        # A "CONTENTS" heading is no label inside a listing: it ends the list before it (of illustrations,
        # running on up to it) and heads the listing after it. An entry whose link points at nothing on the
        # page (a producer's broken anchor) is kept as a label: it does not cut the listing in two.
        label = (not any(t in where for t, _ in b.links) and run and len(b.text.split()) <= _MAX_LABEL_WORDS
                 and not _NOT_CONTENTS.match(clean_text(b.text)) and not _CONTENTS_HEAD.match(clean_text(b.text))
                 and i + 1 < len(blocks) and blocks[i + 1].links)
        if label:
            run.append(i)
            continue
        if run and not b.links and not b.level and _synopsis_between(blocks, i, where):
            run.append(i)
            continue
        if run:
            runs.append(run)
        run = []
    if run:
        runs.append(run)
    return runs


def _entry_words(block: Block, above: Block | None = None) -> int:
    """Return how many words a contents line may have: more when its page is its link ("I. The Tides ... 239"),
    most as a synopsis in a row under its chapter's bare number ("CHAPTER VII." / "A storm.—The raft ... 83")."""
    last = block.links[-1][1] if block.links else ""
    # An entry that is its link whole ("Short Pieces:—A mill ...—A weir ...", a weekly's list of its
    # short pieces) is an entry however long: prose with a link has words of its own around it.
    if len(block.links) == 1 and len(last.split()) >= 0.9 * len(block.text.split()):
        return _MAX_SYNOPSIS_ENTRY_WORDS
    if _PAGE_LINK.match(last):
        return _MAX_SYNOPSIS_ENTRY_WORDS if above and not above.links and _BARE_LABEL.match(above.text.strip()) else _MAX_PAGED_ENTRY_WORDS
    # So may a line linked by the number it opens with ("VI.—HOW THE HIVES ARE MOVED IN ..." linked at
    # "VI."): its name is a title, however long; a note mark's number never opens its paragraph.
    first = block.links[0][1].strip() if block.links else ""
    if first and _NUMBER_LINK.match(first) and clean_text(block.text).startswith(first):
        return _MAX_PAGED_ENTRY_WORDS
    return _MAX_ENTRY_WORDS


def _synopsis_between(blocks: list[Block], i: int, where: dict[str, int]) -> bool:
    """Return whether the paragraph at i is an entry's synopsis: another entry follows within a paragraph or two."""
    for k in range(i + 1, min(i + 1 + _MAX_SYNOPSIS_BLOCKS, len(blocks))):
        # The next entry may be set as a heading of the listing ("SECOND PART." linked to its part).
        if any(where.get(t, -1) > k for t, _ in blocks[k].links) and len(blocks[k].text.split()) <= _entry_words(blocks[k], blocks[k - 1] if k else None):
            return True
        if blocks[k].level:
            return False
        if blocks[k].links:
            return False
    return False


class _Entry(NamedTuple):
    """One line of a contents listing."""

    text: str
    #: The id it links to; None for a label between entries ("BOOK II", "HISTORICAL NOTES.").
    target: str | None
    #: Whether the link's text is a page number (a listing's last column).
    page: bool = False
    #: Whether the link is its line's only one (a page number that is the chapter's only link).
    alone: bool = True


def _candidates(blocks: list[Block], where: dict[str, int],
                listing: list[tuple[str, str, int]]) -> list[tuple[list[_Entry], set[int]]]:
    """Return candidate listings: their entries, and the blocks to leave unread (the listing itself)."""
    found: list[tuple[list[_Entry], set[int]]] = []
    spans: list[tuple[int, int]] = []  # the blocks each candidate covers, [start, end)
    for run in _runs(blocks, where):
        entries: list[_Entry] = []
        tail = ""
        for i in run:
            b = blocks[i]
            forward = [(t, text) for t, text in b.links if where.get(t, -1) > i or t in back_links(blocks, where, i, _CONTENTS_HEAD.match)]
            if not forward and tail and tail.startswith(_key(b.text)):
                tail = tail[len(_key(b.text)):].strip()
                continue  # the wrapped rest of the entry above, no label of its own
            tail = _wrapped_rest(b) if forward else ""
            if tail:
                entries.append(_Entry(forward[0][1], forward[0][0], bool(_PAGE_LINK.match(forward[0][1]))))
                continue
            if not forward and len(b.text.split()) <= _MAX_LABEL_WORDS:
                entries.append(_Entry(b.text, None))
            # A row of several links ("CHAPTER I | CHAPTER II | ...") is several entries, each its link's text.
            # A table row's cells are set apart with "; " ("V.; Whitman's Ride"): one entry's label and name.
            row = column_row(b.text)
            entries.extend(_Entry(row if len(forward) == 1 else text, t, bool(_PAGE_LINK.match(text)), len(forward) == 1)
                           for t, text in forward)
        skip = set(run)
        if run[0] > 0 and _CONTENTS_HEAD.match(clean_text(blocks[run[0] - 1].text)):
            skip.add(run[0] - 1)
        found.append((by_columns(entries, where, [blocks[i] for i in run], _MIN_ENTRIES), skip))
        spans.append((run[0], run[-1] + 1))
    # A listing the walk skipped (class="toc", <nav>): entries noted at the same place form one listing.
    groups: dict[int, list[_Entry]] = {}
    for text, target, at in listing:
        if target in where and where[target] >= at:
            groups.setdefault(at, []).append(_Entry(text, target, bool(_PAGE_LINK.match(text))))
    for at, entries in sorted(groups.items()):
        found.append((entries, set()))
        spans.append((at, at))
    found = joined(found, spans) + found
    # The listing nearest the top of the book first (a joined listing before its pieces).
    return sorted(found, key=lambda c: min((where[e.target] for e in c[0] if e.target), default=1 << 30))


def apply_contents(blocks: list[Block], listing: list[tuple[str, str, int]] = (),
                   page_anchors: set[str] = frozenset()) -> list[Block]:
    """Return the blocks with chapters at the page's contents links; the blocks as they were without a listing.
    `page_anchors` are the ids of the page-number marks the walk left unread (see _starts)."""
    where: dict[str, int] = {}
    for i, b in enumerate(blocks):
        for ident in b.ids:
            where.setdefault(ident, i)
    for found, skip in _candidates(blocks, where, list(listing)):
        entries = _without_page_links(found)
        if sum(1 for _, t, _ in entries if t) < _MIN_ENTRIES or lists_pictures(blocks, skip):
            continue  # (a list of illustrations or maps: its links are the pictures', never the chapters')
        starts = _starts(blocks, where, entries, page_anchors)
        if starts is not None:
            return _rebuilt(*nested(blocks, starts, skip, _start_title))
    return blocks


def _without_page_links(entries: list[_Entry]) -> list[tuple[str, str | None, bool]]:
    """Return (text, target, by page) entries without links to page numbers ("The Keeper's Journal ... 1")
    where the listing's chapters have links of their own; a listing of numbers alone keeps them, and so
    does a line whose page number is its only link ("BOOK I." linked, its chapters by their pages),
    marked (as every page link is), since it names a chapter only where a heading stands at that page."""
    linked = [e for e in entries if e.target]
    pages = sum(1 for e in linked if e.page)
    keep_pages = not pages or pages == len(linked)
    return [(e.text, e.target, e.page) for e in entries
            if keep_pages or not (e.target and e.page and not e.alone)]


def _starts(blocks: list[Block], where: dict[str, int], entries: list[tuple[str, str | None, bool]],
            page_anchors: set[str] = frozenset()) -> dict[int, str] | None:
    """Return block index -> entry text where the listed chapters start, None when this is no contents listing.

    A link to a page-number mark ("Early Days ... 1" -> #Page_1) names a chapter only at a heading of its
    name, or of a numbered chapter where the listing links its parts to their headings; a listing of such
    page links alone is the book's contents only when nearly all of them (_PAGES_NAMED) name their page's
    heading (elsewhere the headings are the better evidence).
    """
    unnamed_pages = named_pages = 0
    pages = sorted(where[a] for a in page_anchors if a in where)
    starts: dict[int, str] = {}
    targets: list[int] = []
    labels: list[str] = []
    raised: set[int] = set()
    raised_at: list[int] = []  # which entries (by order) have headings above the one they name
    placed: list[int] = []  # where each entry's chapter starts (a page's anchor may stand above its part)
    # Where the other entries linked to headings (not pages) point: a part's "BOOK I." there is no
    # chapter's number.
    linked = [(where[t], t) for _, t, by_page in entries if t and not by_page]
    label = ""  # the label line over the entry ("PART I" over "THE MILL ... 27")
    for text, target, by_page in entries:
        if target is None:
            labels.append(_key(text))
            label = text
            continue
        over, label = label, ""
        pos = where[target]
        window = [k for k in range(pos, min(pos + _WINDOW, len(blocks))) if blocks[k].level]
        name = _name_key(_ENTRY_PAGE.sub("", clean_text(text))) if by_page and target in page_anchors else ""
        alike = lambda k: _name_key(blocks[k].text) == name or names_alike(name, _name_key(blocks[k].text))  # noqa: E731
        if name and not any(alike(k) for k in window):
            # A poem or piece starts anywhere on its page: its heading of that name stands before the next
            # page's mark, however many lines below the page's top (below another poem's, two on one page).
            end = next((p for p in pages if p > pos), len(blocks))
            window = [k for k in range(pos, end) if blocks[k].level and alike(k)][:1] or window
        if by_page and not window:
            continue  # a page inside a chapter ("A Walk by the River ... 81"): a section, no chapter
        # The anchor may stand above a part's title page ("BOOK I." "THE WIDOW'S HOUSE." then "CHAPTER I."):
        # the heading the entry names starts the chapter, the headings above it title the part.
        # The entry names it with or without its number and page ("I. THE FERRY CROSSING 1" for the heading
        # "THE FERRY CROSSING.").
        keys = {_key(text), _name_key(_ENTRY_PAGE.sub("", clean_text(text)))} - {""}
        if over:  # the heading may carry its label and its name ("PART I" <br> "THE MILL")
            keys.add(_key(f"{over} {_ENTRY_PAGE.sub('', clean_text(text))}"))
        # So does a heading with its own number before the name ("CHAPTER I: THE FIRST CANALS." for "I.
        # First Canals ... 1"; a listing drops the article).
        # A listing may shorten the heading it names ("Introduction" for "INTRODUCTION TO THE NEW
        # ISSUE."): the heading opens with the entry's words.
        # An entry that is its number alone ("III. ... 19": the chapter has no name) names the heading of
        # that number ("CHAPTER III.").
        if _BARE_LABEL.match(_ENTRY_PAGE.sub("", clean_text(text)).strip(" ;")):
            keys |= numbered_keys(_key(_ENTRY_PAGE.sub("", clean_text(text))))
        named = next((k for k in window if text and (_key(blocks[k].text) in keys or _name_key(blocks[k].text) in keys
                      or name and alike(k)
                      or any(_key(blocks[k].text).startswith(f"{key} ") for key in keys))), None)
        if target in page_anchors:
            named = named if named is not None else numbered_alike(blocks, window, over, _ENTRY_PAGE.sub("", clean_text(text)))
            named_pages += named is not None
            unnamed_pages += named is None
            if named is None and not linked:
                continue
        if by_page and named is None and linked:
            # Among entries linked to their headings, a page starts a chapter only at a heading of that
            # name or a numbered chapter's heading ("CHAPTER IV."), never at a section's.
            named = next((k for k in window if _NUMBERED.match(clean_text(blocks[k].text))), None)
            if named is None:
                continue
        head = named if named is not None else (window[0] if window and window[0] < pos + 4 else None)
        if by_page and head is None:
            continue  # the page's heading is further on than a page's top: a page inside a chapter
        targets.append(pos)
        if named is not None and any(k < named for k in window):
            raised.update(k for k in window if k < named)
            raised_at.append(len(targets) - 1)
        if head is not None:
            head = _label_above(blocks, head, {k for k, t in linked if t != target})
        placed.append(head if head is not None else pos)
        # A last entry that is a by-line alone ("By Ann Lee") or the publisher's pages heads matter after the text.
        last = target == next((t for _, t, _ in reversed(entries) if t), None)
        # So does a link to the transcriber's notes set in a line of its own after the listing ("Transcriber's
        # Notes are at the end"): the line it points at names them, though no heading does.
        after = last and (is_byline(clean_text(text)) or is_publishers_list(clean_text(text))
                          or not blocks[pos].level and is_apparatus_title(clean_text(blocks[pos].text)))
        starts.setdefault(placed[-1], BACK_MATTER if after else text)
    targets, placed, starts = in_order(blocks, targets, placed, starts)
    # Its index and notes are no chapters: a listing of "Calendar", "Diary" and "Index" names too
    # little to divide the book (its headings do).
    named = sum(1 for t in starts.values() if not is_matter_title(_ENTRY_PAGE.sub("", clean_text(t))))
    if named < _MIN_ENTRIES or not is_listing(blocks, targets, placed, starts):
        return None
    if not linked and unnamed_pages > (1 - _PAGES_NAMED) * (named_pages + unnamed_pages):
        return None
    if raised_at != [0]:
        # Headings above a named one title a part where parts recur; above the first chapter alone they
        # are the book's own title over its text ("THE SALT ROAD." / "Chapter I." / its name).
        for k in raised:
            starts.setdefault(k, blocks[k].text)
    first = min(starts)
    headings: dict[str, list[int]] = {}
    for k in range(first, len(blocks)):
        if blocks[k].level:
            headings.setdefault(_key(blocks[k].text), []).append(k)
    for label in labels:
        # The group label's own heading in the body ("HISTORICAL NOTES.") heads its group.
        k = next((k for k in headings.get(label, ()) if k not in starts), None)
        if k is not None:
            starts[k] = blocks[k].text
    return without_half_title(blocks, with_trailing(blocks, starts, is_matter_title), _MIN_ENTRIES)


def _label_above(blocks: list[Block], head: int, parts: set[int] = frozenset()) -> int:
    """Return where a chapter starts whose anchor is on its name: at its number set as a heading just above
    ("V." / a short introductory paragraph / "WHITMAN'S RIDE FOR OREGON."), else at the anchored heading.
    A heading with its own number ("CHAPTER I: THE FORD") has none above it: a "PART I." there, or any
    heading another entry links to, is a part."""
    if _NUMBERED.match(clean_text(blocks[head].text)):
        return head
    k = head - 1
    if k >= 0 and not blocks[k].level and len(blocks[k].text.split()) <= _MAX_INTRO_WORDS:
        k -= 1
    if k >= 0 and blocks[k].level and k not in parts and _BARE_LABEL.match(clean_text(blocks[k].text)):
        return k
    return head


def _start_title(blocks: list[Block], i: int, entry: str) -> str:
    """Return the title of the listed chapter whose heading is at i: a number alone ("V.") with no name
    under it is titled as the listing names it."""
    b = blocks[i]
    named = (_BARE_LABEL.match(clean_text(b.text)) and len(_key(entry)) > len(_key(b.text))
             and not (i + 1 < len(blocks) and blocks[i + 1].level))
    return _named_label(b.text, entry) if named else b.text


def _rebuilt(blocks: list[Block], starts: dict[int, str], skip: set[int]) -> list[Block]:
    out: list[Block] = []
    named_by_next: set[int] = set()
    parts = numbered_on(blocks, starts, skip) | front_lists(blocks, starts, skip)  # unlisted, yet no sections (see each)
    for i, b in enumerate(blocks):
        if i in skip or i in named_by_next:
            continue
        if i in starts:
            if b.level:
                title = starts[i] if starts[i] == BACK_MATTER else _start_title(blocks, i, starts[i])
                nxt = i + 1
                if nxt < len(blocks) and blocks[nxt].level == b.level and nxt not in starts and nxt not in skip:
                    # A listed heading with no text of its own over an unlisted one at its level ("THE
                    # AWAKENING" over "THE PERSONS OF THE DRAMA"): one chapter, named by both.
                    title = f"{title.strip().rstrip(' .:')}: {blocks[nxt].text.strip()}"
                    named_by_next.add(nxt)
                out.append(Block(title, 1, b.ids | (blocks[nxt].ids if nxt in named_by_next else set()),
                                 b.kind, b.links))
            elif clean_text(starts[i]):
                out.append(Block(starts[i], 1))  # the entry names a chapter whose page has no heading
                out.append(b)
            else:
                out.append(b)  # an entry with no words (its name left out by the producer) names nothing
        elif b.level:
            out.append(Block(b.text, 1 if i in parts else min(6, b.level + _SINK), b.ids, b.kind, b.links))
        else:
            out.append(b)
    return out


#: A listing entry's own number before its name ("IV. ", "Chapter 4 - ") and its page after it ("  17").
_ENTRY_NUMBER = re.compile(r"^(?:(?:chapter|chap\.|book|part|letter|stave|canto)\s+)?(?:[IVXLCDM]{1,8}|\d{1,3})\b[.:]?\s*[-\u2013\u2014]*\s*", re.I)
_ENTRY_PAGE = re.compile(r"[\s.]+(?:p\.\s*|page\s+)?\d{1,4}\s*$", re.I)


def _named_label(label: str, entry: str) -> str:
    """Return a bare chapter label with the name its listing entry gives ("CHAPTER I: The Crossing"), never
    the entry's page number ("The Crossing 17"), and the label kept, since it says which chapter it is."""
    name = _ENTRY_NUMBER.sub("", _ENTRY_PAGE.sub("", clean_text(entry)), count=1).strip(" .:;")
    if not name or _key(name) == _key(label) or len(name.split()) > _MAX_ENTRY_WORDS:
        return label  # (a synopsis is no name: "The storm.—The raft.—...")
    return f"{label.strip().rstrip(' .:')}: {name}"

