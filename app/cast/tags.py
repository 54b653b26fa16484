"""Dialogue tags: the narration next to a quotation that says who speaks it ("said Hartley", "she cried")."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from app.cast.namedata import PERSON_NOUNS
from app.cast.names import MENTION, TITLES

#: Verbs that report speech (past and present); a tag needs one, or a name in a short aside after a quote.
SPEECH_VERBS = """said says say cried cries replied replies answered answers asked asks exclaimed exclaims returned
continued added observed remarked whispered whispers shouted shouts muttered mutters murmured murmurs called began
resumed interrupted repeated rejoined retorted declared inquired enquired protested explained insisted urged pleaded
sighed laughed groaned screamed yelled roared growled stammered faltered suggested agreed admitted demanded persisted
responded ventured concluded echoed gasped sobbed snapped told mumbled drawled stuttered wailed moaned grumbled hissed
breathed thundered bellowed chuckled sneered snarled panted remonstrated expostulated assented objected conceded
affirmed assured urged warned announced commanded ordered observed spoke
thought cries corrected reiterated reasoned mused pursued proceeded argued joined broke screamed squeaked shrieked
whimpered blurted confessed volunteered prompted smiled nodded asserted interposed yawned boomed intervened reminded
chided scolded cooed purred quavered blustered jeered taunted teased barked spluttered sputtered lisped pronounced
queried counselled counseled cautioned implored entreated besought commented assented acquiesced ejaculated
vociferated simpered bawled piped interjected comforted consoled soothed""".split()
#: Verbs that report speech only with their particle ("went on", "broke in").
PHRASAL_VERBS = ("went on", "goes on", "put in", "broke in", "burst out", "struck in", "chimed in", "piped up", "spoke up",
                 "cut in", "broke out", "called out", "cried out", "went on to say")
_VERB = r"(?:" + "|".join(re.escape(v).replace(r"\ ", r"\s+") for v in sorted(PHRASAL_VERBS, key=len, reverse=True)) + "|" + \
    "|".join(sorted(set(SPEECH_VERBS), key=len, reverse=True)) + r")(?:\s+(?:out|in|on|up))?"
_TITLE = "|".join(sorted(TITLES, key=len, reverse=True))
_NAME = rf"(?:(?:{_TITLE})\.?\s+)?(?:O['\u2019])?[A-Z][a-z\u00c0-\u024f]+(?:[\s-]+(?:(?:de|van|von|du|le)\s+)?[A-Z][a-z\u00c0-\u024f]+){{0,3}}"
#: "the surgeon", "his wife", "the still waiting Agnes", "the good-hearted Mrs. John Tresham".
#: A name as tags write it (app/cast/loose.py finds a sentence's subjects with it too).
NAME = _NAME
_DESC = rf"(?:[Tt]he|[Hh]is|[Hh]er|[Mm]y|[Oo]ur|[Tt]heir|[Yy]our|[Ii]ts|[Tt]his|[Tt]hat)\s+(?:[a-z-]+\s+){{0,2}}(?:{_NAME}|[A-Za-z]+(?:-[a-z]+)*)(?:['\u2019]s\s+[a-z]+(?:-[a-z]+)*)?"
#: "said one of the boys", "one of the colts cried": someone of a group, a part of its own.
_ONE_OF = r"[Oo]ne\s+of\s+(?:the|his|her|their|our|my|your)\s+(?:[a-z]+\s+)?[a-z]+s\b"
_PERSON_NOUN = "|".join(re.escape(w) for w in sorted(PERSON_NOUNS, key=len, reverse=True))
#: "said a boy", "cried a sleepy-faced carpenter": someone the tag brings in without a name (app/cast/data/
#: person_nouns.tsv); at most three words describe the noun.
_NEWCOMER = rf"[Aa]n?\s+(?:[a-z]+(?:-[a-z]+)*,?\s+){{0,3}}?(?:{_PERSON_NOUN})(?![\w-])"
#: Not a possessive: "said my brother's wife" is no line of my brother's.
_SUBJ = rf"(?P<subj>{_ONE_OF}|{_NEWCOMER}|{_NAME}|[Hh]e|[Ss]he|I|{_DESC})(?![\w'\u2019])"
_ADV = r"(?:\s+[a-z]+ly)?"
#: After a quotation: ', said Hartley', ' cried his wife', ' said she'.
AFTER_INVERTED = re.compile(rf"^[\s,;:\u2014-]*(?:[a-z]+ly\s+)?(?P<verb>{_VERB}){_ADV}\s+{_SUBJ}\b")
#: After a quotation: ' Dunmore said', ' she cried', ', his wife replied', ' Ellen, smiling, said'.
AFTER_NORMAL = re.compile(rf"^[\s,;:\u2014-]*{_SUBJ}(?:,[^,\u201c\u201d\"]{{1,40}},)?(?:\s+(?:had|has|then|now|at last|again|only|quickly|softly))?{_ADV}\s+(?P<verb>{_VERB})\b")
#: Before a quotation: 'Hartley said to me, ', 'She answered: '.
BEFORE = re.compile(rf"(?:^|[.!?;]\s+|\s)(?:and\s+)?{_SUBJ}(?:,[^,\u201c\u201d\"]{{1,60}},)?(?:\s+(?:had|has|then|now|at last|again|only))?(?:\s+[a-z]+ed\s+(?:and|to))?{_ADV}\s+(?P<verb>{_VERB})\b[^.!?\u201c\u201d\"]{{0,60}}[,:]?\s*$")
_DETERMINERS = frozenset("the his her my our their your its this that".split())
#: Nouns that name anyone of a kind, resolved to a person about ("said the girl" is a girl already there).
_GENERIC = frozenset("man woman boy girl lady gentleman child fellow lad lass youth person stranger".split())
#: Words before a generic noun that say the person's age ("the old lady", "the young man").
_AGE_WORDS = frozenset("old young little elderly elder aged".split())
_KIN_WORDS = frozenset("""mother father aunt uncle wife husband sister brother son daughter cousin niece nephew
grandmother grandfather""".split())
#: Words after "the" that are not someone ("said the other", "said the first").
_NOT_ROLES = frozenset("""other others first second last one two three voice voices same latter former rest question
answer reply words tone word remark thought idea matter truth thing things rejoinder was is had has being been
were are""".split())
_RANKS = frozenset("inspector doctor colonel captain major professor sergeant general lieutenant judge".split())
_DESC_FEMALE = frozenset("""wife mother girl lady woman sister aunt daughter niece widow bride mistress maid queen duchess
princess hostess landlady governess grandmother cousin-girl damsel spinster lass""".split())
_DESC_MALE = frozenset("""husband father boy man gentleman brother uncle son nephew widower groom master king duke prince
host landlord grandfather lad fellow squire youth""".split())


@dataclass(frozen=True)
class Tag:
    """Who a tag says speaks: a name as written, a pronoun, or a description."""

    #: "name", "pronoun", "narrator", "description" (resolved to a person about), "role" (a part with no
    #: name: "the surgeon") or "other" ("said the other": whoever of the talk did not speak last).
    kind: str
    #: The words: "Mrs. Harlow", "she", "his wife".
    words: str
    #: The gender a pronoun or description shows.
    gender: str | None = None
    verb: str = ""
    #: The adverb the tag gives the delivery ("softly" in "said she softly"), "" when none.
    manner: str = ""
    #: The name came with an article ("the Heron"): a part the book may never name otherwise.
    article: bool = False
    #: A part of its own, never someone about: the tag brings in a newcomer ("said a sleepy-faced carpenter").
    own: bool = False
    #: "said the gentleman in the white waistcoat": the description with what tells the person apart
    #: (app/cast/attribution.py makes it a part of its own when the book's tags repeat it).
    epithet: str = ""


#: Words that end a noun phrase: a description running into one ("the clerk in a low voice", "the ground as
#: she spoke", "the look and said") is no speaker's.
_PHRASE_ENDS = frozenset("""and or but as in on at to of with for from by into upon when while who whom that which
he she it they we you i his her its their our was is had has were are be been""".split())


def _tag(m: re.Match, inverted: bool = False) -> Tag | None:
    """Return the Tag a tag match makes. inverted: the subject follows the verb ("said the clerk in a low
    voice"): a phrase there ends at its first function word; before the verb one inside it is no subject."""
    tag = _plain_tag(m, inverted)
    if tag is not None and inverted and tag.kind == "description" and tag.words.startswith("the "):
        return replace(tag, epithet=_told_apart(m.string, m.start("subj")))
    return tag


def _plain_tag(m: re.Match, inverted: bool) -> Tag | None:
    subj = m.group("subj")
    verb = m.group("verb")
    words = subj.split()
    if words[0].lower() == "one" and len(words) > 2 and words[1] == "of":
        return _one_of(subj.lower(), verb)
    if words[0].lower() in ("a", "an"):
        return _newcomer(words, verb)
    if words[0].lower() in _DETERMINERS and len(words) > 1:
        cut = next((k for k, w in enumerate(words[1:], 1) if w.lower() in _PHRASE_ENDS), None)
        if cut is not None:
            if not inverted or cut == 1:
                return None
            subj = " ".join(words[:cut])
        # "the still waiting Agnes", "the startled Maud": a name after the words describing it.
        words = subj.split()
        tail = next((k for k, w in enumerate(words[1:], 1) if w[0].isupper()), None)
        if tail is not None and tail > 1 and all(w[0].isupper() or w.endswith(".") for w in words[tail:]):
            name = " ".join(words[tail:])
            if MENTION.match(name) and words[tail].rstrip(".") not in TITLES and words[tail].lower() not in _RANKS:
                return Tag("name", name, None, verb)
            if words[tail].rstrip(".") in TITLES and len(words) > tail + 1:
                return Tag("name", name, None, verb)  # "the good-hearted Mrs. John Tresham"
    low = subj.lower()
    owner = re.search(r"['\u2019]s ", subj)
    if owner and low.split()[-1] in _NOT_ROLES:
        # "said his mother's voice": the voice is his mother's.
        subj = subj[:owner.start()]
        low, words = subj.lower(), subj.split()
    elif owner and words[0].lower() in _DETERMINERS:
        # "said the child's nurse", "said my brother's wife": a part of its own, named by whose it is.
        noun = low.split()[-1]
        gender = "F" if noun in _DESC_FEMALE else "M" if noun in _DESC_MALE else None
        return Tag("role", low.replace("\u2019", "'"), gender, verb)
    if subj == "I":
        return Tag("narrator", subj, None, verb)
    if low in ("he", "she"):
        return Tag("pronoun", low, "M" if low == "he" else "F", verb)
    words = low.split()
    if words[:2] == ["the", "other"] and (len(words) == 2 or len(words) == 3 and words[2] in _GENERIC):
        # "said the other", "the other man replied": whoever of the talk did not speak last (attribution.py).
        return Tag("other", low, "F" if words[-1] in _DESC_FEMALE else "M" if words[-1] in _DESC_MALE else None, verb)
    if len(words) == 3 and words[0] == "the" and words[1] in _ORDINALS and words[2] in PERSON_NOUNS:
        # "said the first housemaid", "the second soldier": one of several alike, told apart by the count.
        return Tag("role", low, PERSON_NOUNS[words[2]], verb, own=True)
    if subj[0].isupper() and MENTION.match(subj) and words[0] not in _DETERMINERS:
        return Tag("name", subj, None, verb)
    rest = subj.split(None, 1)[1] if len(words) > 1 else ""
    if words[0] == "the" and rest[:1].isupper() and MENTION.match(rest) and rest.split()[0] not in TITLES \
            and words[1] not in _RANKS:
        return Tag("name", rest, None, verb, article=True)  # "the Grey Heron", "the Warden": a name with an article
    for noun in words[1:]:
        gender = "F" if noun in _DESC_FEMALE else "M" if noun in _DESC_MALE else None
        title = noun.capitalize()
        if gender and words[0] != "the":
            return Tag("description", " ".join(words[:1] + [noun]), gender, verb)  # "his lady", "her mother"
        if (title in TITLES or noun in _RANKS) and noun not in _KIN_WORDS and noun not in _GENERIC:
            # "the Inspector": the one person with that rank, else the role itself ("the General").
            return Tag("role" if words[0] == "the" else "description", noun, TITLES.get(title) or gender, verb)
        if gender and (noun in _GENERIC or noun in _KIN_WORDS or words[0] != "the"):
            # "the old gentleman", "the young lady": the age word narrows who is meant; other words do not.
            age = [w for w in words[1:words.index(noun)] if w in _AGE_WORDS][:1]
            return Tag("description", " ".join(words[:1] + age + [noun]), gender, verb)
        if any(w in _NOT_ROLES for w in words[1:]):
            return None
        if gender or (noun == words[-1] and (words[0] == "the" or words[0] in ("my", "our") and "-" not in noun)):
            # "the surgeon", "the landlord": a part in the story with no name; it gets a voice of its own.
            # "the postmaster testily": the adverb is the delivery, not the part.
            part = [w for k, w in enumerate(words) if k < 2 or not w.endswith("ly")]
            return Tag("role", " ".join(part), gender, verb)
    return None


_ORDINALS = frozenset("first second third fourth fifth".split())
#: Words before a newcomer's noun that make it no one person ("a few men", "a second man").
_NOT_NEWCOMER = frozenset("""other few second third number couple great deal certain good many single""".split())


def _newcomer(words: list[str], verb: str) -> Tag | None:
    """Return the part "said a sleepy-faced carpenter" brings in: someone new to the scene, whom the tag's
    words describe; never the scene's named person (the next "said the carpenter" is that part)."""
    low = [w.lower().rstrip(",") for w in words]
    if set(low[1:-1]) & (_NOT_NEWCOMER | _PHRASE_ENDS) or low[-1] in _GENERIC and set(low[1:-1]) <= _AGE_WORDS:
        # "said a man", "said an old gentleman" with no word but age: as often a named person met anew (a book
        # may call its hero "the old gentleman" for chapters) as one new one, and several strangers so
        # described would gather into one part.
        return None
    return Tag("role", " ".join(["the", *low[1:]]), PERSON_NOUNS.get(low[-1]), verb, own=True)


#: "said the gentleman in the white waistcoat", "replied the lady who had been a nurse": a kind of person
#: told apart by what they wear, carry or did: a part of its own, not whoever of that kind is about.
_TOLD_APART = re.compile(rf"[Tt]he\s+((?:[a-z]+(?:-[a-z]+)*\s+){{0,2}}?)({_PERSON_NOUN})\s+"
                         r"((?:in|with)\s+the\s+(?:[a-z]+(?:-[a-z]+)*\s+){0,2}?[a-z]+(?:-[a-z]+)*"
                         r"|who\s+(?:had|was|has|is)\s+[a-z][A-Za-z' -]{2,40}?)(?=\s*(?:[,.;:!?\u2014\u201c\u201d\"]|$))")
#: Words of a phrase after "in the", "with the" that say how someone speaks or where, not who they are.
_MANNER_WORDS = frozenset("""same voice tone manner way air accent whisper smile laugh look sigh breath glance
greatest utmost most least slightest meantime end first last other least calmness composure coolness""".split())


_SPOKE = re.compile(r"\b(?:spoken|spoke|said|asked|answered|replied)\b")


def _told_apart(text: str, start: int) -> str:
    """Return the words of "the gentleman in the white waistcoat" at start, "" when the tag has none."""
    m = _TOLD_APART.match(text, start)
    if not m or set(m.group(1).split()) & (_NOT_NEWCOMER | _PHRASE_ENDS | {"first", "last", "other", "same"}):
        return ""
    tail = m.group(3).split()
    if tail[0] in ("in", "with") and set(tail[2:]) & _MANNER_WORDS or tail[0] == "who" and _SPOKE.search(m.group(3)):
        return ""  # "the gentleman who had spoken first" is someone already speaking: left to the scene
    return "the " + " ".join(m.group(1).split() + [m.group(2)] + tail)


#: Plural nouns of a group whose members' gender the noun gives ("one of the girls").
_PLURAL_GENDER = {"men": "M", "women": "F", "ladies": "F", "gentlemen": "M", "girls": "F", "boys": "M",
                  "sisters": "F", "brothers": "M", "daughters": "F", "sons": "M", "maids": "F", "lads": "M"}


def _one_of(words: str, verb: str) -> Tag | None:
    """Return the part "one of the boys" names: one member of a group the scene holds, whom no name tells
    apart; a voice of its own, never the scene's named person. "one of them" is left to the turns."""
    noun = words.split()[-1]
    if noun in _NOT_ROLES:
        return None
    return Tag("role", words, _PLURAL_GENDER.get(noun), verb)


#: A sentence ends inside the narration between two quotes (not after a title: "Mrs. Harlow").
SENTENCE_BREAK = re.compile(r"(?<!\bMr)(?<!\bMrs)(?<!\bDr)(?<!\bSt)(?<!\bMs)[.!?](?:\s|$)")


def one_sentence(narration: str) -> bool:
    """Return whether narration between two quotes is one sentence at most (a full stop only at its end)."""
    text = narration.rstrip()
    return all(m.end() >= len(text) for m in SENTENCE_BREAK.finditer(text))



def same_sentence(narration: str) -> bool:
    """Return whether narration between two quotes ends no sentence (an interrupted quote's tag)."""
    return not SENTENCE_BREAK.search(narration)


def new_sentence(narration: str) -> bool:
    """Return whether narration after a quote opens a sentence of its own ("Tom nodded."), not the quote's
    inverted or pronoun tag ("said Tom", "she added")."""
    return narration.lstrip(" ,;:\u2014-")[:1].isupper()


_MANNER = re.compile(r"\b([a-z]{3,}ly)\b")
#: Words in -ly that say nothing of a voice.
_NOT_MANNER = frozenset("""only early family lovely likely holy july reply ugly emily lily molly sally polly daily silly
jolly nearly really fly rely apply supply belly bully ally folly holly jelly rally tally kelly nelly dolly
billy willy lonely presently finally suddenly immediately italy""".split())
#: Where a tag's words end: the sentence, or the next quotation.
_TAG_STOP = re.compile(r"[.!?;\u201c\u201d\"]")


def _with_manner(tag: Tag | None, text: str, start: int, end: int) -> Tag | None:
    """Return the tag with the adverb in its own words, or right after them in its sentence ("said Hartley,
    gravely"); an adverb of the next sentence ("said Hartley. He quickly left") is not the line's."""
    if tag is None:
        return None
    tail = text[end:end + 25]
    stop = _TAG_STOP.search(tail)
    for m in _MANNER.finditer(text[start:end] + " " + (tail[:stop.start()] if stop else tail)):
        word = m.group(1)
        if word not in _NOT_MANNER:
            return replace(tag, manner=word)
    return tag


def _after(narration: str) -> tuple[Tag, str, re.Match] | None:
    head = narration[:160]
    lead = len(head) - len(head.lstrip(" ,;:\u2014-"))
    # "“...?” Said Helen." reads as "said Helen".
    lowered = head[:lead] + head[lead:lead + 1].lower() + head[lead + 1:]
    for text in (head, lowered) if lowered != head else (head,):
        for pattern in (AFTER_INVERTED, AFTER_NORMAL):
            m = pattern.match(text)
            if m and (tag := _tag(m, pattern is AFTER_INVERTED)):
                return tag, text, m
    return None


def tag_after(narration: str) -> Tag | None:
    """Return the tag that opens the narration right after a quotation, if any."""
    found = _after(narration)
    return _with_manner(found[0], found[1], found[2].start(), found[2].end()) if found else None


def tag_after_end(narration: str) -> int | None:
    """Return where the tag that opens the narration ends (past its verb and subject), None when none does."""
    found = _after(narration)
    return found[2].end() if found else None


#: Words before a subject the tag regex found that make it no subject of the speech verb.
_NO_SUBJECT = frozenset("""at to towards with of from in on into upon by for over under near behind beside round
around through across about against""".split())


def tag_before(narration: str) -> Tag | None:
    """Return the tag that closes the narration right before a quotation, if any."""
    text = narration[-200:]
    at = 0
    first: tuple[Tag, re.Match] | None = None
    while (m := BEFORE.search(text, at)) is not None:
        # A match that is no subject ("the look and said") gives way to a later start ("Perpetua ... said").
        tag = _tag(m)
        at = m.start() + 1
        if tag is None or text[:m.start("subj")].split()[-1:][0:1] in [[w] for w in _NO_SUBJECT]:
            # "looking at Wenna, whose hands shook, said", "lit the lamp in the porch and said": the one looked
            # at, the place, is no subject.
            continue
        if first is None:
            first = (tag, m)
        elif m.start("subj") >= first[1].end("verb"):
            # A second clause nearer the quote says it: "Wenna replied, so quickly that the clerk said, “Oh!”".
            first = (tag, m)
            break
    if first is None:
        return None
    tag, m = first
    return _with_manner(tag, text, m.start(), m.end())


_LEAD_IN_END = re.compile(r"(?:[:\u2014]|--|,)\s*$")


#: Verbs that, closing a paragraph with nothing said after them, say the next paragraph's speech is coming.
_ONWARD = r"(?:began|continued|went\s+on|proceeded|resumed|interposed|pursued|rejoined|replied|answered|added|spoke)"
#: "Hartley, with a glance at her, went on.", "Greta began again.": the last sentence of a narration paragraph.
_CLOSING = re.compile(rf"(?:^|(?<![A-Z][a-z])(?<!\b[A-Z])[.!?]\s+|,\s+|\band\s+){_SUBJ}(?:\s+(?:himself|herself))?(?:(?:,[^,.!?]{{1,60}}){{1,3}},)?"
                      rf"(?:\s+(?:then|now|again|soon|at\s+last|presently))?{_ADV}\s+(?P<verb>{_ONWARD})(?:\s+(?:again|up|now))?(?:\s+[a-z]+ing)?"
                      r"(?:\s+[a-z]+ly)?(?:,\s+[a-z]+ing\b[^.!?]{0,60})?(?:\s+(?:to|about|with|in)\s+[^.!?,]{1,40})?\.\s*$")


def hands_over(paragraph: str) -> bool:
    """Return whether a paragraph ends as a lead-in does (a colon, comma or dash), not on a closing sentence."""
    return bool(_LEAD_IN_END.search(paragraph[-4:]))


def tag_lead_in(paragraph: str) -> Tag | None:
    """Return the tag of a narration paragraph that hands over to the next one's quote ("Hartley said:"), or
    that ends on someone going on to speak ("Hartley, with a glance at her, went on.")."""
    if not hands_over(paragraph):
        m = _CLOSING.search(paragraph[-240:])
        tag = _tag(m) if m else None
        return tag if tag is not None and (tag.kind in ("name", "pronoun", "narrator") or tag.gender) else None  # "The rain went on."
    return tag_before(paragraph.rstrip(" :,-\u2014"))
