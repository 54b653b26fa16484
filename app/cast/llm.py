"""An optional language model for the quotations the rules leave unsure (--cast-llm URL).

Any OpenAI-compatible server: the model is the first /v1/models reports; each prompt
is one chapter (or a window of one, for a long chapter) with its quotations marked
|n|...|n| and the characters listed (the prompt of deezer/llms_quotation_attribution),
asking for JSON {"n": "name"}. An answer is taken only where it names a listed
character (by name or alias); anything else, an unparseable answer included, keeps
the rules' guess. Every answer is cached by the prompt and the model, so a re-run
asks nothing again; requests are bounded in size and time, and a cancel stops the
pass between prompts (the rules' cast stands for what was not asked).

All HTTP goes through the app's one door (app/core/http.py).
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import re
import threading
from pathlib import Path
from typing import Callable

from app.cast.model import Cast, Character, Quote
from app.core.files import temp_tag, write_bytes_atomic

log = logging.getLogger(__name__)

#: Quotations below this confidence are asked about.
UNSURE_BELOW = 0.8
#: Characters of book text per prompt (about 6,000 tokens): a longer chapter is asked in windows.
MAX_PROMPT_CHARS = 24_000
#: Characters listed in a prompt, most talkative first.
MAX_CHARACTERS = 60
#: An answer larger than this is not one.
MAX_ANSWER_BYTES = 1 << 20
#: Seconds one answer may take.
ANSWER_SECONDS = 300.0
#: The confidence given to an attribution the model made.
LLM_CONFIDENCE = 0.75
#: Bump when the prompt changes, so cached answers to the old one are not reused.
PROMPT_VERSION = 1

_SYSTEM = ("You attribute quotations in a novel to their speakers. Each quotation is marked |n|...|n| with its "
           "number n. Answer with one JSON object mapping each number to the speaker's name exactly as written "
           "in the list of characters, or null when the narrator or nobody in the list says it. No other text.")
_JSON = re.compile(r"\{.*\}", re.S)


@dataclasses.dataclass(frozen=True)
class Window:
    """One prompt's worth of a chapter: its paragraphs, and the quotations asked about in it."""

    chapter: int
    paragraphs: tuple[int, ...]
    quotes: tuple[int, ...]  # indexes into Cast.quotes


def windows(book, cast: Cast, unsure: set[int]) -> list[Window]:
    """Return the prompts to send: each chapter with unsure quotations, cut at MAX_PROMPT_CHARS."""
    by_place: dict[tuple[int, int], list[int]] = {}
    for i, q in enumerate(cast.quotes):
        by_place.setdefault((q.chapter, q.paragraph), []).append(i)
    out = []
    for chapter in book.chapters:
        paragraphs: list[int] = []
        size = 0

        def close() -> None:
            asked = tuple(i for p in paragraphs for i in by_place.get((chapter.index, p), []) if i in unsure)
            if asked:
                out.append(Window(chapter.index, tuple(paragraphs), asked))

        for n, text in enumerate(chapter.paragraphs):
            if paragraphs and size + len(text) > MAX_PROMPT_CHARS:
                close()
                paragraphs, size = [], 0
            paragraphs.append(n)
            size += len(text)
        close()
    return out


def prompt(book, cast: Cast, window: Window) -> str:
    """Return the user message for one window: the characters, then the text with quotations numbered."""
    chapter = next(c for c in book.chapters if c.index == window.chapter)
    names = [f"- {c.name}" + (f" (also: {', '.join(c.aliases)})" if c.aliases else "")
             for c in cast.characters[:MAX_CHARACTERS]]
    marked = []
    for p in window.paragraphs:
        text = chapter.paragraphs[p][:MAX_PROMPT_CHARS]
        quotes = sorted((i for i in window.quotes if cast.quotes[i].paragraph == p),
                        key=lambda i: -cast.quotes[i].start)
        for i in quotes:  # from the end, so earlier offsets stay right
            q = cast.quotes[i]
            text = f"{text[:q.start]}|{i}|{text[q.start:q.end]}|{i}|{text[q.end:]}"
        marked.append(text)
    return "Characters:\n" + "\n".join(names) + "\n\nText:\n" + "\n\n".join(marked)


def parse_answer(content: str, cast: Cast, asked: tuple[int, ...]) -> dict[int, str | None]:
    """Return {quote index: character name or None} for the answers that are valid; the rest are left out."""
    m = _JSON.search(content or "")
    try:
        data = json.loads(m.group(0)) if m else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return {}
    known: dict[str, str] = {}
    for c in cast.characters:
        for alias in (*c.aliases, c.name):
            known[alias.casefold()] = c.name
    out: dict[int, str | None] = {}
    for key, value in data.items():
        try:
            n = int(str(key).strip("|"))
        except ValueError:
            continue
        if n not in asked:
            continue
        if value is None:
            out[n] = None
        elif isinstance(value, str) and value.strip().casefold() in known:
            out[n] = known[value.strip().casefold()]
    return out


class ChatClient:
    """POST /v1/chat/completions on one server, through the app's HTTP door; answers cached on disk."""

    def __init__(self, url: str, cache_dir: Path):
        from app.core.http import Endpoint, Timeouts

        self.endpoint = Endpoint(url, timeouts=Timeouts(read=ANSWER_SECONDS))
        self.cache_dir = cache_dir
        self._model: str | None = None

    @property
    def model(self) -> str:
        """Return the model the server reports first in /v1/models."""
        if self._model is None:
            from app.core.errors import ConfigError

            data = self.endpoint.get_json("/v1/models")
            cards = data.get("data") if isinstance(data, dict) else None
            ids = [c.get("id") for c in cards or [] if isinstance(c, dict) and isinstance(c.get("id"), str)]
            if not ids:
                raise ConfigError(f"The language model server at {self.endpoint.base_url} lists no model in "
                                  f"/v1/models", hint="Start it with a model, or drop --cast-llm")
            self._model = ids[0]
        return self._model

    @property
    def model_name(self) -> str:
        """Return the model's id once asked of the server, else "" (for messages)."""
        return self._model or ""

    def ask(self, user: str) -> str:
        """Return the model's answer to `user` (from the cache when asked before)."""
        key = hashlib.sha256(json.dumps([PROMPT_VERSION, self.model, _SYSTEM, user]).encode()).hexdigest()
        cached = self.cache_dir / key[:2] / f"{key}.json"
        try:
            return json.loads(cached.read_text(encoding="utf-8"))["content"]
        except (OSError, ValueError, KeyError, TypeError):
            pass
        body = {"model": self.model, "temperature": 0, "stream": False,
                "messages": [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]}
        cached.parent.mkdir(parents=True, exist_ok=True)
        part = cached.with_name(f".{key}.{temp_tag()}.part")
        try:
            self.endpoint.download("POST", "/v1/chat/completions", part, max_bytes=MAX_ANSWER_BYTES,
                                   seconds=ANSWER_SECONDS, json=body)
            answer = json.loads(part.read_text(encoding="utf-8"))
        except ValueError:
            answer = None
        finally:
            part.unlink(missing_ok=True)
        try:
            content = answer["choices"][0]["message"]["content"]
        except (TypeError, KeyError, IndexError):
            content = None
        if not isinstance(content, str):
            return ""  # not an answer: the rules' guess stands (and it is asked again next run)
        write_bytes_atomic(cached, json.dumps({"content": content}).encode("utf-8"))
        return content

    def close(self) -> None:
        self.endpoint.close()


def refine(book, cast: Cast, client: ChatClient, *, cancel: threading.Event | None = None,
           progress: Callable[[int, int], None] | None = None) -> tuple[Cast, int]:
    """Return `cast` with the model's attributions of its unsure quotations, and how many it changed."""
    unsure = {i for i, q in enumerate(cast.quotes) if q.confidence < UNSURE_BELOW}
    if not unsure or not cast.characters:
        return cast, 0
    quotes = list(cast.quotes)
    changed = 0
    todo = windows(book, cast, unsure)
    for done, window in enumerate(todo):
        if cancel is not None and cancel.is_set():
            break
        for i, speaker in parse_answer(client.ask(prompt(book, cast, window)), cast, window.quotes).items():
            if speaker != quotes[i].speaker:
                changed += 1
            # A line the model gives a character is no longer the first-person narrator's; its null keeps
            # a narrator's line the narrator's (null is "the narrator or nobody listed").
            quotes[i] = dataclasses.replace(quotes[i], speaker=speaker, method="llm", confidence=LLM_CONFIDENCE,
                                            by_narrator=quotes[i].by_narrator and speaker is None)
        if progress is not None:
            progress(done + 1, len(todo))
    return dataclasses.replace(cast, quotes=tuple(quotes), characters=_recount(cast.characters, quotes)), changed


def _recount(characters: tuple[Character, ...], quotes: list[Quote]) -> tuple[Character, ...]:
    """Return the characters with their lines counted again, most lines first."""
    counts: dict[str, int] = {}
    for q in quotes:
        if q.speaker:
            counts[q.speaker] = counts.get(q.speaker, 0) + 1
    return tuple(sorted((dataclasses.replace(c, lines=counts.get(c.name, 0)) for c in characters),
                        key=lambda c: (-c.lines, c.name)))  # as find_cast sorts them
