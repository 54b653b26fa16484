"""The hub's Cast screen: the characters, their lines and voices, and a line previewed in its voice,
through the same functions as --export-cast and --preview-cast."""
from __future__ import annotations

import json

import pytest

from app.hub.app import HubApp
from app.hub.cast_screen import CastScreen
from tests.hub.conftest import screen_text, wait_for
from tests.media import media_duration

pytestmark = pytest.mark.hub


async def test_the_cast_screen_shows_each_character_and_previews_a_line_in_its_voice(story, tmp_path, run_cli):
    cast = tmp_path / "cast.toml"
    cast.write_text('[character."Whitcombe"]\nspeed = 1.5\n', encoding="utf-8")
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        form = app.screen
        form.query_one("#book").value = str(story)
        form.query_one("#cast").value = str(cast)
        assert form.request().cast == str(cast)  # a run started from the form reads the cast
        form.action_cast()
        await wait_for(pilot, lambda: isinstance(app.screen, CastScreen) and app.screen.view is not None,
                       what="the cast")
        screen = app.screen
        table = screen.query_one("#characters")
        rows = {table.get_row_at(i)[0]: table.get_row_at(i) for i in range(table.row_count)}
        assert {"Hartley", "Whitcombe", "Maud"} <= set(rows)
        assert rows["Whitcombe"][3] == "speed 1.5" and rows["Hartley"][3] == "the narrator's voice"
        assert int(rows["Hartley"][1]) >= 2
        table.move_cursor(row=list(rows).index("Whitcombe"))
        await pilot.press("p")
        await wait_for(pilot, lambda: screen.previewed is not None, timeout=60, what="the preview")
        assert "Whitcombe's line" in screen_text(app)
        heard = media_duration(screen.previewed)
    # The same line from the command line at the narrator's rate: the hub's is ~1.5 times faster.
    plain = run_cli(story, "--preview-cast", "Whitcombe", "-o", tmp_path / "plain.wav")
    assert plain.returncode == 0, plain.stderr
    assert heard < 0.8 * media_duration(tmp_path / "plain.wav")
    # And --export-cast with the same cast names the same voice.
    out = tmp_path / "cast.json"
    assert run_cli(story, "--cast", cast, "--export-cast", out).returncode == 0
    voices = {c["name"]: c["voice"] for c in json.loads(out.read_text())["characters"]}
    assert voices["Whitcombe"] == "speed 1.5"
