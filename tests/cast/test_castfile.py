"""The cast file, --cast auto's choices, and how a paragraph is cut into speakers."""
from __future__ import annotations

import pytest

from app.cast import castfile, voices
from app.book.model import Book, Chapter
from app.cast import find_cast
from app.cast.delivery import direction_of
from app.cast.model import Cast, Character, Quote
from app.cast.segments import split_paragraph
from app.core.errors import InputError


def write(tmp_path, text: str):
    path = tmp_path / "cast.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_issue_example_reads_and_clips_are_found_beside_the_file(tmp_path, monkeypatch):
    (tmp_path / "voices").mkdir()
    (tmp_path / "voices" / "liz.wav").write_bytes(b"RIFF")
    monkeypatch.chdir(tmp_path.parent)  # not the cast file's folder: the clip is found beside the file
    cast = castfile.load(write(tmp_path, '[narrator]\ninstructions = "A calm, warm narrator"\n'
                                         '[character."Elizabeth Bennet"]\nclone = "voices/liz.wav"\n'
                                         'transcription = "Hello there."\n'
                                         '[character."Mr. Bennet"]\nvoice = "Uncle_Fu"\nspeed = 0.9\n'))
    assert cast.narrator == castfile.VoiceEntry(instructions="A calm, warm narrator")
    liz = cast.entry("Elizabeth Bennet")
    assert liz.clone == (tmp_path / "voices" / "liz.wav").resolve() and liz.transcription == "Hello there."
    assert cast.entry("Mr. Bennet") == castfile.VoiceEntry(voice="Uncle_Fu", speed=0.9)


@pytest.mark.parametrize("text, said", [
    ('[narrator]\nvoise = "x"\n', "unknown key 'voise'"),
    ('[character."A"]\nspeed = 9\n', "speed must be a number from 0.5 to 2"),
    ('[character."A"]\nclone = "nowhere.wav"\n', "clone clip nowhere.wav does not exist"),
    ('[character."A"]\ntranscription = "hi"\n', "has a transcription but no clone"),
    ('[characters."A"]\nvoice = "x"\n', "unknown table [characters]"),
    ('[character."A"\n', "not valid TOML"),
    ('[character."A"]\nvoice = ""\n', "voice must be non-empty text"),
])
def test_a_bad_entry_is_one_line_naming_the_file_and_entry(tmp_path, text, said):
    with pytest.raises(InputError) as err:
        castfile.load(write(tmp_path, text))
    assert said in err.value.message and str(tmp_path / "cast.toml") in err.value.message
    assert "\n" not in err.value.one_line()


def test_a_missing_cast_file_says_how_to_make_one(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        castfile.load(tmp_path / "none.toml")


def _cast(*people: tuple[str, str | None, int]) -> Cast:
    return Cast(tuple(Character(n, (), g, lines) for n, g, lines in people), (), False)


def test_auto_matches_presets_by_gender_and_keeps_the_narrators_voice_apart():
    offer = voices.Offer(presets=(("Vivian", None, "F"), ("Serena", None, "F"), ("Ryan", None, "M"),
                                  ("Aiden", None, "M")), narrator_voice="Ryan")
    chosen = dict(voices.auto_cast(_cast(("Eliza", "F", 50), ("Darcy", "M", 40), ("Jane", "F", 30)), offer)
                  .cast.characters)
    assert chosen["Eliza"].voice == "Vivian" and chosen["Jane"].voice == "Serena"
    assert chosen["Darcy"].voice == "Aiden"  # Ryan reads the narration


def test_auto_never_gives_two_major_characters_one_voice_and_says_who_shares():
    offer = voices.Offer(presets=(("Vivian", None, "F"), ("Ryan", None, "M")))
    result = voices.auto_cast(_cast(("A", "F", 9), ("B", "M", 8), ("C", "F", 2), ("D", "F", 1)), offer)
    chosen = dict(result.cast.characters)
    assert chosen["A"].voice != chosen["B"].voice
    assert {chosen["C"].voice, chosen["D"].voice} <= {"Vivian"}  # minor characters share
    assert any("share" in note for note in result.notes)


def test_auto_on_one_piper_voice_gives_distinct_rates_around_the_narrators():
    offer = voices.Offer(speed=True, narrator_voice="en_US-joe-medium", narrator_speed=1.0)
    chosen = dict(voices.auto_cast(_cast(*[(f"P{i}", None, 10 - i) for i in range(6)]), offer).cast.characters)
    rates = [e.speed for e in chosen.values()]
    assert len(set(rates)) == 6 and 1.0 not in rates and all(0.5 <= r <= 2 for r in rates)


def test_cast_voices_n_gives_the_top_speakers_their_own_and_the_minor_ones_share_by_gender():
    offer = voices.Offer(presets=tuple((f"V{i}", None, "F" if i % 2 else "M") for i in range(10)))
    people = [(f"P{i}", "F" if i % 3 == 0 else "M", 100 - i) for i in range(12)]
    result = voices.auto_cast(_cast(*people), offer, 5)
    chosen = dict(result.cast.characters)
    voiced = {name: entry.voice for name, entry in chosen.items()}
    assert len(set(voiced.values())) == 5  # --cast-voices 5: five distinct voices in all
    majors = [f"P{i}" for i in range(3)]
    minors = [f"P{i}" for i in range(3, 12)]
    # The three who speak most sound unlike each other and unlike every minor character.
    assert len({voiced[m] for m in majors}) == 3
    assert not {voiced[m] for m in majors} & {voiced[m] for m in minors}
    # Minor characters share one voice per gender.
    by_gender = {g: {voiced[f"P{i}"] for i in range(3, 12) if ("F" if i % 3 == 0 else "M") == g} for g in "FM"}
    assert len(by_gender["F"]) == 1 and len(by_gender["M"]) == 1 and by_gender["F"] != by_gender["M"]
    assert any("share" in note for note in result.notes)


def test_auto_on_a_design_model_writes_a_distinct_description_per_character():
    chosen = dict(voices.auto_cast(_cast(*[(f"P{i}", "F" if i % 2 else "M", 10 - i) for i in range(12)]),
                                   voices.Offer(design=True)).cast.characters)
    descriptions = [e.instructions for e in chosen.values()]
    assert len(set(descriptions)) == 12
    assert all("woman" in chosen[f"P{i}"].instructions or "girl" in chosen[f"P{i}"].instructions
               for i in range(1, 12, 2))


def quote(text: str, paragraph: str, speaker: str | None) -> Quote:
    start = paragraph.index(text)
    return Quote(1, 0, start, start + len(text), text[1:-1], speaker, "explicit", 1.0)


def test_a_paragraph_is_cut_where_the_speaker_changes_and_the_tag_is_the_narrators():
    p = "\u201cMy dear,\u201d said Mrs. Bennet, \u201chave you heard?\u201d He had not."
    quotes = [quote("\u201cMy dear,\u201d", p, "Mrs. Bennet"), quote("\u201chave you heard?\u201d", p, "Mrs. Bennet")]
    cut = [(s.text, s.speaker) for s in split_paragraph(p, quotes)]
    assert cut == [("\u201cMy dear,\u201d", "Mrs. Bennet"), ("said Mrs. Bennet,", None),
                   ("\u201chave you heard?\u201d", "Mrs. Bennet"), ("He had not.", None)]
    assert " ".join(t for t, _ in cut) == p  # nothing lost, nothing added


def test_an_unattributed_quote_stays_with_the_narration_around_it():
    p = "He looked up. \u201cWho is there?\u201d Nobody answered."
    assert [s.speaker for s in split_paragraph(p, [quote("\u201cWho is there?\u201d", p, None)])] == [None]


@pytest.mark.parametrize("paragraph, directions", [
    ("\u201cCome here,\u201d she whispered. He went over.", ["Whispering."]),
    ("\u201cOut!\u201d shouted Hartley angrily.", ["Shouting angrily."]),
    ("Then he said softly, \u201cNo.\u201d", ["Softly."]),
    ("\u201cYes,\u201d said Hartley. He laughed at the window.", [None]),  # the laugh is not the tag
    ("\u201cYes,\u201d said Hartley. He quickly left.", [None]),  # nor an adverb of the next sentence
    ("\u201cGo,\u201d whispered Maud, \u201cnow.\u201d", ["Whispering.", "Whispering."]),  # one tag, two parts
    ("\u201cRun!\u201d shouted Hartley. \u201cWe have time.\u201d", ["Shouting.", None]),  # the tag is the first's
])
def test_delivery_comes_from_the_tag_touching_the_quote(paragraph, directions):
    # The engine reads the tag (Quote.verb, Quote.manner); delivery only words it.
    lead = "Hartley and Maud stood at the door. Hartley waited, and Maud listened."
    cast = find_cast(Book("T", "A", (Chapter(1, "One", (lead, paragraph)),), source=None))
    assert [direction_of(q.verb, q.manner) for q in cast.quotes] == directions
