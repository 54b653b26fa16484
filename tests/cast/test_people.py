"""Who is a character: people, not capitalised words; one person, one character; the lexicons as data.

Small books written here (no corpus): each test names the rule it checks.
"""
from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from app.book.model import Book, Chapter
from app.cast import find_cast
from app.cast.namedata import SHORT_FOR
from app.cast.ranker import FEATURES, Ranker


def _cast(paragraphs: list[str]):
    return find_cast(Book("T", "A", (Chapter(1, "One", tuple(paragraphs)),), source=None))


def _names(cast) -> set[str]:
    return {n for c in cast.characters for n in (c.name, *c.aliases)}


def test_a_word_written_after_in_and_near_is_a_place_not_a_character():
    paragraphs = []
    for n in range(6):
        paragraphs += [f"Harold Webb had lived in Tarrowby for years, and near Tarrowby the river ran {n} miles.",
                       "“It is a fine morning,” said Harold.",
                       "“Tarrowby is always fine,” said Mary Lane, who had come in from Tarrowby."]
    names = _names(_cast(paragraphs))
    assert "Harold" in names and "Mary Lane" in names
    assert not any("Tarrowby" in n for n in names)


def test_a_title_before_a_word_the_book_writes_in_lower_case_is_no_name():
    paragraphs = ["“Good Lord. And what then?” said Tom Wilde.", "“Nothing,” said Ann Price."] * 4 + \
                 ["Tom and Ann walked on and on, and the dog ran and barked and ran."] * 4
    names = _names(_cast(paragraphs))
    assert not any(n.startswith("Lord") for n in names), names


def test_a_month_after_a_title_is_a_surname():
    paragraphs = ["“Girls, come here,” said Mrs. March.", "“Yes, Mother,” said Jo.",
                  "It was late in March, and Mrs. March sat by the fire."] * 3
    cast = _cast(paragraphs)
    assert "Mrs. March" in {c.name for c in cast.characters}
    said = [q.speaker for q in cast.quotes if q.text.startswith("Girls")]
    assert said and all(s == "Mrs. March" for s in said)


def test_each_diminutive_keeps_all_its_full_names():
    assert {"Catherine", "Katherine"} <= set(SHORT_FOR["Kitty"])
    assert {"Charles", "Charlotte"} <= set(SHORT_FOR["Charlie"])


def test_every_lexicon_names_its_source():
    data = resources.files("app.cast") / "data"
    for item in data.iterdir():
        if item.name.endswith((".tsv", ".txt")):
            head = "".join(line for line in item.read_text(encoding="utf-8").splitlines()[:4] if line.startswith("#"))
            assert re.search(r"Source:|kept by hand|General English", head, re.IGNORECASE), item.name


def test_the_captain_is_the_captain_of_the_scene_not_one_global_alias():
    scene_one = ["Captain Hale stood on the deck of the first ship, and Captain Hale looked at the sea.",
                 "“Hoist the sails,” said the captain.", "The men ran to the ropes for a long while, and the wind rose over "
                 "the grey water and the ship leaned far over, far from any land, and they were afraid of it all."]
    scene_two = ["Captain Ross sat in the inn at the harbour, and Captain Ross drank his ale slowly.",
                 "“Another ale,” said the captain."]
    filler = ["The night went on, and nobody came, and the ships rocked in the dark harbour under the moon, "
              "and the bells rang out over the water while the town slept and the tide turned at last, and the "
              "morning came grey and cold over the roofs."]
    cast = _cast((scene_one + filler) * 3 + (scene_two + filler) * 3)
    hoist = {q.speaker for q in cast.quotes if q.text.startswith("Hoist")}
    ale = {q.speaker for q in cast.quotes if q.text.startswith("Another")}
    assert hoist == {"Captain Hale"} and ale == {"Captain Ross"}, (hoist, ale)


def test_the_shipped_ranker_loads_with_a_weight_per_feature():
    path = resources.files("app.cast") / "data" / "ranker.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert tuple(data["features"]) == FEATURES and len(data["weights"]) == len(FEATURES)
    ranker = Ranker.shipped()
    assert ranker is not None
    # The rules' explicit answer outranks a candidate that the quote itself names (it is spoken to).
    rule = [0.0] * len(FEATURES)
    named = [0.0] * len(FEATURES)
    for f in ("rule", "rule_explicit", "own_explicit", "personal"):
        rule[FEATURES.index(f)] = 1.0
    rule[FEATURES.index("rule_conf")] = 0.95
    for f in ("named_here", "addressed_here", "personal"):
        named[FEATURES.index(f)] = 1.0
    assert ranker.choose([named, rule])[0] == 1


def test_a_first_person_narrator_called_by_name_is_the_narrator():
    paragraphs = []
    for n in range(12):
        paragraphs += [f"I walked with Hartley along the street for the {n + 1}th time that week; he had called me "
                       "Dr. Whitcombe since we met, and I said nothing to him.",
                       "“Well, Whitcombe, what do you make of it?” said Hartley.",
                       "“Nothing at all, I am afraid.”",
                       "“Come, Whitcombe, you look but you never notice,” said he."]
    cast = _cast(paragraphs)
    assert cast.first_person
    assert "Whitcombe" not in _names(cast)
    replies = [q for q in cast.quotes if q.text.startswith("Nothing at all")]
    assert replies and all(q.by_narrator for q in replies)


def test_the_rankers_hidden_layer_scores_what_its_linear_part_alone_cannot():
    # Two features that count only together (an XOR a sum of weights cannot rank): two tanh units do.
    a, b = FEATURES.index("prev2"), FEATURES.index("gender_match")
    W = [[0.0, 0.0] for _ in FEATURES]
    W[a], W[b] = [4.0, 4.0], [4.0, 4.0]
    ranker = Ranker([0.0] * len(FEATURES), 0.0, {"weights": W, "bias": [-2.0, -6.0], "out": [1.0, -2.0]})

    def row(*names):
        r = [0.0] * len(FEATURES)
        for n in names:
            r[FEATURES.index(n)] = 1.0
        return r
    assert ranker.choose([row(), row("prev2"), row("prev2", "gender_match")])[0] == 1
    assert ranker.choose([row("prev2", "gender_match"), row("gender_match")])[0] == 1
    assert Ranker([0.0] * len(FEATURES), 0.0).choose([row(), row("prev2")])[1] == 0.5


def test_the_shipped_rankers_hidden_layer_has_a_row_per_feature():
    data = json.loads((resources.files("app.cast") / "data" / "ranker.json").read_text(encoding="utf-8"))
    hidden = data["hidden"]
    assert len(hidden["weights"]) == len(FEATURES)
    assert {len(r) for r in hidden["weights"]} == {len(hidden["bias"])} == {len(hidden["out"])}
    with pytest.raises(ValueError):
        Ranker(data["weights"], 0.0, {**hidden, "weights": hidden["weights"][:-1]})
