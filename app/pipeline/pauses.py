"""How long a listener hears silence after each kind of chunk boundary."""
from __future__ import annotations

from app.book.chunking import Pause

#: Seconds of silence after a chunk, by what follows it. Sentences inside a
#: paragraph get a breath; a paragraph a longer beat; a chapter's end a clear
#: stop before the next chapter starts.
PAUSE_SECONDS: dict[Pause, float] = {
    Pause.SENTENCE: 0.30,
    Pause.PARAGRAPH: 0.75,
    Pause.CHAPTER: 1.50,
}


def pause_seconds(pause: Pause) -> float:
    return PAUSE_SECONDS[pause]
