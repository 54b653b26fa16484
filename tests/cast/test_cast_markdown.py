"""--export-text marks each quotation's speaker; the .md read back honours the marks, corrected or not."""
from __future__ import annotations

import json

from app.core import settings as settings_mod
from app.book.formats.mdrender import render_markdown, speaker_marks
from app.request import ConvertRequest, build_backend
from app.convert import prepare
from tests.cast.conftest import QUOTES


def test_the_marks_read_back_and_a_corrected_line_changes_speaker(run_cli, story, tmp_path):
    md = tmp_path / "story.md"
    assert run_cli(story, "--export-text", md).returncode == 0
    text = md.read_text(encoding="utf-8")
    marked = [(t.strip('"\u201c\u201d'), s) for t, s in speaker_marks(text)]
    assert all((q, s) in marked for q, s in QUOTES)  # every explicit tag's line is marked
    # A listener says Whitcombe's line is Hartley's: one word changed in the file.
    md.write_text(text.replace('{speaker="Whitcombe"}', '{speaker="Hartley"}'), encoding="utf-8")
    out = tmp_path / "cast.json"
    assert run_cli(md, "--export-cast", out).returncode == 0
    quotes = {q["text"]: q["speaker"] for q in json.loads(out.read_text(encoding="utf-8"))["quotes"]}
    assert quotes["How can you possibly tell that from here?"] == "Hartley"
    assert quotes["Someone is coming up the stairs, and she is in a hurry,"] == "Hartley"
    # What is spoken is the text without the marks: exported again, the file's words are the same.
    again = tmp_path / "again.md"
    assert run_cli(md, "--export-text", again).returncode == 0
    assert "speaker=" not in render_markdown(again.read_text(encoding="utf-8"))
    assert again.read_text(encoding="utf-8") == md.read_text(encoding="utf-8")
    # Converting the .md: the corrected line is planned in Hartley's voice.
    cast = tmp_path / "cast.toml"
    cast.write_text('[character."Hartley"]\nspeed = 0.8\n', encoding="utf-8")
    req = ConvertRequest(book=md, cast=str(cast), output=tmp_path / "story.m4b")
    conf = settings_mod.load()
    chunks = prepare(req, conf, lambda options: build_backend(req, conf, options)).plan.chunks
    line = next(pc for pc in chunks if "How can you possibly" in pc.text)
    assert line.chunk.speaker == "Hartley" and line.voice is not None and line.voice.speed == 0.8
    # The marks say who; the tag still says how (Maud's whisper, a step slower on Piper).
    whisper = next(pc for pc in chunks if "Please, I need" in pc.text)
    assert whisper.chunk.direction == "Whispering." and whisper.voice.speed == 0.9


def test_a_bracket_in_the_text_is_not_a_mark():
    assert speaker_marks(r'He wrote \[note\]{speaker="X"} and ["Hi,"]{speaker="Ann"} she said.') == \
        [('"Hi,"', "Ann")]
