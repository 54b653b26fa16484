"""Who says each quotation: tags first, then the turns of a conversation, then names in the quotes.

A book is walked once in order. Each paragraph with quotations is a turn of the conversation it is in (a
long narration paragraph ends a conversation). The first pass finds the anchors: a tag naming someone
(explicit), a pronoun or description tag resolved to the person of that gender taking part (anaphoric), a
paragraph continuing the previous one's unclosed speech. The second pass fills the turns between anchors with
the two people taking turns, keeping the parity the anchors set; a name addressed in the previous turn
(vocative), the person the paragraph's narration is about, and the most recent other speaker are the fallbacks.
"""
from __future__ import annotations

import re

from app.cast.dialogue import RawQuote
from app.cast.describe import resolve_description
from app.cast.kin import resolve_kin, spouse_of
from app.cast.namedata import NOT_NAMES
from app.cast.names import MENTION, Person, Roster, sentence_start, split_mention
from app.cast.ranker import Ranker, rank_turns
from app.cast.address import address_gender, is_vocative
from app.cast.turns import Said, Turn, conversation, fill_turns, participants, previous_speaker, settle, split_conversations
from app.cast.owned import NARRATORS_OWN, NarratorsOwn, name_part
from app.cast.roles import Parts, titled_in_scene
from app.cast.subjects import Subjects
from app.cast.handover import HandOver
from app.cast.loose import loose_tag_after, loose_tag_before
from app.cast.tags import Tag, hands_over, new_sentence, one_sentence, same_sentence, tag_after, tag_before, tag_lead_in

#: Stands for the first-person narrator in the history and the turns.
NARRATOR = Person(first="I")

#: A part's name keeps its own determiner ("my father", "her husband's friend"); others get "the".
_KEEP_DETERMINER = ("the", "my", "our", "his", "her", "their", "your", "one")
#: Titles that are forms of address only: "the master", "the mistress" name a part, not their bearers.
_ADDRESS_ONLY = frozenset("master mistress miss mister madam".split())
#: A narration paragraph longer than this (words) ends a conversation.
SCENE_BREAK_WORDS = 40
#: How many recent mentions a pronoun is resolved among.
_HISTORY = 10
#: How many people named before a turn's history are still its candidates (the ranker's far reach).
_FAR = 6
#: Narration that leads into the quote after it: a speech verb (and an adverb or "to her") and a comma or colon.
_LEAD_IN = re.compile(r"[,:]\s*$")
_PRONOUN_BEAT = re.compile(r"(?:^\s*|[.!?]\s+)(He|She|I)\s+[a-z]+")
class Attributor:
    """Attribute the quotations of one book, paragraph by paragraph, in book order; then finish()."""

    def __init__(self, roster: Roster, first_person: bool):
        self.roster = roster
        self.first_person = first_person
        self.history: list[Person] = []
        self.turns: list[Turn] = []
        self.results: list[Said | None] = []
        #: Each quotation's own tag's verb and manner, whoever it turns out to name (for its delivery).
        self.delivery: list[tuple[str, str]] = []
        #: A narration paragraph ending "Hartley said:" speaks through the next paragraph's quote.
        self._handed = HandOver()
        #: The people named in the quotes of the paragraph being attributed.
        self._named: list[Person] = []
        #: The one a kin description's "his" or "her" is ("said her mother"): not the speaker.
        self._possessor: Person | None = None
        #: Parts with no name that speak ("the surgeon"), by their words.
        self._roles = Parts(roster)
        #: Who a speech tag has named: a person, whatever else the name could be.
        self._speakers: set[int] = set()
        #: "my brother Robert", "Robert, my brother": the people the narration ties to "my <noun>".
        self._owned = NarratorsOwn()
        #: Who the narration's latest sentences are about, per gender (app/cast/subjects.py).
        self._subjects = Subjects()
        #: Descriptions that tell their person apart which the book's tags repeat (app/cast/tags.py, epithet).
        self.epithets: set[str] = set()

    # --- mentions -----------------------------------------------------------------------------------
    def _remember(self, person: Person | None) -> None:
        if person is None:
            return
        self.history.append(person)
        if len(self.history) > 8 * _HISTORY:
            del self.history[:-4 * _HISTORY]  # a turn's far candidates look this far back

    def _mentions(self, text: str) -> list[tuple[int, int, Person]]:
        return list(self.roster.mentions(text))

    def _resolve_name(self, words: str) -> Person | None:
        m = MENTION.match(words)
        if not m:
            return None
        title, tokens = split_mention(m)
        person = self.roster.lookup(title, tokens)
        if person is None and len(tokens) > 1:
            person = self.roster.lookup(None, tokens[1:])  # "Then Greta"
        return person

    def _resolve_gender(self, gender: str | None, local: list[Person]) -> Person | None:
        """Return the person a "he"/"she" most likely is.

        Among those of that gender: someone the paragraph names before the tag; else, when the previous
        turn's speaker has that gender and another person of it is about, the other one (a reply);
        else the most recent speaker or mention of that gender.
        """
        # Whoever the quote names is spoken to or about: not the speaker.
        named = self._named
        subject = self._subjects.latest(gender)
        if subject is not None and subject not in named and subject is not NARRATOR:
            return subject  # "The vicar sat down. “Well, Ada?” he said."
        for person in local:
            if person.gender == gender and person not in named:
                return person
        # Someone the previous turn spoke to by name answers ("Well, Miss Ashby," said he. ... she replied).
        conv = conversation(self.turns)
        if len(conv) >= 2:
            for person in conv[-2].addressed:
                if person.gender == gender and person not in named:
                    return person
        previous = previous_speaker(self.turns)
        seen: list[Person] = []
        for person in participants(self.turns) + list(reversed(self.history[-_HISTORY:])):
            if person is NARRATOR or person in seen or person.gender != gender or person in named:
                continue
            seen.append(person)
        if not seen:
            # Nobody of that gender is about: the one just described (app/cast/unnamed.py), else one of no known gender.
            seen = self._roles.described(gender, self._speakers) or [p for p in participants(self.turns) + list(
                reversed(self.history[-_HISTORY:])) if p is not NARRATOR and p.gender is None and p not in named
                and (id(p) in self._speakers or p.titles)][:1]
            if not seen:
                return None
        if seen[0] is previous and len(seen) > 1 and seen[1] in participants(self.turns):
            return seen[1]
        return seen[0]

    def _from_tag(self, tag: Tag, local: list[Person]) -> Said | None:
        if tag.kind == "narrator":
            # In a book told in the third person, "I said" is a character telling a story or writing.
            return Said(NARRATOR, "explicit", 0.9) if self.first_person else None
        if tag.kind == "name":
            person = self._resolve_name(tag.words)
            if person is None and tag.article and tag.words.split()[-1] not in NOT_NAMES:
                # "said the Heron" when the book also writes "a heron": no name the roster keeps, yet a tag's subject
                # speaks, a part as "the surgeon" is. A nationality ("the Swede") is an epithet: left to the turns.
                return Said(self._role(Tag("role", "the " + tag.words, None, tag.verb)), "explicit", 0.8)
            if person is None:
                return None
            self._speakers.add(id(person))
            return Said(person, "explicit", 0.95)
        if tag.kind == "role" and ("'s " in tag.words or tag.own):
            return Said(self._role(tag), "explicit", 0.8)  # "the child's nurse", "said a boy": a part of its own
        if tag.kind == "role":
            noun = tag.words.split()[-1]
            # "the master" of a workhouse is no "Master Robin": a form of address is no office its bearer holds.
            titled = self._titled_here(noun) if noun not in _ADDRESS_ONLY else None
            person = titled or self.roster.by_role(noun) or self._role(tag)
            return Said(person, "explicit", 0.8)
        if tag.kind == "description" and tag.words.split()[0] in NARRATORS_OWN and self.first_person:
            # "said my father", "cried our master" in a book told by an "I": the narrator's kin or master is
            # one person of the story whom the text may never name; a part of its own, never the narrator.
            noun, name = tag.words.split()[-1], self.roster.part_names.get(tag.words.split()[-1])
            person = self._owned.person(noun) or (self.roster.lookup(None, (name,)) if name else None)
            if person is not None:
                self._speakers.add(id(person))  # "my brother Robert" in the narration: "said my brother" is Robert
                return Said(person, "explicit", 0.85)
            return Said(name_part(self._role(tag), name), "explicit", 0.8)  # "Her name was Nell": the part's
        if tag.kind == "description" and tag.epithet in self.epithets:
            return Said(self._role(Tag("role", tag.epithet, tag.gender, tag.verb)), "explicit", 0.8)
        if tag.kind == "description" and tag.gender is None:
            person = self._titled_here(tag.words.split()[-1])
            return Said(person, "anaphoric", 0.7) if person else None
        if tag.kind == "description" and (spouse := self._spouse(tag.words)) is not None:
            return Said(spouse, "anaphoric", 0.75)
        if tag.kind == "description" and (kin := self._kin(tag.words, tag.gender, local)) is not None:
            kin, sure = kin
            return Said(kin, "anaphoric", 0.75 if sure else 0.65, settled=sure)
        if tag.kind == "description" and tag.words.startswith("the "):
            # "said the old gentleman": someone of that gender and age in the scene (app/cast/describe.py).
            scene = list(reversed(local)) + list(reversed(self.history[-_HISTORY:])) + participants(self.turns)
            # Nobody fits the age: the "he" or "she" of that gender. Either way the ranker sees a description.
            person = (brought := self._roles.brought(tag.words, tag.gender, self._speakers)) or resolve_description(
                tag.words.split()[1:], tag.gender, scene, self._named, NARRATOR) or self._resolve_gender(tag.gender, local)
            return Said(person, "anaphoric", 0.6, described=True, settled=brought is not None) if person else None
        person = self._resolve_gender(tag.gender, local)
        if person is None:
            return None
        return Said(person, "anaphoric", 0.8 if tag.kind == "pronoun" else 0.6, settled=self._subjects.settles(person))

    def _titled_here(self, word: str) -> Person | None:
        """Return who "the captain" is, by who is in the scene (app/cast/roles.py)."""
        scene = list(reversed(self.history[-_HISTORY:])) + participants(self.turns)
        return titled_in_scene(word, scene, self.roster, NARRATOR)

    def _role(self, tag: Tag) -> Person:
        """Return the person for a part with no name ("the surgeon"), made the first time the part speaks."""
        words = tag.words if tag.words.split()[0] in _KEEP_DETERMINER else "the " + tag.words
        person, made = (self._roles.newcomer if tag.own else self._roles.person)(words, tag.gender)
        if made:
            self._speakers.add(id(person))
        return person

    def _kin(self, words: str, gender: str | None, local: list[Person]) -> tuple[Person, bool] | None:
        """Return who "her mother" is (app/cast/kin.py) and whether the text settles it."""
        recent = list(reversed(local)) + participants(self.turns) + list(reversed(self.history[-_HISTORY:]))
        found = resolve_kin(words, gender, self._named, recent, NARRATOR)
        if found is None:
            return None
        person, sure, self._possessor = found[0], found[1], found[2] or self._possessor
        return (person, sure) if person is not None else None

    def _spouse(self, words: str) -> Person | None:
        """Return who "his wife" is (app/cast/kin.py)."""
        found = spouse_of(words, list(reversed(self._named)) + list(reversed(self.history[-_HISTORY:])),
                          self.roster.lookup, NARRATOR)
        if found is None:
            return None
        self._possessor = found[1]
        return found[0]

    # --- one paragraph --------------------------------------------------------------------------------
    def paragraph(self, text: str, quotes: list[RawQuote], first_index: int) -> None:
        """Attribute the quotations of one paragraph (quotes in order; first_index is the first one's number)."""
        self._subjects.next_paragraph(bool(quotes))
        if not quotes:
            self._narration(text)
            return
        turn = Turn(list(range(first_index, first_index + len(quotes))), continues=quotes[0].continues)
        seen: list[Person] = []
        for person in reversed(self.history):
            if person not in seen:
                seen.append(person)
            if len(seen) >= 6 + _FAR:
                break
        turn.history, turn.far = seen[:6], seen[6:]
        self.turns.append(turn)
        cuts = [0] + [x for q in quotes for x in (q.start, q.end)] + [len(text)]
        pieces = [text[cuts[i]:cuts[i + 1]] for i in range(0, len(cuts), 2)]
        local: list[Person] = []
        own: list[Said | None] = []
        lead_in, loose_lead_in, handed_by_reach = self._handed.take(self._vouched)
        for q in quotes:
            for start, end, person in self._mentions(q.text):
                turn.named.append(person)
                if is_vocative(q.text, start, end):
                    turn.addressed.append(person)
            turn.address_gender = turn.address_gender or address_gender(q.text)
        between: Tag | None = None  # the tag right after the previous quote, when it found one
        for n, q in enumerate(quotes):
            before, after = pieces[n], pieces[n + 1]
            self._named = [person for _, _, person in self._mentions(q.text)]
            self._possessor = None
            local.extend(person for _, _, person in self._mentions(before))
            self._note_subjects(before)
            tag = tag_after(after) if after.strip() else None
            found_after = tag
            lead = tag_before(before) if before.strip() and _LEAD_IN.search(before) else None
            reach: Tag | None = None
            if lead is not None and (tag is None or self._from_tag(lead, local) is not None):
                # "Greta said, “A snake!” The boys agreed." / "Greta answered: “No.” Odo replied, “Yes.”": a clause
                # ending in its speech verb and a comma or colon right before the quote hands the line over;
                # a tag after it belongs to the next sentence or quote.
                tag = lead
            if tag is None and before.strip():
                tag = tag_before(before)
            if tag is None and n == 0 and before.strip() and not hands_over(before):
                reach = tag_lead_in(before)  # "Ann began again. “The road …”": a sentence of someone going on
            if between is not None and one_sentence(before) and (tag is None or tag is found_after and lead is None and
                                                                 new_sentence(after)):
                # The second part of a quote interrupted by its tag ("“Oh,” said Ann, “no!” Tom nodded."): the tag's
                # speaker's. After the tag's sentence ("“No,” said Ann. “Go.” Tom muttered.") it reaches further.
                tag, reach = (between, None) if same_sentence(before) else (tag, between)
            if tag is None and n == 0 and q.start == 0 and lead_in is not None:
                reach, tag = (lead_in, tag) if handed_by_reach else (reach, lead_in)
            said = self._reached(reach, local) if reach is not None else None
            tag = reach if said is not None else tag
            between, held = found_after, tag is between  # held: its delivery only an interrupted quote's second part's
            said = said or (self._from_tag(tag, local) if tag is not None else None)
            if said is None and tag is found_after and tag is not None and before.strip():
                # The tag after names no one: the one before still says who spoke ("I said, “Who?” Nothing answered.").
                earlier = tag_before(before)
                if earlier is not None:
                    tag, said = earlier, self._from_tag(earlier, local)
            if tag is not None and tag.gender and turn.gender is None:
                turn.gender = tag.gender
            delivery = (tag.verb, tag.manner) if tag is not None and (not held or same_sentence(before)) else ("", "")
            if said is None:
                # A sentence reporting the speech in another order: "and saying,", "was uttered by Catherine".
                loose = (loose_tag_after(after, self._known) if after.strip() else None) or \
                    (loose_tag_before(before, self._known) if before.strip() else None) or \
                    (loose_lead_in if n == 0 and q.start == 0 else None)
                if loose is not None and self._vouched(loose):
                    delivery = delivery if tag is not None else (loose.verb, loose.manner)
                    said = self._reached(loose, local) if loose is loose_lead_in and handed_by_reach else \
                        self._from_tag(loose, local)
                    if said is not None:
                        said.confidence = round(said.confidence * 0.8, 2)
            if said is None and after.strip() and len(after.split()) <= 6:
                # A short aside after a quote that names someone ("\u2014 dit Jean.", "Hartley, impatiently.").
                named = [p for _, _, p in self._mentions(after) if self._personal(p)]
                if named:
                    said = Said(named[0], "explicit", 0.7)
            own.append(said)
            self.delivery.append(delivery)
            if self._possessor is not None and self._possessor not in turn.possessors:
                turn.possessors.append(self._possessor)
        local.extend(person for _, _, person in self._mentions(pieces[-1]))
        self._note_subjects(pieces[-1])
        turn.local = list(local)
        self._handed.note(pieces[-1], self._known, True)  # "“Go,” said Ann; and Tom, looking up, replied:" leads into the next paragraph
        for piece in pieces:
            self._own(piece)
        turn.beat = self._beat(pieces)
        turn.recent = next((p for p in reversed(local + self.history[-_HISTORY:])
                            if p is not NARRATOR and p not in turn.named and self._personal(p)), None)
        turn.said = next((s for s in own if s is not None and s.person is not None), None)
        if turn.said is None and not turn.continues and turn.beat is not None and turn.beat not in turn.named:
            # The paragraph's narration is about someone ("Greta smiled."): most often the speaker.
            turn.said = Said(turn.beat, "guess", 0.5)
        if turn.said is None and turn.continues:
            prev = self.turns[-2].said if len(self.turns) >= 2 else None
            if prev is not None:
                turn.said = Said(prev.person, prev.method, prev.confidence)
        self.results.extend(own)
        for person in local:
            self._remember(person)
        if turn.said is not None:
            self._remember(turn.said.person)

    def _own(self, text: str) -> None:
        """Note the people the text writes beside "my <noun>" ("my brother Robert", "Robert, my brother")."""
        self._roles.note(text)
        if self.first_person:
            self._owned.note(text, self._mentions)

    def _reached(self, tag: Tag, local: list[Person]) -> Said | None:
        """Return who a reach rule's tag names, only when a person of the book already vouched for: named (no part
        such as "the drummer", whose lines a reach rule would multiply), and a person by a title, a given name,
        he/she or an earlier tag; else None, and the quote is left to its own tag or the turns."""
        if tag.kind not in ("name", "pronoun", "narrator", "description") or not self._vouched(tag):
            return None
        said = self._from_tag(tag, local)
        person = said.person if said is not None else None
        named = person is not None and bool(person.first or person.last) and (self._personal(person) or person.gender)
        return said if person is NARRATOR or named else None

    def _vouched(self, tag: Tag | None) -> bool:
        """Return whether a reach rule's tag names a person by other evidence (a title, given name, he/she, tag)."""
        person = self._resolve_name(tag.words) if tag is not None and tag.kind == "name" else None
        return tag is None or tag.kind != "name" or person is not None and (self._personal(person) or bool(person.gender))

    def _note_subjects(self, text: str) -> None:
        scene = list(reversed(self.history[-_HISTORY:])) + participants(self.turns)
        self._subjects.note(text, lambda t: [m for m in self._mentions(t) if self._personal(m[2])], lambda words, noun:
                            self._roles.subject(words, noun, scene, self._speakers, NARRATOR))  # a place is no subject

    def _narration(self, text: str) -> None:
        for _, _, person in self._mentions(text):
            self._remember(person)
        self._note_subjects(text)
        self._own(text)
        self._handed.note(text, self._known)
        if len(text.split()) > SCENE_BREAK_WORDS:
            self.turns.append(Turn([]))  # an empty turn: the conversation ends

    def _known(self, words: str) -> bool:
        """Return whether words name someone of the book (a loose tag's subject must)."""
        return self._resolve_name(words) is not None

    def _personal(self, person: Person) -> bool:
        """Return whether a name is a person's, not a place's: a title, a given name, or a speech tag shows it."""
        return id(person) in self._speakers or bool(person.titles) or person.has_given_name

    def _beat(self, pieces: list[str]) -> Person | None:
        """Return the person the paragraph's narration is about: the first named at a sentence's start."""
        for piece in pieces:
            for start, _, person in self._mentions(piece):
                if (sentence_start(piece, start) or start < 3) and self._personal(person):
                    return person
        for piece in pieces:
            # "She turned away." in the paragraph: the woman of the talk, as a tag's "she" would be.
            m = _PRONOUN_BEAT.search(piece)
            if m and m.group(1) == "I":
                if self.first_person:
                    return NARRATOR
                continue
            if m:
                return self._resolve_gender("M" if m.group(1) == "He" else "F", [])
        return None

    # --- the conversation's turns -------------------------------------------------------------------
    def finish(self, ranker: Ranker | None = None, log: list | None = None) -> list[Said]:
        """Return one Said per quotation, after the turns between anchors are filled.

        With a ranker, each turn's speaker is the ranker's best candidate (a quote's own explicit tag still
        decides it); log, when given, gets every turn's Candidates (for training the ranker).
        """
        conversations = split_conversations(self.turns)
        for conv in conversations:
            fill_turns(conv)
        if ranker is not None or log is not None:
            rank_turns(self, conversations, ranker, log, NARRATOR)
        return settle(self.turns, self.results, self.delivery, ranked=ranker is not None)
