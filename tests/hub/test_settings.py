"""Settings saved from the hub land in the file the CLI reads."""
from __future__ import annotations

import pytest

from app.core import paths, settings
from app.hub.app import HubApp
from app.hub.mainmenu import MainMenu
from app.hub.modals import UnsavedModal
from app.hub.settings_screen import SettingsScreen
from tests.hub.conftest import screen_text, wait_for

pytestmark = pytest.mark.hub


async def test_settings_persist_to_the_cli_file(tmp_path):
    out = tmp_path / "books"
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert app.focused.id == "remote_url"
        await pilot.press(*"http://gpu-box:9000")
        await pilot.press("tab", "end", *(["backspace"] * 6), *"8200")  # port
        await pilot.press("tab", "enter", "down", "down", "enter")  # backend: sglomni
        await pilot.press("tab", "enter", *(["down"] * 5), "enter")  # model: the 5th catalog entry
        app.screen.query_one("#output_dir").value = str(out)
        app.screen.query_one("#chunk_size").value = "55"
        await pilot.press("ctrl+s")
        await wait_for(pilot, paths.settings_file().exists, what="the file")
    conf = settings.load()
    assert conf.sglomni.remote_url == "http://gpu-box:9000"
    assert conf.sglomni.port == 8200
    assert conf.backend == "sglomni"
    assert conf.model == "higgs_audio_v3_tts"
    assert conf.output_dir == str(out) and conf.resolved_output_dir() == out
    assert conf.chunk_size == 55
    # Reopening shows what was saved.
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        assert app.screen.query_one("#port").value == "8200"
        assert app.screen.query_one("#model").value == "higgs_audio_v3_tts"


async def test_bad_values_are_refused_and_nothing_is_written():
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        app.screen.query_one("#port").value = "70000"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not paths.settings_file().exists()
        app.screen.query_one("#port").value = "8100"
        app.screen.query_one("#remote_url").value = "gpu-box:8100"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not paths.settings_file().exists()


async def open_settings(pilot) -> SettingsScreen:
    await pilot.press("t")
    await pilot.pause()
    assert isinstance(pilot.app.screen, SettingsScreen)
    return pilot.app.screen


async def test_escape_leaves_at_once_when_nothing_changed():
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_settings(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainMenu)


async def test_escape_with_edits_asks_keep_editing_then_discard():
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_settings(pilot)
        await pilot.press(*"http://gpu-box:9000")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, UnsavedModal)
        assert "Settings has unsaved changes" in screen_text(app)
        await pilot.press("k")  # keep editing: the edit is still there
        await pilot.pause()
        assert app.screen is screen and screen.query_one("#remote_url").value == "http://gpu-box:9000"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("d")  # discard
        await pilot.pause()
        assert isinstance(app.screen, MainMenu)
        assert not paths.settings_file().exists()
        screen = await open_settings(pilot)
        assert screen.query_one("#remote_url").value == ""


async def test_escape_with_edits_can_save_and_a_bad_value_keeps_the_form_open():
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_settings(pilot)
        screen.query_one("#port").value = "70000"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("s")  # save: refused (the port), so the form stays with the value to fix
        await pilot.pause()
        assert app.screen is screen and not paths.settings_file().exists()
        screen.query_one("#port").value = "8300"
        formats = screen.query_one("#format")
        formats.select("epub")
        formats.select("vtt")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, UnsavedModal)
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenu), what="the menu after saving")
    conf = settings.load()
    assert conf.sglomni.port == 8300
    assert conf.format == "m4b,epub,vtt"  # the formats in the order of formats.FORMATS
