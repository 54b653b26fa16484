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

import re

from app.book.structure.backmatter import (
    BACK_MATTER, FRONT_MATTER, closing_list_blocks, closing_lists, mark_closing, mark_lists,
)
from app.book.structure.blocks import Block, split_level
from app.book.structure.candidates import candidates, second_title_lines
from app.book.structure.contents import beyond_listing, find_contents, is_contents_label, match_contents, within_parts
from app.book.structure.listing import in_page_order
from app.book.structure.relisted import listed_again, listed_before, listing_lines
from app.book.structure.gaps import fill_first_chapter, fill_numbering_gaps
from app.book.structure.sections import without_empty_parts, without_inner_sections
from app.book.structure.layout import (
    ends_in_title_page, is_publishers_matter, set_apart_like, without_closer_words,
)
from app.book.structure.learned import RuleVerdict, review
from app.book.structure.pieces import numbered_halves, numbering_continues, pieces_apart, set_title
from app.book.structure.lines import (
    CLOSING, KEYWORD, Heading, Para, clean_line, is_named_heading, keyword_match, paragraphs, smart_title, title_line,
)


def _by_layout(cands: list[Heading], paras: list[Para]) -> list[Heading]:
    """Return the headings that repetition and layout make chapters, where no contents listing names them."""
    keyword = [c for c in cands if c.kind in ("chapter", "part")]
    words = {}
    for c in keyword:
        words[c.word] = words.get(c.word, 0) + 1
    chapter_words = {w for w, n in words.items() if n >= 2}
    chosen = [c for c in keyword if c.word in chapter_words or (c.kind == "part" and chapter_words)]
    chosen = without_closer_words([c for c in chosen if not _title_page_volume(c, chosen, words)], paras)
    if not any(c.kind == "chapter" for c in chosen):
        chosen += _numeral_chain([c for c in cands if c.kind == "numeral"])
    if chosen:
        chosen += [c for c in cands if c.kind == "named"]
    return sorted(chosen, key=lambda c: c.para)


def _title_page_volume(c: Heading, chosen: list[Heading], words: dict[str, int]) -> bool:
    """Return whether a part heading is the title page's volume line ("IN THREE VOLUMES." / "VOL. II."):
    the only heading of its word, above every chapter, in a text that is one volume of several."""
    if c.kind != "part" or words.get(c.word) != 1 or c.word not in ("volume", "vol"):
        return False
    return all(o.para > c.para for o in chosen if o.kind == "chapter")


def _numeral_chain(nums: list[Heading]) -> list[Heading]:
    """Return the numeral lines that number chapters: a counting run (1, 2, 3 ...), set apart as widely."""
    if len(nums) < 3:
        return []
    chain: list[Heading] = []
    for c in nums:
        if c.number == (chain[-1].number + 1 if chain else 1):
            chain.append(c)
        elif c.number == 1 and chain:
            chain.append(c)  # a new part numbers its chapters again
    return chain if len(chain) >= 3 else []


def _with_gaps(cands: list[Heading], paras: list[Para]) -> list[Heading]:
    """Return numeral candidates set apart by at least the gap most of them have (stanza numbers are not)."""
    nums = [c for c in cands if c.kind == "numeral"]
    if not nums:
        return cands
    # Set apart by blank lines before it or after it ("I" under the title page, then two blank lines).
    wide = [c for c in nums if paras[c.para].gap >= 2
            or c.para + 1 < len(paras) and paras[c.para + 1].gap >= 2]
    if len(wide) >= 3 and len(wide) < len(nums):
        keep = {id(c) for c in wide}
        # The first chapter's "I" sits under the title page, closer to it than the others stand apart.
        first = next((c for c in nums if c.number == 1 and c.para < wide[0].para), None)
        if first is not None and wide[0].number == 2:
            keep.add(id(first))
        # A numeral closer to the text above it than the rest, where the count needs it ("XIII", "XIV", "XV").
        for n, c in enumerate(nums):
            if id(c) not in keep and c.number is not None:
                before = [w for w in wide if w.para < c.para]
                after = [w for w in wide if w.para > c.para]
                if before and after and before[-1].number == c.number - 1 and after[0].number == c.number + 1:
                    keep.add(id(c))
        return [c for c in cands if c.kind != "numeral" or id(c) in keep]
    return cands


def _missing_first(chosen: list[Heading], paras: list[Para], lo: int) -> list[Heading]:
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
            head = Heading(j, "chapter", first.word, 1, clean_line(p.text))
            if j + 1 < len(paras) and (sub := title_line(paras[j + 1])) and paras[j + 1].gap < gap \
                    and not is_contents_label(sub):
                head.subtitle, head.sub_para = sub, j + 1
            return sorted(chosen + [head], key=lambda c: c.para)
    return chosen


def _laid_out_like(matched: list[Heading], paras: list[Para], lo: int) -> list[Heading]:
    """Return every short title line from paragraph lo on set apart as the matched headings are.

    Most of the matched headings stand after at least as many blank lines as the typical one (and
    before as many), in capitals when they all are. Only a gap wider than a paragraph's is a layout:
    with one blank line everywhere, nothing tells a heading from a short paragraph.
    """
    if len(matched) < 3:
        return []
    before = sorted(paras[c.para].gap for c in matched)[len(matched) // 4]
    after = sorted(paras[c.para + 1].gap if c.para + 1 < len(paras) else before for c in matched)[len(matched) // 4]
    if before < 2:
        return []
    capitals = all(clean_line(paras[c.para].text).isupper() for c in matched)
    listed = {c.para for c in matched}
    found = []
    for j in range(lo, len(paras)):
        p = paras[j]
        text = clean_line(p.text)
        # A label over its title and a by-line ("CHAPTER NINE / The Mill / by A. Writer", a chapter by
        # another hand) is as much a heading as a label over its title alone, though three lines long.
        labelled = len(p.lines) <= 4 and len(text.split()) <= 30 and bool(keyword_match(clean_line(p.lines[0])))
        if p.gap < before or len(p.lines) > 3 - (not capitals) and not labelled \
                or (j + 1 < len(paras) and paras[j + 1].gap < after):
            continue
        if text.startswith("[") or not (named := set_title(p) or labelled and text) or capitals and not text.isupper() \
                or is_publishers_matter(text) and j not in listed:
            continue  # ("ADVERTISEMENTS" set apart as the chapters are, unlisted: the publisher's, no chapter)
        found.append(Heading(j, "named", "", None, named))
    kept = {h.para for h in found}
    # The layout must keep the headings the listing named, or it is not theirs.
    return found if len(found) >= len(matched) and sum(1 for c in matched if c.para in kept) >= 0.9 * len(matched) else []


def _title(h: Heading) -> str:
    label = _CHAP.sub("Chapter ", h.label.rstrip(" .:"))  # "Chap. II.": the word the abbreviation stands for
    m = KEYWORD.match(label)
    if m and m.group("rest").strip():
        # "CHAPTER II. The River": the label in title case, the name as the book has it.
        head = label[: m.start("rest")]
        label = smart_title(head) + (m.group("rest") if not m.group("rest").isupper() else smart_title(m.group("rest")))
    else:
        label = smart_title(label)
    label = _NOTE_MARK.sub("", label).rstrip(" .:") if _NOTE_MARK.search(label) else label  # "LECTURE IV.[5]": a note mark
    return f"{label}: {smart_title(h.subtitle)}" if h.subtitle else label


_NOTE_MARK, _CHAP = re.compile(r"\s*[\[{]\d{1,3}[\]}]$"), re.compile(r"^chap\.\s*", re.I)


def mark_headings(text: str, learned: bool = False, model: dict | None = None) -> str:
    """Return the text with its chapter headings as "# Title" lines, or the text as it was when it has none.

    The rules below choose the headings; where the shipped line classifier applies (learned.py), it
    can review their choice line by line (learned=True, with `model` or the shipped one; off by default: on 256
    development books, cross-validated by book, it does not beat the rules even with its book-level pass, see
    tests/README.md, seventeenth round; again on 198 in round txt29, with a book-level margin).
    """
    lines = text.split("\n")
    paras = paragraphs(lines)
    rules = rule_headings(paras)
    chosen = rules.chosen
    if learned:
        chosen = review(paras, rules, model)
    if len(chosen) < 2:
        return text
    lo, hi, listed = rules.lo, rules.hi, rules.listed
    out = list(lines)
    for j in range(lo, hi):
        for n in range(paras[j].first, paras[j].last):
            out[n] = ""
    # The publisher's lists that end the book ("WORKS BY THE SAME AUTHOR.", priced titles) are no chapters.
    at = set(closing_lists(chosen, [_title(c) for c in chosen], paras))
    lists, chosen = [c for i, c in enumerate(chosen) if i in at], [c for i, c in enumerate(chosen) if i not in at]
    for j in second_title_lines(chosen, paras):  # round txt21: a title set over two paragraphs
        out[paras[j].first:paras[j].last] = [""] * len(paras[j].lines)
    _rewrite(out, paras, chosen)
    mark_lists(out, paras, lists)
    mark_closing(out, paras, chosen)
    start = paras[chosen[0].para].first
    contents_before = _listing_before(paras[:chosen[0].para])
    if (listed or chosen[0].number == 1 or ends_in_title_page(paras, chosen[0].para) or contents_before
            or listed_before(chosen, paras)) \
            and any(ln.strip() for ln in out[:start]):
        # Before the first chapter the contents names, or before a first heading numbered one ("CHAPTER
        # ONE."), or before a heading the title page stands over ("By A. Writer", "COPYRIGHT, 1905"), or over a
        # "CONTENTS" line (a listing however it is set), or where several chapters are named before the first
        # (a listing's entries over synopses): title page, imprint, advertisements, dedication, a producer's note.
        out[0] = f"# {FRONT_MATTER}\n\n{out[0]}"
    return "\n".join(out)


def rule_headings(paras: list[Para]) -> RuleVerdict:
    """Return what the rules find in a text's paragraphs: its listing, its candidates and the chapters chosen."""
    lo, hi, entries = find_contents(paras)
    cands = candidates(paras, hi)
    chosen: list[Heading] = []
    listed = False
    if entries:
        chosen = match_contents(entries, cands, paras, hi)
        numbered = sum(1 for e in entries if e.number is not None)
        if numbered:
            listed = sum(1 for c in chosen if c.number is not None) >= 0.6 * numbered
        else:
            # A listing of names without numbers: the body must head most of them, in order.
            listed = len(chosen) >= max(3, 0.6 * len(entries))
        if not numbered:
            # The body heads only some of the listed names (the listing is finer, or stops early): the
            # headings it does match show how this book sets a heading apart; every line set so is one.
            laid_out = numbering_continues(_laid_out_like(chosen, paras, hi), cands, paras)
            if laid_out or not listed:
                chosen, listed = laid_out, bool(laid_out)
        if listed and _labels_disagree(chosen, cands, paras):
            chosen = _by_layout(_with_gaps(cands, paras), paras)  # the body's own "CHAPTER I" ... "CHAPTER N" run
        if listed:
            # A preface or introduction before the listing is the book's too.
            chosen = [c for c in candidates(paras[:lo], 0) if c.kind == "named"] + chosen
            chosen = within_parts(beyond_listing(chosen, cands), cands)
        else:
            chosen = []
    if not chosen:
        chosen = _missing_first(_by_layout(_with_gaps(cands, paras), paras), paras, hi)
    if not chosen:
        # No heading word and no listing that the body heads: the pieces' own titles, set apart.
        chosen = pieces_apart(paras, hi, len(entries)) or numbered_halves(cands, paras)
    if not chosen and entries and not any(e.number is not None for e in entries):
        # Nothing else found: a listing of names the body heads in other words ("LEE, ANN" listed by
        # surname in the order of the alphabet, "HON. ANN LEE." over the piece), read in the order of its
        # pages; the body must head nearly every entry.
        found = match_contents(in_page_order(entries), cands, paras, hi, free=True)
        if len(found) >= _FREE_SHARE * len(entries):
            chosen = found
    # A listing the reader did not read as one: its entries come back later as the body's headings.
    chosen = fill_first_chapter(fill_numbering_gaps(listed_again(chosen, paras), paras), paras)
    chosen = without_empty_parts(without_inner_sections(chosen))
    # A preface or introduction before the first chapter, whichever rule found the chapters.
    chosen = named_before(chosen, candidates(paras[:hi], 0) + cands, paras, (lo, hi))
    # Lines set apart as the chosen headings are, which no rule read (a preface by its publishers, a proem).
    chosen = set_apart_like(chosen, paras, (lo, hi))
    # (The candidates before the listing's end too: the line classifier weighs every line.)
    return RuleVerdict(lo, hi, entries, candidates(paras[:hi], 0) + cands, chosen, listed)


def named_before(chosen: list[Heading], cands: list[Heading], paras: list[Para],
                 skip: tuple[int, int]) -> list[Heading]:
    """Return the chapters with the named parts of the book before the first one ("PREFACE.", "INTRODUCTION"):
    a heading that names a part of the book, on a line of its own set apart by blank lines, over prose of its
    own, is a chapter whatever found the others (a listing, a heading word, a collection's titles), as the
    printed book heads it. Not inside the contents listing (its entries name the same parts), nor one that
    heads only a few lines (a title page's "INTRODUCTION BY ...", a listing's entry with its page)."""
    if len(chosen) < 2:
        return chosen
    lo, hi = skip
    first = chosen[0].para
    have = {c.para for c in chosen}
    named = [c for c in cands if c.kind == "named" and c.para < first and c.para not in have
             and not lo <= c.para < hi and len(paras[c.para].lines) == 1 and is_named_heading(paras[c.para].text)
             and paras[c.para].gap >= 2]
    added = []
    for n, c in enumerate(named):
        end = named[n + 1].para if n + 1 < len(named) else first
        start = c.sub_para + 1 if c.sub_para is not None else c.para + 1
        if sum(len(paras[k].text.split()) for k in range(start, end)) >= _NAMED_OWN_WORDS:
            added.append(c)
    return sorted(chosen + added, key=lambda c: c.para) if added else chosen


#: Entries of a listing the body heads in other words that must be found, as a share.
_FREE_SHARE = 0.8
#: Words a named part before the first chapter heads at least (a preface of a paragraph or two).
_NAMED_OWN_WORDS = 100


def _labels_disagree(chosen: list[Heading], cands: list[Heading], paras: list[Para]) -> bool:
    """Return whether the body's labelled chapters ("CHAPTER I" ... "CHAPTER VII", counting from one) are
    not what the listing matched: a listing read at its sections' level ("1. The Lie of the Land" under
    each chapter, numbered from one again) names lines inside the chapters. The listing and the headings
    must agree; where they do not, the headings the body labels as chapters are the chapters."""
    run = [c for c in _by_layout(_with_gaps(cands, paras), paras) if c.kind == "chapter"]
    numbers = [c.number for c in run]
    if len(run) < 3 or numbers != list(range(1, len(run) + 1)):
        return False
    matched = {c.para for c in chosen}
    labelled = sum(1 for c in run if c.para in matched)
    return labelled < len(run) / 2 and sum(1 for c in chosen if c.kind == "numeral") > labelled


def _rewrite(out: list[str], paras: list[Para], chosen: list[Heading]) -> None:
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
    part: Heading | None = None
    for n, c in enumerate(chosen):
        title = _title(c)
        if c.kind == "part":
            part = c
            nxt = chosen[n + 1] if n + 1 < len(chosen) else None
            end = paras[nxt.para].first if nxt else len(out)
            start = paras[c.sub_para if c.sub_para is not None else c.para].last
            has_body = _has_prose(out[start:end])
            if restarts and nxt is not None and nxt.kind != "part" and not has_body:
                _blank(out, paras, c)
                continue
        elif restarts and part is not None and c.kind != "named":
            title = f"{_title(part)}, {title}"
        elif c.kind == "named":
            part = None
        _blank(out, paras, c)
        out[paras[c.para].first] = f"# {title}"


def _listing_before(paras: list[Para]) -> bool:
    """Return whether the text before the first chapter holds a "CONTENTS" line and no prose after it: a
    listing however it is set, with the title page. A preface after the listing (a paragraph of prose, its
    lines not ending in pages) is the book's own text, not front matter."""
    at = next((i for i in range(len(paras) - 1, -1, -1)
               if len(paras[i].lines) == 1 and is_contents_label(paras[i].text)), None)
    if at is None:
        return False
    return not any(len(p.text.split()) >= _PROSE_WORDS and not listing_lines([p]) for p in paras[at + 1:])


#: A paragraph of this many words, its lines not ending in pages, is prose (a preface), not a listing's entry.
_PROSE_WORDS = 40


def _has_prose(lines: list[str]) -> bool:
    """Return whether lines hold prose, not a title page only ("THE HERON" / "VOL. II." /
    "London:" / "Printed for ..." between a volume's label and its first chapter: short lines, few words)."""
    words = sum(len(ln.split()) for ln in lines)
    return words > _TITLE_PAGE_WORDS or any(len(ln.strip()) > _TITLE_PAGE_LINE for ln in lines)


#: A volume's title page has at most this many words, each line at most this many characters.
_TITLE_PAGE_WORDS = 60
_TITLE_PAGE_LINE = 55


def _blank(out: list[str], paras: list[Para], c: Heading) -> None:
    for j in (c.para, c.sub_para):
        if j is not None:
            for n in range(paras[j].first, paras[j].last):
                out[n] = ""


def mark_back_matter(blocks: list) -> list:
    """Return HTML blocks with what follows the closing "THE END" after the last chapter headed as back matter.

    The last chapter is the last heading at the level the book is divided at: a book titled in one <h1>
    over <h2> chapters (a magazine's first story ending "THE END" before its second) is not over at the
    first "THE END" after its title.
    """
    level = split_level(blocks) or 1
    blocks = closing_list_blocks(blocks, level)  # round txt19: a publisher's lists ending the book
    last = max((i for i, b in enumerate(blocks) if 0 < b.level <= level), default=None)
    if last is None:
        return blocks
    for i in range(last + 1, len(blocks)):
        if CLOSING.match(clean_line(blocks[i].text)) and i + 1 < len(blocks):
            return blocks[:i + 1] + [Block(BACK_MATTER, level)] + blocks[i + 1:]
    return blocks
