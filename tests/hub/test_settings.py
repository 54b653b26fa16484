"""Settings saved from the hub land in the file the CLI reads."""
from __future__ import annotations

import pytest

from app import paths, settings
from app.hub.app import HubApp
from app.hub.settings_screen import SettingsScreen
from tests.hub.conftest import wait_for

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
