"""The turns of a conversation: who says each quotation the tags leave open.

Each paragraph with quotations is a Turn. Between two anchors (quotations whose speaker a tag or a
pronoun settled) the turns alternate between the two people taking part, keeping the parity the
anchors set; a name addressed in the turn before, then the person the narration is about, then the
most recent other speaker are the fallbacks (a guess).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from app.cast.person import Person

#: How many turns away the other party of a conversation is looked for.
REACH = 8


@dataclass
class Said:
    """The speaker found for one quotation."""

    person: Person | None
    method: str
    confidence: float
    #: The tag's speech verb and adverb, for the line's delivery ("whispered", "softly").
    verb: str = ""
    manner: str = ""
    #: The text settles it as a name would ("said her mother", Mrs. of the daughter's surname): the ranker
    #: leaves it, as it leaves an explicit tag.
    settled: bool = False
    #: Found by a description that fits anyone of a kind ("said the gentleman"): a ranker feature of its own.
    described: bool = False


@dataclass
class Turn:
    """One paragraph's quotations in a conversation."""

    quotes: list[int]
    said: Said | None = None
    addressed: list[Person] = field(default_factory=list)
    named: list[Person] = field(default_factory=list)
    beat: Person | None = None
    continues: bool = False
    #: The person last named before this turn (not in its quotes): the last resort.
    recent: Person | None = None
    #: The people the paragraph's narration names, in order (features of the ranker).
    local: list[Person] = field(default_factory=list)
    #: The people named or speaking lately, most recent first, before this turn.
    history: list[Person] = field(default_factory=list)
    #: The people named or speaking before those of history, most recent first (candidates further back).
    far: list[Person] = field(default_factory=list)
    #: Whom a kin tag's "his" or "her" is ("said her mother": the daughter), never the speaker.
    possessors: list[Person] = field(default_factory=list)
    #: The gender of a "he"/"she" tag of the turn, None when it has none.
    gender: str | None = None
    #: The gender of whom the turn's quotes speak to by a form of address ("sir", "madam"), None when none.
    address_gender: str | None = None


def other_party(conv: list[Turn], i: int, person: Person | None, step: int, dist: int) -> tuple[Person | None, str]:
    """Return who takes turns with person around turn i (looking in direction step), and how it is known."""
    if dist == 1 and step == -1:
        # The turn right before addresses someone by name: they answer.
        for candidate in conv[i].addressed:
            if candidate is not person:
                return candidate, "vocative"
    j = i + step
    if 0 <= j < len(conv) and conv[j].said and conv[j].said.person is not person:
        return conv[j].said.person, "turn-taking"
    turn = conv[i]
    near = conv[i - step] if 0 <= i - step < len(conv) else None
    for candidate in (turn.addressed + (near.addressed if near else [])):
        if candidate is not person:
            return candidate, "vocative"
    # Further along the conversation: the last other speaker, or someone the anchor's side spoke to.
    for k in range(1, REACH):
        j = i + step * k
        if not 0 <= j < len(conv):
            break
        said = conv[j].said
        if said and said.person is not None and said.person is not person:
            return said.person, "turn-taking"
        for candidate in conv[j].addressed:
            if candidate is not person:
                return candidate, "vocative"
    return None, ""


def fill_turns(conv: list[Turn]) -> None:
    """Fill the turns without an anchor: two people alternate between anchors, parity kept."""
    # Someone addressed by name answers next ("When is your next ball to be, Lizzy?" "Tomorrow fortnight.").
    for p in range(1, len(conv)):
        turn, prev = conv[p], conv[p - 1]
        if turn.said is not None or turn.continues:
            continue
        speaker = prev.said.person if prev.said else None
        addressed = [x for x in prev.addressed if x is not speaker and x not in turn.named]
        if addressed:
            turn.said = Said(addressed[-1], "vocative", 0.6)
    known = [t.said is not None for t in conv]
    i = 0
    while i < len(conv):
        if known[i]:
            i += 1
            continue
        a = i
        while i < len(conv) and not known[i]:
            i += 1
        b = i - 1  # the gap is conv[a..b]
        left = conv[a - 1].said if a >= 1 else None
        right = conv[b + 1].said if b + 1 < len(conv) else None
        for p in range(a, b + 1):
            said = in_gap(conv, p, a, b, left, right)
            if said is not None and said.person in conv[p].named:
                said = None  # the turn names them: they are spoken to, not speaking
            conv[p].said = said
    for p, turn in enumerate(conv):
        if turn.said is None or turn.said.person is None:
            turn.said = guess(conv, p)


def in_gap(conv: list[Turn], p: int, a: int, b: int, left: Said | None, right: Said | None) -> Said | None:
    """Return the speaker of turn p in the gap conv[a..b] between the anchors left (a-1) and right (b+1)."""
    if conv[p].continues and p > a and conv[p - 1].said is not None:
        return conv[p - 1].said
    from_left = p - (a - 1)
    from_right = (b + 1) - p
    # The surer anchor leads; of two alike, the nearer.
    use_left = left is not None and (right is None or left.confidence > right.confidence + 0.2 or
                                     (abs(left.confidence - right.confidence) <= 0.2 and from_left <= from_right))
    if left is not None and right is not None and left.person is not right.person and (b - a) % 2 == 1:
        # An odd distance between two different speakers: they alternate through the gap, both ends agree.
        person = left.person if from_left % 2 == 0 else right.person
        return Said(person, "turn-taking", 0.65)
    sides = [(left, from_left, -1, a - 1), (right, from_right, 1, b + 1)]
    for anchor, dist, step, idx in sides if use_left else sides[::-1]:
        if anchor is None:
            continue
        if dist % 2 == 0:
            return Said(anchor.person, "turn-taking", max(0.3, 0.7 - 0.05 * dist))
        other, how = other_party(conv, idx, anchor.person, step, dist)
        if other is not None:
            return Said(other, how, max(0.3, (0.65 if how == "turn-taking" else 0.55) - 0.05 * dist))
    return None


def guess(conv: list[Turn], p: int) -> Said | None:
    turn = conv[p]
    prev = conv[p - 1].said.person if p and conv[p - 1].said else None
    if turn.beat is not None and turn.beat is not prev and turn.beat not in turn.named:
        return Said(turn.beat, "guess", 0.45)
    addressed = [x for x in (conv[p - 1].addressed if p else []) if x not in turn.named]
    if addressed:
        return Said(addressed[0], "vocative", 0.5)
    other = next((t.said.person for t in reversed(conv[:p]) if t.said and t.said.person not in (None, prev)
                  and t.said.person not in turn.named), None)
    if other is not None:
        return Said(other, "guess", 0.3)
    if turn.recent is not None:
        return Said(turn.recent, "guess", 0.2)
    return turn.said


def conversation(turns: list[Turn]) -> list[Turn]:
    """Return the turns of the conversation going on (since the last empty turn), the last one included."""
    start = len(turns)
    while start > 0 and turns[start - 1].quotes:
        start -= 1
    return turns[start:]


def participants(turns: list[Turn]) -> list[Person]:
    """Return the speakers of the conversation going on before its last turn, most recent first."""
    out: list[Person] = []
    for turn in reversed(conversation(turns)[:-1] if turns else []):
        if turn.said and turn.said.person is not None and turn.said.person not in out:
            out.append(turn.said.person)
    return out


def previous_speaker(turns: list[Turn]) -> Person | None:
    """Return who spoke the turn before the last one of the conversation going on."""
    conv = conversation(turns)
    return conv[-2].said.person if len(conv) >= 2 and conv[-2].said is not None else None


def split_conversations(turns: list[Turn]) -> list[list[Turn]]:
    """Return the turns grouped into conversations (an empty turn, a long narration, ends one)."""
    conversations: list[list[Turn]] = [[]]
    for turn in turns:
        if not turn.quotes:
            conversations.append([])
        else:
            conversations[-1].append(turn)
    return conversations


def settle(turns: list[Turn], results: list[Said | None], delivery: list[tuple[str, str]], ranked: bool) -> list[Said]:
    """Return one Said per quotation: its own tag's (when ranked, only an explicit or settled one), else its turn's.

    Whoever says it, a quote's verb and manner are its own tag's (the speaker may be another tag's, or none's).
    """
    out: list[Said] = []
    for turn in turns:
        for i in turn.quotes:
            own = results[i]
            if own is not None and own.person is not None and (not ranked or own.method == "explicit" or own.settled):
                said = own
            else:
                said = turn.said or Said(None, "guess", 0.0)
            verb, manner = delivery[i]
            out.append(Said(said.person, said.method, said.confidence, verb, manner))
    return out
