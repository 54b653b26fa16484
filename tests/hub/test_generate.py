"""The Generate form: the model picker table, the Higgs popup, the format list (the Piper run: test_generate_form.py)."""
from __future__ import annotations

import re

import pytest

from app.backends.sglomni import catalog
from app.hub.app import HubApp
from app.hub.run_screen import RunScreen
from app.hub.modals import ClampModal
from tests.hub.conftest import screen_text, wait_for

pytestmark = pytest.mark.hub


async def choose_sglomni(pilot) -> None:
    """Pick the SGLang-Omni backend with the keyboard: Tab to the select, open it, Down, Enter."""
    await pilot.press("tab", "tab")
    assert pilot.app.focused.id == "backend"
    await pilot.press("enter", "down", "enter")
    await pilot.pause()
    assert pilot.app.screen.backend == "sglomni"


def column(line: str, word: str) -> int:
    return re.search(rf"\b{word}\b", line).start()


async def test_model_picker_columns_line_up_and_the_voice_menu_follows(tmp_path, monkeypatch):
    voices = tmp_path / "voices"
    voices.mkdir()
    (voices / "narrator.wav").write_bytes(b"RIFF")
    monkeypatch.setenv("AUDIOBOOK_VOICES", str(voices))
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        await choose_sglomni(pilot)
        text = screen_text(app)
        rows = {spec.key: next(line for line in text.splitlines() if spec.label + " " in line)
                for spec in catalog.CATALOG.values()}
        for word in ("tts", "clone", "design"):
            cols = {key: column(line, word) for key, line in rows.items() if word in catalog.get(key).capabilities}
            assert cols, word
            assert len(set(cols.values())) == 1, (word, cols)
        # Columns in the seed's order, and the label padding puts all of them past the widest label.
        widest = max(line.index(catalog.get(key).label) + len(catalog.get(key).label) for key, line in rows.items())
        tts = column(rows["voxtral_tts"], "tts")
        assert widest < tts < column(rows["qwen3_tts_0_6b_base"], "clone") < column(
            rows["qwen3_tts_1_7b_voicedesign"], "design")
        for both in ("higgs_audio_v3_tts", "moss_tts_local", "fish_s2_pro"):
            assert "tts  clone" in rows[both]
        assert "tts" not in rows["zonos2"].split(catalog.get("zonos2").label, 1)[1]

        # The voice menu: presets for a preset model, clips from voices/ for a cloning one.
        screen = app.screen
        keys = list(catalog.CATALOG)
        await pilot.press("tab")  # the model table
        assert app.focused.id == "model"
        await pilot.press(*(["down"] * keys.index("voxtral_tts")))
        await pilot.pause()
        assert screen.model_key == "voxtral_tts"
        values = [v for _, v in screen.query_one("#voice")._options]
        assert "voice:casual_male" in values and not any(v.startswith("clone:") for v in values)
        await pilot.press("up")  # moss_tts_local_voice_acting clones
        await pilot.pause()
        values = [v for _, v in screen.query_one("#voice")._options]
        assert f"clone:{voices / 'narrator.wav'}" in values


async def test_higgs_popup_offers_the_clamp(tmp_path):
    book = tmp_path / "tiny.txt"
    book.write_text("A short book.\n\nIt has very few words in it, and that is fine.\n")
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        screen = app.screen
        screen.query_one("#book").value = str(book)
        await choose_sglomni(pilot)
        await pilot.press("tab", *(["down"] * list(catalog.CATALOG).index("higgs_audio_v3_tts")))
        screen.query_one("#chunk").value = "200"
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, ClampModal), what="the Higgs popup")
        text = screen_text(app)
        assert "Set Chunk to 80" in text and "Keep 200" in text
        await pilot.press("c")
        run = app.screen
        assert isinstance(run, RunScreen)
        await wait_for(pilot, lambda: run.outcome, what="the run to end")
        assert run.outcome == "cancelled"
        assert "Cancelled before starting" in screen_text(app)
        # Again, answering "set": the run goes on with 80 words and reaches the backend start,
        # which fails here (no sglang-omni venv) with the CLI's own message.
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, ClampModal), what="the popup again")
        await pilot.press("s")
        await wait_for(pilot, lambda: run.outcome, what="the second run to end")
        assert run.outcome == "failed"
        log = "\n".join(line.text for line in run.query_one("#log").lines)
        assert "Chunk size set to 80 words" in log
        # The fresh-install line: no GPU said first where nvidia-smi does not answer, else setup.
        assert "SGLang-Omni serves TTS on NVIDIA GPUs only" in log or "backends sglomni setup" in log


async def test_format_list_offers_every_output_and_builds_the_request(tmp_path):
    """The form lists m4b, mp3, epub, srt and vtt; toggling by keyboard gives the CLI's --format list."""
    book = tmp_path / "tiny.txt"
    book.write_text("A Tiny Book\n\nThe fox ran home.\n")
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 50)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        screen = app.screen
        formats = screen.query_one("#format")
        assert [formats.get_option_at_index(i).value for i in range(formats.option_count)] == [
            "m4b", "mp3", "epub", "srt", "vtt"]
        assert formats.selected == ["m4b"]  # the settings' default
        screen.query_one("#book").value = str(book)
        formats.focus()
        await pilot.pause()
        formats.highlighted = 0
        await pilot.press("down", "down", "space", "down", "down", "space")
        await pilot.pause()
        assert screen.request().fmt == "m4b,epub,vtt"
        formats.highlighted = 0
        await pilot.press("space")  # m4b off: only the read-along outputs
        await pilot.pause()
        assert screen.request().fmt == "epub,vtt"
        formats.deselect_all()
        assert screen.request() is None  # nothing chosen: the form says so instead of starting
