"""A cast as planning uses it: the quotations of each paragraph, and the voice of each role.

Made by app/convert.py from the cast found in the book (app/cast) and the voices
assigned to it (a cast file or --cast auto), checked against the backend before
any synthesis. Planning cuts each paragraph where its speaker changes
(app/cast/segments.py) and keys each chunk with the identity of its voice, so a
character re-cast renders only that character's lines again.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping

from app.backends.base import Delivery, VoiceOptions
from app.cast.delivery import direction_of, pace_of
from app.cast.model import Cast, Quote


@dataclass
class Casting:
    """Who says what, in which voice; `identify` is the backend's identity_for."""

    cast: Cast
    #: The run's own voice (the narrator's without a [narrator] entry).
    run_voice: VoiceOptions
    #: The narrator's voice when it differs from the run's, else None (chunks keep the run's keys).
    narrator: VoiceOptions | None
    #: Each character's voice, by Character.name; a character without one is read by the narrator.
    voices: Mapping[str, VoiceOptions]
    identify: Callable[[VoiceOptions], dict[str, Any]]
    #: How a tag's delivery ("Whispering.") shapes a line's voice (the backend's deliver), None: it does not.
    deliver: Callable[[VoiceOptions, str], VoiceOptions | None] | None = None
    #: The tag's delivery of each quotation (by its index in cast.quotes), where it has one.
    directions: Mapping[int, str] = field(default_factory=dict)
    _by_paragraph: dict[tuple[int, int], list[Quote]] = field(default_factory=dict, init=False, repr=False)
    _identities: dict[str, dict[str, Any]] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        for i, q in enumerate(self.cast.quotes):
            # Only a quote that sounds different cuts its paragraph: a voiced character's, or an
            # attributed one whose tag's delivery shapes its voice.
            shaped = i in self.directions and self.voice_for(q.speaker, self.directions[i]) is not None
            if q.speaker and (q.speaker in self.voices or shaped):
                self._by_paragraph.setdefault((q.chapter, q.paragraph), []).append(q)

    def quotes(self, chapter: int, paragraph: int) -> list[Quote]:
        """Return the quotations that cut one paragraph (see __post_init__)."""
        return self._by_paragraph.get((chapter, paragraph), [])

    def chapter_fingerprint(self, chapter: int) -> list:
        """Return what decides how a chapter is cut into speakers (part of its plan memo key)."""
        # The tag's verb and manner too: they give a piece its direction, and the engine finds them.
        return [[p, q.start, q.end, q.speaker, q.verb, q.manner] for (c, p), quotes in sorted(self._by_paragraph.items())
                if c == chapter for q in quotes]

    def role(self, speaker: str | None) -> str | None:
        """Return the role whose voice reads `speaker`'s lines: the character, else None (the narrator)."""
        return speaker if speaker in self.voices else None

    def voice_for(self, speaker: str | None, direction: str | None = None) -> VoiceOptions | None:
        """Return the voice of a chunk said by `speaker` with `direction`; None: the run's own voice."""
        voice = self.voices.get(speaker) if speaker else None
        voice = voice or self.narrator
        if direction and self.deliver is not None and speaker:
            voice = self.deliver(voice or self.run_voice, Delivery(direction, pace_of(direction))) or voice
        return voice

    def identity(self, voice: VoiceOptions) -> dict[str, Any]:
        """Return the cache identity of `voice` (asked of the backend once per distinct voice)."""
        key = json.dumps(voice.__dict__, sort_keys=True, default=str)
        if key not in self._identities:
            self._identities[key] = self.identify(voice)
        return self._identities[key]


def role_voice(run: VoiceOptions, entry) -> VoiceOptions:
    """Return the voice of a cast file entry (app.cast.castfile.VoiceEntry) on top of the run's voice.

    An entry naming a voice or a clip replaces the run's voice source (voice, clip,
    transcript, speaker); instructions, speed and timbre replace their own; what it leaves
    out is the run's.
    """
    if entry.voice or entry.clone:
        run = replace(run, voice=entry.voice, clone=entry.clone, transcription=entry.transcription,
                      speaker=entry.speaker)
    elif entry.speaker:
        run = replace(run, speaker=entry.speaker)
    if entry.instructions:
        run = replace(run, instructions=entry.instructions)
    if entry.speed is not None:
        run = replace(run, speed=entry.speed)
    if entry.timbre:
        run = replace(run, timbre=entry.timbre)
    return run


def match_names(cast: Cast, names: list[str]) -> tuple[dict[str, str], list[str]]:
    """Return ({file name: Character.name} for names found by name or alias, names not found)."""
    by_name: dict[str, str] = {}
    for c in cast.characters:
        for alias in (*c.aliases, c.name):  # the name wins over another character's alias
            by_name[alias.casefold()] = c.name
    found, missing = {}, []
    for name in names:
        if name.casefold() in by_name:
            found[name] = by_name[name.casefold()]
        else:
            missing.append(name)
    return found, missing


def tag_directions(cast: Cast) -> dict[int, str]:
    """Return the delivery of each attributed quotation's own tag (Quote.verb, Quote.manner), by its index."""
    out = {}
    for i, q in enumerate(cast.quotes):
        direction = direction_of(q.verb, q.manner) if q.speaker else None
        if direction:
            out[i] = direction
    return out


def build(cast: Cast, cast_file, backend) -> tuple[Casting, list[str]]:
    """Return the casting of `cast_file` (app.cast.castfile.CastFile) on `backend`, and lines to show.

    Every role's voice is checked by the backend here, before any synthesis: an entry the
    model cannot honour raises ConfigError in one line naming the entry.
    """
    run = backend.run_voice
    notes: list[str] = []
    narrator = role_voice(run, cast_file.narrator) if cast_file.narrator is not None else None
    if narrator is not None:
        notes += backend.check_voice(narrator, "[narrator]")
    found, missing = match_names(cast, [name for name, _ in cast_file.characters])
    if missing:
        known = ", ".join(c.name for c in cast.characters[:6]) or "none"
        notes.append(f"cast file: no character {', '.join(repr(m) for m in missing[:4])} in this book "
                     f"(characters found: {known}; --export-cast lists them)")
    voices: dict[str, VoiceOptions] = {}
    for name, entry in cast_file.characters:
        if name in found:
            voice = role_voice(run, entry)
            notes += backend.check_voice(voice, f'[character."{name}"]')
            voices.setdefault(found[name], voice)
    deliver = backend.deliver if backend.voice_offer().directions else None
    directions = tag_directions(cast) if deliver is not None else {}
    return Casting(cast, run, narrator if narrator != run else None, voices, backend.identity_for, deliver,
                   directions), notes
