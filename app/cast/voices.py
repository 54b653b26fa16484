"""--cast auto: a distinct voice for each character from what the backend offers.

Rules, in order: the narrator keeps the run's voice and no character gets it; the
most talkative characters are served first; a preset is matched to the character's
gender where both are known; every character gets a voice no other character has
while distinct voices remain (those are the major characters); the rest share the
voices of the least talkative ones, and a line says how many did. A model that
takes a voice description gets one per character, all different; a Piper voice
that is alone on the machine gives its timbre variants (pitch and formants moved,
app/backends/piper/timbres.toml), genders taken in turn so that --cast-voices N keeps
both, and distinct speaking rates only where no variant can be made.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from app.cast.castfile import CastFile, VoiceEntry
from app.cast.model import Cast, Character
from app.core.voiceoffer import VoiceOffer as Offer  # the backend interface's own (Backend.voice_offer)

#: Speaking rates around the narrator's, nearest first, both ways: each apart from the others by ear.
SPEED_STEPS = (0.86, 1.16, 0.92, 1.08, 0.8, 1.24, 0.96, 1.04, 0.74, 1.32)
#: Voice descriptions for a model that designs voices from text, combined into distinct ones.
_AGES = {"F": ("A young woman", "A middle-aged woman", "An elderly woman", "A girl"),
         "M": ("A young man", "A middle-aged man", "An elderly man", "A boy"),
         None: ("A young adult", "A middle-aged adult", "An elderly person")}
_TIMBRES = ("with a bright, clear voice", "with a low, warm voice", "with a husky voice",
            "with a soft, light voice", "with a deep, resonant voice", "with a crisp, precise voice")
_PACES = ("speaking briskly", "speaking slowly and deliberately", "speaking at an easy pace")


@dataclass(frozen=True)
class Assignment:
    """--cast auto's result: a cast file, and what a user should know about it."""

    cast: CastFile
    notes: tuple[str, ...] = field(default=())


#: Of N distinct voices, this many at most are kept for the minor characters to share (one per gender).
SHARED_BY_GENDER = ("F", "M")


def auto_cast(cast: Cast, offer: Offer, limit: int | None = None) -> Assignment:
    """Return a voice for each character of `cast` from `offer` (most lines first).

    limit (--cast-voices N): at most N distinct voices. When characters outnumber the voices, the
    characters with most lines get one each and the others share a voice or two kept by gender, so that
    no two major characters sound alike and the minor ones do not take a major one's voice.
    """
    if limit is not None and limit < 1:
        raise ValueError("--cast-voices needs at least 1 voice")
    characters = sorted(cast.characters, key=lambda c: -c.lines)
    if not characters:
        return Assignment(CastFile(None, ()), ("The book has no attributed dialogue: one narrator reads it",))
    if offer.design:
        return Assignment(CastFile(None, tuple(zip((c.name for c in characters), _designs(characters)))))
    pool = _pool(offer)
    if not pool:
        return Assignment(CastFile(None, ()), (
            "The model offers no voice a character could take (no presets, no voice design, no clips in the "
            "voices folder): write a cast file with clone = \"voices/NAME.wav\" per character",))
    if limit is not None:
        pool = pool[:limit]
    if len(characters) > len(pool) >= 3:
        entries, shared, notes = _majors_and_minors(characters, pool)
        return Assignment(CastFile(None, tuple(entries)), tuple(notes))
    entries, shared = _match(characters, pool)
    notes = []
    if shared:
        notes.append(f"{len(pool)} distinct voices for {len(characters)} characters: the {shared} least "
                     f"talkative share voices")
    return Assignment(CastFile(None, tuple(entries)), tuple(notes))


def _designs(characters: list[Character]) -> list[VoiceEntry]:
    """Return a distinct voice description per character, by gender where known."""
    made: dict[str | None, itertools.cycle] = {}
    out = []
    for c in characters:
        gender = c.gender if c.gender in ("F", "M") else None
        if gender not in made:
            made[gender] = itertools.cycle(f"{age} {timbre}, {pace}" for pace in _PACES
                                           for timbre in _TIMBRES for age in _AGES[gender])
        out.append(VoiceEntry(instructions=next(made[gender]) + "."))
    return out


def _pool(offer: Offer) -> list[tuple[VoiceEntry, str | None]]:
    """Return the distinct voices characters may take, best first, each with its gender (None: any)."""
    presets = [(VoiceEntry(voice=name, speaker=speaker), gender) for name, speaker, gender in offer.presets
               if speaker is not None or name != offer.narrator_voice]
    if offer.clips and not presets:
        presets = [(VoiceEntry(clone=clip), None) for clip in offer.clips]
    if offer.timbres:
        # Variants of the narrator's own voice, each heard apart: no need of rates, which only a
        # listener's patience tells apart.
        return presets + [(VoiceEntry(timbre=name), gender) for name, gender in _by_turns(offer.timbres)]
    if not offer.speed:
        return presets
    # Each voice at its own rate first, then at rates apart from the narrator's.
    narrator_preset = [(VoiceEntry(), None)]  # the run's own voice, at other rates
    pool = list(presets)
    for step in SPEED_STEPS:
        rate = round(offer.narrator_speed * step, 3)
        pool += [(VoiceEntry(voice=e.voice, speaker=e.speaker, clone=e.clone, speed=rate), g)
                 for e, g in presets + narrator_preset]
    return pool


def _by_turns(timbres: tuple[tuple[str, str | None], ...]) -> list[tuple[str, str | None]]:
    """Return the timbres with their genders taken in turn (M, F, M, F, ...), each gender in its own order."""
    queues: dict[str | None, list[tuple[str, str | None]]] = {}
    for name, gender in timbres:
        queues.setdefault(gender, []).append((name, gender))
    out = []
    while any(queues.values()):
        for queue in queues.values():
            if queue:
                out.append(queue.pop(0))
    return out


def _match(characters: list[Character], pool: list[tuple[VoiceEntry, str | None]]) -> tuple[list, int]:
    """Give each character a free voice of its gender, else one of no known gender, else any free one while
    one is left for each character after it, else share one of its gender given to a less talkative
    character, else any free one; return (entries, characters sharing)."""
    free = list(pool)
    entries: list[tuple[str, VoiceEntry]] = []
    given: list[tuple[VoiceEntry, str | None]] = []
    shared = 0
    for c in characters:
        pick = next((i for i, (_, g) in enumerate(free) if c.gender is not None and g == c.gender), None)
        if pick is None:
            pick = next((i for i, (_, g) in enumerate(free) if g is None or c.gender is None), None)
        alike = [e for e, g in given if c.gender is not None and g == c.gender]
        if pick is None and free and len(free) > len(characters) - len(entries) - 1:
            # A voice of another gender is still free for each one left: nobody need share; take the last
            # free one.
            pick = len(free) - 1
        if pick is None and alike:
            entry = alike[-1 - shared % len(alike)]  # the least talkative of its gender: majors stay apart
            shared += 1
        elif pick is not None or free:
            entry, gender = free.pop(pick if pick is not None else 0)
            given.append((entry, gender))
        else:
            entry = given[-1 - shared % len(given)][0]
            shared += 1
        entries.append((c.name, entry))
    return entries, shared


def _majors_and_minors(characters: list[Character], pool: list[tuple[VoiceEntry, str | None]]):
    """Keep a voice per gender for the minor characters; give the others, one each, to the majors."""
    kept: dict[str | None, tuple[VoiceEntry, str | None]] = {}
    rest = list(pool)
    for gender in SHARED_BY_GENDER:
        # The last voice of that gender (or of none) in the pool: the majors keep the best ones.
        at = next((i for i in range(len(rest) - 1, -1, -1) if rest[i][1] in (gender, None)), None)
        if at is not None and len(rest) > 2:
            kept[gender] = rest.pop(at)
    majors, minors = characters[:len(rest)], characters[len(rest):]
    entries, _ = _match(majors, rest)
    shares = list(kept.values())
    for n, c in enumerate(minors):
        entry = kept.get(c.gender) or shares[n % len(shares)]
        entries.append((c.name, entry[0]))
    notes = [f"{len(pool)} distinct voices: the {len(majors)} characters with most lines have one each; the "
             f"{len(minors)} others share {len(shares)} voice{'s' if len(shares) != 1 else ''} by gender"]
    return entries, len(minors), notes
