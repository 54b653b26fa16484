"""Who says each quotation: tags first, then the turns of a conversation, then names in the quotes.

A book is walked once in order. Each paragraph with quotations is a turn of the conversation it is in (a
narration paragraph of some length ends a conversation). A turn's speaker comes, best first, from:
an explicit tag naming someone; a pronoun or description tag resolved to the last person of that gender
named or speaking nearby; a paragraph that continues the previous one's unclosed speech; someone
addressed by name in the previous turn; the speaker two turns back (two people take turns); someone the
paragraph's narration names; and last, a guess (the person most recently named who did not just speak).
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field

from app.cast.dialogue import RawQuote
from app.cast.names import MENTION, Person, Roster, _sentence_start, split_mention
from app.cast.tags import Tag, tag_after, tag_before
from app.errors import Cancelled

#: Stands for the first-person narrator in the history and the turns.
NARRATOR = Person(first="I")

#: A narration paragraph longer than this (words) ends a conversation.
_SCENE_BREAK_WORDS = 80
#: How many recent mentions a pronoun is resolved among.
_HISTORY = 30
_VOCATIVE_BEFORE = re.compile(r"(?:^|[,!?;\u2014-]\s*|\b(?:dear|my|oh|Oh|O|ah|Ah|poor|good)\s+)$")
_VOCATIVE_AFTER = re.compile(r"^\s*(?:[,.!?;\u2014-]|$)")


@dataclass
class Said:
    """The speaker found for one quotation."""

    person: Person | None
    method: str
    confidence: float


@dataclass
class Turn:
    """One paragraph's quotations in a conversation."""

    quotes: list[int]
    said: Said | None = None
    addressed: list[Person] = field(default_factory=list)
    named: list[Person] = field(default_factory=list)
    beat: Person | None = None
    continues: bool = False


class Attributor:
    """Attribute the quotations of one book, chapter by chapter, in book order."""

    def __init__(self, roster: Roster, first_person: bool):
        self.roster = roster
        self.first_person = first_person
        self.history: list[Person] = []
        self.turns: list[Turn] = []
        self.results: list[Said | None] = []

    # --- mentions -----------------------------------------------------------------------------------
    def _remember(self, person: Person | None) -> None:
        if person is None:
            return
        self.history.append(person)
        if len(self.history) > 3 * _HISTORY:
            del self.history[:-_HISTORY]

    def _mentions(self, text: str) -> list[tuple[int, int, Person]]:
        return list(self.roster.mentions(text))

    def _resolve_name(self, words: str) -> Person | None:
        m = MENTION.match(words)
        if not m:
            return None
        title, tokens = split_mention(m)
        person = self.roster.lookup(title, tokens)
        if person is None and len(tokens) > 1:
            person = self.roster.lookup(None, tokens[1:])  # "Then Elizabeth"
        return person

    def _resolve_gender(self, gender: str | None, exclude: Person | None, local: list[Person]) -> Person | None:
        """Return the person a "he"/"she" most likely is: named in this paragraph, else in the recent talk."""
        for person in reversed(local):
            if gender is None or person.gender == gender:
                return person
        seen: list[Person] = []
        for person in reversed(self.history[-_HISTORY:]):
            if person is NARRATOR or person in seen:
                continue
            if gender is None or person.gender == gender:
                seen.append(person)
            if len(seen) == 2:
                break
        if not seen:
            return None
        if seen[0] is exclude and len(seen) > 1:
            return seen[1]  # a reply: not the one who just spoke
        return seen[0]

    def _from_tag(self, tag: Tag, previous: Person | None, local: list[Person]) -> Said | None:
        if tag.kind == "narrator":
            return Said(NARRATOR, "explicit", 0.9)
        if tag.kind == "name":
            person = self._resolve_name(tag.words)
            return Said(person, "explicit", 0.95) if person else None
        if tag.kind == "description" and tag.gender is None:
            person = self.roster.by_title(tag.words.split()[-1])
            if person:
                return Said(person, "anaphoric", 0.7)
            return None
        person = self._resolve_gender(tag.gender, previous, local)
        if person is None:
            return None
        return Said(person, "anaphoric", 0.8 if tag.kind == "pronoun" else 0.6)

    # --- one paragraph --------------------------------------------------------------------------------
    def paragraph(self, text: str, quotes: list[RawQuote], first_index: int) -> None:
        """Attribute the quotations of one paragraph (quotes in order; first_index is the first one's number)."""
        if not quotes:
            narration = text
            self._narration(narration)
            return
        turn = Turn(list(range(first_index, first_index + len(quotes))), continues=quotes[0].continues)
        previous = self._speaker(-1)
        cuts = [0] + [x for q in quotes for x in (q.start, q.end)] + [len(text)]
        pieces = [text[cuts[i]:cuts[i + 1]] for i in range(0, len(cuts), 2)]
        local: list[Person] = []
        own: list[Said | None] = []
        for n, q in enumerate(quotes):
            before, after = pieces[n], pieces[n + 1]
            for _, _, person in self._mentions(before):
                local.append(person)
            said = None
            tag = tag_after(after) if after.strip() else None
            if tag is None and before.strip():
                tag = tag_before(before)
            if tag is not None:
                said = self._from_tag(tag, previous, local)
            if said is None and len(after.split()) <= 8 and after.strip():
                # An aside right after a quote that names someone ("\u2014 dit Jean.", "Holmes, impatiently.").
                named = self._mentions(after)
                if named:
                    said = Said(named[0][2], "explicit", 0.7)
            own.append(said)
            for _, _, person in self._mentions(q.text):
                turn.named.append(person)
                if self._vocative(q.text, person):
                    turn.addressed.append(person)
        for _, _, person in self._mentions(pieces[-1]):
            local.append(person)
        turn.beat = self._beat(pieces)
        best = next((s for s in own if s is not None and s.person is not None), None)
        turn.said = best
        self.turns.append(turn)
        if best is None:
            conv = self._conversation()
            self._forward(conv, len(conv) - 1)
            best = turn.said
        for n, said in enumerate(own):
            self.results.append(said if said is not None else None)
        for person in local:
            self._remember(person)
        if best is not None:
            self._remember(best.person)

    def _narration(self, text: str) -> None:
        for _, _, person in self._mentions(text):
            self._remember(person)
        if len(text.split()) > _SCENE_BREAK_WORDS:
            self.turns.append(Turn([]))  # an empty turn: the conversation ends

    def _vocative(self, quote: str, person: Person) -> bool:
        for start, end, who in self._mentions(quote):
            if who is person and _VOCATIVE_BEFORE.search(quote[:start]) and _VOCATIVE_AFTER.match(quote[end:]):
                return True
        return False

    def _beat(self, pieces: list[str]) -> Person | None:
        """Return the person the paragraph's narration is about: the first named at a sentence's start."""
        for piece in pieces:
            for start, _, person in self._mentions(piece):
                if _sentence_start(piece, start) or start < 3:
                    return person
        return None

    def _speaker(self, offset: int) -> Person | None:
        n = len(self.turns) + offset
        if n < 0 or not self.turns[n].quotes:
            return None
        said = self.turns[n].said
        return said.person if said else None

    # --- the conversation's turns -------------------------------------------------------------------
    def finish(self) -> list[Said]:
        """Return one Said per quotation, after the conversation passes."""
        conversations: list[list[Turn]] = [[]]
        for turn in self.turns:
            if not turn.quotes:
                conversations.append([])
            else:
                conversations[-1].append(turn)
        for conv in conversations:
            self._backward(conv)
            self._guess(conv)
        out: list[Said] = []
        for turn in self.turns:
            for i in turn.quotes:
                own = self.results[i]
                out.append(own if own is not None and own.person is not None else
                           turn.said or Said(None, "guess", 0.0))
        return out

    def _conversation(self) -> list[Turn]:
        """Return the turns of the conversation going on, the last one included."""
        start = len(self.turns)
        while start > 0 and self.turns[start - 1].quotes:
            start -= 1
        return self.turns[start:]

    def _forward(self, conv: list[Turn], i: int) -> None:
        """Give turn i of a conversation the speaker its predecessors imply, if they do."""
        turn = conv[i]
        if True:
            prev = conv[i - 1].said if i >= 1 else None
            prev2 = conv[i - 2].said if i >= 2 else None
            if turn.continues and prev is not None:
                turn.said = Said(prev.person, prev.method, prev.confidence)
                return
            addressed = [p for p in (conv[i - 1].addressed if i else []) if prev is None or p is not prev.person]
            if addressed:
                turn.said = Said(addressed[0], "vocative", 0.6)
            elif prev is not None and prev2 is not None and prev.person is not prev2.person:
                turn.said = Said(prev2.person, "turn-taking", max(0.3, prev2.confidence * 0.75))

    def _backward(self, conv: list[Turn]) -> None:
        for i in range(len(conv) - 1, -1, -1):
            turn = conv[i]
            if turn.said is not None:
                continue
            nxt = conv[i + 1].said if i + 1 < len(conv) else None
            nxt2 = conv[i + 2].said if i + 2 < len(conv) else None
            if conv[i + 1].continues if i + 1 < len(conv) else False:
                if nxt is not None:
                    turn.said = Said(nxt.person, nxt.method, nxt.confidence)
                    continue
            if nxt is not None and nxt2 is not None and nxt.person is not nxt2.person:
                turn.said = Said(nxt2.person, "turn-taking", max(0.3, nxt2.confidence * 0.7))

    def _guess(self, conv: list[Turn]) -> None:
        for i, turn in enumerate(conv):
            if turn.said is not None:
                continue
            prev = conv[i - 1].said.person if i and conv[i - 1].said else None
            if turn.beat is not None and turn.beat is not prev:
                turn.said = Said(turn.beat, "guess", 0.45)
                continue
            candidates = [p for p in turn.named if p is not prev and p not in turn.addressed]
            if candidates:
                turn.said = Said(candidates[0], "guess", 0.25)
            elif prev is not None and i >= 1:
                other = next((t.said.person for t in reversed(conv[:i]) if t.said and t.said.person is not prev), None)
                if other is not None:
                    turn.said = Said(other, "guess", 0.3)
