"""One person, one character across the forms a book writes a name in: title variants (data naming their
source), pet names that begin a longer name, families named by a plural surname. Invented books only."""
from __future__ import annotations

from app.cast.names import find_people


def _people(texts: list[str]):
    return sorted(find_people(texts).people, key=lambda p: -p.count)


def _holder(people, form):
    return [p for p in people if form in p.forms]


def test_a_dialect_title_is_the_title_it_spells():
    texts = ["Otto Kessel came down the road, and Otto Kessel stopped at the gate.",
             "“Mars Otto, come in,” said the old man.", "Otto sat down, and Otto smiled.",
             "“Mars Otto is home,” said Hilda Brill.", "Then Hilda Brill laughed at Otto."] * 3
    people = _people(texts)
    otto = _holder(people, ("Master", ("Otto",)))
    assert len(otto) == 1 and ("Otto", "Kessel") in {f[1] for f in otto[0].forms}, [dict(p.forms) for p in people]


def test_a_full_given_name_is_taken_before_a_long_form_of_it_under_a_title():
    # "Gus" is written "Gus"; the book's Augustine someone is another man.
    texts = ["Gus Kessel came in, and Gus Kessel sat.", "Master Gus laughed at Master Gus's dog.",
             "Augustine Odell wrote a letter, and Augustine Odell signed it."] * 3
    people = _people(texts)
    master = _holder(people, ("Master", ("Gus",)))
    assert len(master) == 1 and master[0].last == "Kessel", [dict(p.forms) for p in people]


def test_mme_and_madame_are_one_title():
    texts = ["Madame Vaud sat by the window, and Madame Vaud sewed.",
             "Mme. Vaud rose, and the maid looked at Mme. Vaud."] * 3
    people = _people(texts)
    assert len(_holder(people, ("Madame", ("Vaud",)))) == 1
    assert not [p for p in people if any(t == "Mme" for t in p.titles)], [dict(p.forms) for p in people]


def test_a_plural_surname_after_the_and_a_few_words_is_a_family_not_a_speaker():
    texts = ["Otto Vaud came home, and Otto Vaud sat down by the fire.",
             "“Supper!” cried the two young Vauds, and the little Vauds ran to the table.",
             "“Hush,” said Otto Vaud.", "“More bread!” cried the two young Vauds."] * 3
    people = _people(texts)
    assert not [p for p in people if any("Vauds" in f[1] for f in p.forms)], [dict(p.forms) for p in people]
    assert _holder(people, (None, ("Otto", "Vaud")))


def test_a_pet_name_that_begins_a_given_name_of_the_book_is_that_person():
    texts = ["Hilda sat by the stove, and Hilda sewed her apron.", "“Hildy, come here,” said Otto Kessel.",
             "“Yes,” said Hildy, and Hildy came.", "Otto Kessel watched Hildy go."] * 3
    people = _people(texts)
    hildy = _holder(people, (None, ("Hildy",)))
    assert len(hildy) == 1 and (None, ("Hilda",)) in hildy[0].forms, [dict(p.forms) for p in people]


def test_a_pet_name_written_beside_the_longer_name_as_two_stays_two():
    texts = ["Hilda sat by the stove, and Hilda sewed her apron.", "“Hildy, come here,” said Otto Kessel.",
             "“Yes,” said Hildy, and Hildy came.", "Hilda and Hildy went to the market together."] * 3
    people = _people(texts)
    assert len(_holder(people, (None, ("Hildy",)))) == 1
    assert _holder(people, (None, ("Hildy",))) != _holder(people, (None, ("Hilda",)))


def test_a_given_name_written_far_more_than_a_rare_full_name_is_not_that_stranger():
    texts = ["Odo walked to the mill, and Odo carried the sack."] * 20 + \
            ["“It is late,” said Odo.", "Odo sat down by the water."] * 20 + \
            ["A man called Odo Brill was at the inn that night.", "Nobody liked Odo Brill.", "Brill went away."]
    people = _people(texts)
    odo = _holder(people, (None, ("Odo",)))
    assert len(odo) == 1 and (None, ("Odo", "Brill")) not in odo[0].forms, [dict(p.forms) for p in people]


def test_a_given_name_beside_its_full_name_in_common_use_is_that_person():
    texts = ["Odo walked to the mill, and Odo carried the sack."] * 20 + \
            ["“It is late,” said Odo Brill.", "Odo Brill sat down by the water, and Mr. Brill smiled."] * 5
    people = _people(texts)
    odo = _holder(people, (None, ("Odo",)))
    assert len(odo) == 1 and (None, ("Odo", "Brill")) in odo[0].forms, [dict(p.forms) for p in people]

