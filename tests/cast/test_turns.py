"""The turns of a conversation (issue 31): the features the ranker sees for who takes a turn.

Invented people; each feature is checked on a few hand-made turns, no book.
"""
from __future__ import annotations

from app.cast.person import Person
from app.cast.ranker import FEATURES, candidates
from app.cast.address import address_gender
from app.cast.turns import Said, Turn

_NARRATOR = Person(first="I")
ODA, BRAM = Person(first="Oda", last="Venn"), Person(first="Bram", last="Holt")


def _row(c, person) -> dict[str, float]:
    return dict(zip(FEATURES, c.rows[c.people.index(person)]))


def _conv() -> list[Turn]:
    # "Well?" said Oda.  /  "Nothing yet."  /  "Nothing, Bram? You said an hour."  /  "I said two."
    return [Turn([0], said=Said(ODA, "explicit", 0.95)), Turn([1], said=Said(BRAM, "turn-taking", 0.65)),
            Turn([2], said=Said(ODA, "turn-taking", 0.6), addressed=[BRAM], named=[BRAM]),
            Turn([3], said=Said(BRAM, "turn-taking", 0.55))]


def _candidates(conv, p):
    return candidates(conv, p, [conv[p].said], _NARRATOR, False, {}, {}, lambda person: True)


def test_the_one_the_next_turn_addresses_spoke_this_one():
    c = _candidates(_conv(), 1)
    assert _row(c, BRAM)["addressed_next"] == 1.0
    assert _row(c, ODA)["addressed_next"] == 0.0


def test_a_tagged_speaker_two_turns_away_keeps_the_parity():
    c = _candidates(_conv(), 2)
    assert _row(c, ODA)["anchor_even"] == 1.0 and _row(c, ODA)["anchor_odd"] == 0.0
    c = _candidates(_conv(), 1)
    assert _row(c, ODA)["anchor_odd"] == 1.0 and _row(c, ODA)["anchor_even"] == 0.0


def test_the_two_taking_turns_are_the_party():
    outsider = Person(first="Cass", last="Orme")
    conv = _conv()
    conv[3].history = [outsider]
    c = _candidates(conv, 3)
    assert _row(c, ODA)["party"] == 1.0 and _row(c, BRAM)["party"] == 1.0
    assert _row(c, outsider)["party"] == 0.0


def test_a_form_of_address_shows_the_gender_of_whom_a_quote_speaks_to():
    assert address_gender("Indeed, sir, I do.") == "M"
    assert address_gender("Come here, mamma!") == "F"
    assert address_gender("My mother is ill.") is None  # spoken of, not to
    assert address_gender("It was Sir Tobias.") is None
    assert address_gender("Yes, sir; no, madam.") is None  # both: no one gender


def test_the_next_turn_saying_sir_marks_a_man_as_this_turns_speaker():
    she, he = Person(first="Ines", last="Marr"), Person(first="Colm", last="Dray")
    she.votes["F"] += 5
    he.votes["M"] += 5
    # "Well?" said Ines.  /  "Nothing yet."  /  "Nothing, sir?"
    conv = [Turn([0], said=Said(she, "explicit", 0.95)), Turn([1], said=Said(she, "guess", 0.3)),
            Turn([2], said=Said(she, "turn-taking", 0.6), address_gender="M")]
    conv[1].history = [he]
    c = _candidates(conv, 1)
    assert _row(c, he)["next_address_match"] == 1.0 and _row(c, she)["next_address_mismatch"] == 1.0


def test_the_first_person_narrator_is_a_person_among_the_candidates():
    conv = _conv()
    c = candidates(conv, 1, [conv[1].said], _NARRATOR, True, {}, {}, lambda person: False)
    assert _row(c, _NARRATOR)["personal"] == 1.0 and _row(c, _NARRATOR)["narrator"] == 1.0
    assert _row(c, ODA)["personal"] == 0.0


def test_the_runs_tags_vote_by_parity_for_the_pair_taking_turns():
    # "Ready?" said Oda. / "Almost." said Bram. / "Then go." / "Going." / "Now?" said Oda.
    conv = [Turn([0], said=Said(ODA, "explicit", 0.95)), Turn([1], said=Said(BRAM, "explicit", 0.95)),
            Turn([2], said=Said(BRAM, "turn-taking", 0.5)), Turn([3], said=Said(ODA, "turn-taking", 0.5)),
            Turn([4], said=Said(ODA, "explicit", 0.95))]
    c = _candidates(conv, 2)
    # Oda's tags two turns away either side, Bram's one turn away: Oda speaks turn 2, whatever the fill said.
    assert _row(c, ODA)["run_parity"] > _row(c, BRAM)["run_parity"]
    assert _row(c, ODA)["run_pair"] == _row(c, BRAM)["run_pair"] == 1.0
    assert _row(c, ODA)["run_nearest"] == 1.0 and _row(c, BRAM)["run_nearest"] == 0.0


CALLA, DENNET, ESME = Person(first="Calla", last="Rook"), Person(first="Dennet", last="Fair"), Person(first="Esme", last="Lorn")


def test_someone_speaking_far_off_in_the_conversation_is_a_candidate():
    # Calla spoke five turns back; the nearer turns are Oda's and Bram's: she may speak again.
    conv = [Turn([0], said=Said(CALLA, "explicit", 0.95))] + _conv() + [Turn([5])]
    c = _candidates(conv, 5)
    assert CALLA in c.people
    assert _row(c, CALLA)["conv_speaker"] == 1.0
    assert _row(c, CALLA)["prev1"] == _row(c, CALLA)["prev2"] == 0.0


def test_the_people_the_narration_around_a_turn_names_are_candidates():
    # "Dennet came in." opens the next paragraph; an older mention (far) and the scene's speakers too.
    conv = _conv()
    conv[2].local = [DENNET]
    conv[1].far = [ESME]
    c = candidates(conv, 1, [conv[1].said], _NARRATOR, False, {}, {}, lambda person: True, scene=(CALLA,))
    assert all(person in c.people for person in (DENNET, ESME, CALLA))
    assert _row(c, DENNET)["near_local"] == 1.0
    assert _row(c, ESME)["far"] == 1.0
    assert _row(c, CALLA)["scene"] == 1.0 and _row(c, ODA)["scene"] == 0.0


def test_a_he_or_she_tag_is_never_the_first_person_narrators():
    # “Not yet,” he said.  in a book told by an "I": whoever "he" is, the "I" says "said I".
    conv = _conv()
    conv[1].gender = "M"
    c = candidates(conv, 1, [conv[1].said], _NARRATOR, True, {}, {}, lambda person: False)
    assert _row(c, _NARRATOR)["gender_mismatch"] == 1.0 and _row(c, _NARRATOR)["gender_match"] == 0.0
    conv[1].gender = None
    c = candidates(conv, 1, [conv[1].said], _NARRATOR, True, {}, {}, lambda person: False)
    assert _row(c, _NARRATOR)["gender_mismatch"] == 0.0
