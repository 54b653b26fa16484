"""A book told by an "I" (issue 31): the narrator's own tagged lines are the narrator's, one voice, and a
later clause's subject ("I was going out, when Tobias met me and said") is no "I".

Synthetic first-person books (names made up here); each rule is seen alone.
"""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast


def _cast(paragraphs: list[str]):
    return find_cast(Book("Test", "Anon", (Chapter(1, "One", tuple(paragraphs)),), source=None))


def _quote(cast, opening: str):
    return next(q for q in cast.quotes if q.text.lstrip("“\"").startswith(opening))


#: A narrator who says "I" often, and two people met often enough to be characters.
_INTRO = ["I walked with Tobias Wrenfield and Mrs. Orla Penhallow to the gate, and I thought my own thoughts.",
          "“Good morning,” said Tobias Wrenfield.", "“Good morning,” said Mrs. Penhallow.",
          "I nodded to them both, for I was tired and my feet ached."] * 3


def test_the_book_is_told_in_the_first_person():
    assert _cast(_INTRO).first_person


def test_a_later_clause_with_its_own_subject_is_not_the_narrators():
    cast = _cast(_INTRO + ["I was going down to the mill, when Tobias met me and said that,",
                           "“The wheel is broken.”",
                           "I was at the window; and Mrs. Penhallow, seeing me there, added,",
                           "“Come down at once.”"])
    wheel = _quote(cast, "The wheel is broken.")
    assert not wheel.by_narrator and wheel.speaker in ("Tobias Wrenfield", "Tobias")
    down = _quote(cast, "Come down at once.")
    assert not down.by_narrator and (down.speaker or "").endswith("Penhallow")


def test_the_narrators_own_tags_are_the_narrators():
    cast = _cast(_INTRO + ["“Is the gate open?” I asked him.", "“It is,” said Tobias.",
                           "“Then let us go,” said I.", "“Not yet,” I replied, and I sat down.",
                           "I turned to Tobias and said, “We are late.”"])
    for opening in ("Is the gate open?", "Then let us go,", "Not yet,", "We are late."):
        quote = _quote(cast, opening)
        assert quote.by_narrator and quote.speaker is None, opening
    assert _quote(cast, "It is,").speaker in ("Tobias Wrenfield", "Tobias")


def test_the_narrators_shorter_names_are_the_narrator_too():
    # Others call the narrator "Ada Quillon", "Miss Quillon" and "Miss Ada" and no tag names her: all three
    # are the narrator's one voice; Tobias, named by tags, and an uncle of the same surname stay themselves.
    from collections import Counter
    from types import SimpleNamespace

    from app.cast import _narrator_by_name
    from app.cast.attribution import NARRATOR
    from app.cast.person import Person
    from app.cast.turns import Said, Turn

    ada = Person(first="Ada", last="Quillon", titles=Counter({"Miss": 2}))
    miss_quillon = Person(last="Quillon", titles=Counter({"Miss": 5}))
    miss_ada = Person(first="Ada", titles=Counter({"Miss": 3}))
    uncle = Person(first="Hugo", last="Quillon", titles=Counter({"Mr": 4}))
    tobias = Person(first="Tobias", last="Wrenfield")
    said = [Said(ada, "turn-taking", 0.5)] * 12 + [Said(miss_quillon, "vocative", 0.5)] * 6 + \
        [Said(miss_ada, "vocative", 0.5)] * 4 + [Said(tobias, "explicit", 0.9)] * 10 + [Said(uncle, "vocative", 0.5)] * 3
    turns = [Turn([], addressed=[ada] * 6 + [miss_quillon] * 3 + [miss_ada] * 2 + [uncle])]
    out = _narrator_by_name(said, SimpleNamespace(turns=turns))
    assert [s.person is NARRATOR for s in out] == [True] * 22 + [False] * 13
    assert {id(s.person) for s in out[22:]} == {id(tobias), id(uncle)}


def test_a_tag_after_that_names_no_one_leaves_the_one_before():
    # "Nothing answered." after the quote is no speaker; "I said," before it is.
    cast = _cast(_INTRO + ["I stood at the door and I said, “Who is there?” Nothing answered."])
    assert _quote(cast, "Who is there?").by_narrator


def test_my_father_in_a_tag_is_a_part_of_his_own_never_the_narrator():
    cast = _cast(_INTRO + ["“The harvest will be late,” said my father, looking at the sky.",
                           "“It always is,” said my father."])
    late = _quote(cast, "The harvest will be late,")
    assert not late.by_narrator and late.speaker == "My father"
    assert _quote(cast, "It always is,").speaker == "My father"


def test_my_brother_is_the_one_the_narration_names_beside_it():
    cast = _cast(["My brother Ansel came in from the yard, and I thought of my own work.",
                  "I gave the bread to Ansel, and then to Tobias, and Ansel ate it."] + _INTRO
                 + ["“The gate is open again,” said my brother."])
    said = _quote(cast, "The gate is open again,")
    assert not said.by_narrator and said.speaker in ("Ansel",)
    assert "My brother" not in [c.name for c in cast.characters]


def test_the_name_the_narrators_own_answers_reply_to_is_the_narrator():
    # Others call the narrator "Captain Bram Holloway" and "Captain Holloway"; each time, the next turn is
    # the narrator's "said I": that name is the narrator's, its title notwithstanding, and so is its shorter
    # form. A lord the narrator talks with is addressed as often, but others answer him: he stays himself.
    from collections import Counter
    from types import SimpleNamespace

    from app.cast import _narrator_by_name
    from app.cast.attribution import NARRATOR
    from app.cast.person import Person
    from app.cast.turns import Said, Turn

    bram = Person(first="Bram", last="Holloway", titles=Counter({"Captain": 4}))
    captain = Person(last="Holloway", titles=Counter({"Captain": 9}))
    lord = Person(last="Ashgrove", titles=Counter({"Lord": 8}))
    i_said = Said(NARRATOR, "explicit", 0.9)
    said = [Said(bram, "vocative", 0.5)] * 4 + [Said(captain, "turn-taking", 0.5)] * 6 + \
        [Said(lord, "turn-taking", 0.5)] * 12
    turns = []
    for _ in range(6):
        turns += [Turn([], addressed=[bram]), Turn([], said=i_said)]
    for _ in range(3):
        turns += [Turn([], addressed=[captain]), Turn([], said=i_said)]
    for _ in range(8):
        turns += [Turn([], addressed=[lord]), Turn([], said=Said(lord, "turn-taking", 0.5))]
    turns += [Turn([], addressed=[lord]), Turn([], said=i_said)] * 2
    out = _narrator_by_name(said, SimpleNamespace(turns=turns))
    assert [s.person is NARRATOR for s in out] == [True] * 10 + [False] * 12

