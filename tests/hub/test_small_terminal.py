"""Every hub screen and dialog at 80x24: the key widgets inside the visible region, reachable from the keyboard."""
from __future__ import annotations

import pytest

from app.request import ConvertRequest
from app.hub.app import HubApp
from app.hub.configure import ConfigureScreen
from app.hub.generate import GenerateScreen
from app.hub.mainmenu import MainMenu
from app.hub.modals import ClampModal, ConfirmModal, FilePickModal, PickModal, UnsavedModal
from app.hub.run_screen import RunScreen
from app.hub.servers import ServersScreen
from app.hub.settings_screen import SettingsScreen
from app.hub.wizard import WizardScreen
from tests.hub.conftest import screen_text, wait_for
from tests.hub.layout import SIZE, assert_in_view, tab_through

pytestmark = pytest.mark.hub


async def test_main_menu_fits_and_every_entry_is_a_key_away():
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, MainMenu)
        menu = app.screen.query_one("#menu")
        assert_in_view(menu)
        assert app.focused is menu
        text = screen_text(app)
        for prompt in ("Generate Audiobooks", "Configure Backends", "Start/Stop Backend Servers", "Settings", "Quit"):
            assert prompt in text


async def test_generate_form_fits_and_every_field_is_reached_by_tab(tmp_path):
    book = tmp_path / "three.md"
    book.write_text("# One\n\nThe first.\n\n# Two\n\nThe second.\n\n# Three\n\nThe third.\n")
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GenerateScreen)
        screen.query_one("#book").value = str(book)
        await wait_for(pilot, lambda: screen.chapter_numbers == [1, 2, 3], what="the chapter list")
        screen.query_one("#backend").value = "sglomni"  # the model table too (twelve rows and more)
        await pilot.pause()
        await tab_through(pilot, ["book", "browse", "backend", "model", "voice", "instructions", "chunk", "format",
                                  "chapter-choice", "title", "author", "output", "no-cache", "start", "back"])
        assert "Start" in screen_text(app)  # the last row of the form scrolled into view with its button


async def test_settings_fit_and_every_field_is_reached_by_tab():
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        await tab_through(pilot, ["remote_url", "port", "backend", "model", "output_dir", "chunk_size", "format",
                                  "save", "back"])


async def test_configure_servers_and_wizard_fit():
    app = HubApp(setup_wizard=True)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, WizardScreen)
        for button in app.screen.query("Button"):
            assert_in_view(button)
        assert_in_view(app.screen.query_one("#wizardlog"))
        await pilot.press("m")  # the wizard's "Choose models…"
        await wait_for(pilot, lambda: isinstance(app.screen, ConfigureScreen), what="the model screen")
        for widget in (app.screen.query_one("#models"), app.screen.query_one("#task"), *app.screen.query("Button")):
            assert_in_view(widget)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")  # the wizard: skip
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenu), what="the menu")
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ServersScreen) and app.screen.query("#status"),
                       what="the servers screen, composed")
        for widget in (app.screen.query_one("#status"), app.screen.query_one("#serverlog"),
                       *app.screen.query("Button")):
            assert_in_view(widget)


async def test_dialogs_fit_with_their_buttons_in_view(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("a.txt", "b.txt", "c.txt"):
        (tmp_path / name).write_text("Words.\n")
    dialogs = [
        (ConfirmModal("Work in progress (convert). Quit anyway? " * 3, yes="Quit", no="Stay"), ["yes", "no"]),
        (UnsavedModal("Settings"), ["save", "discard", "keep"]),
        (ClampModal(200, 80), ["set", "keep", "cancel"]),
        (PickModal("Which model?", [(f"m{i}", f"model number {i}") for i in range(30)]), ["pick-list"]),
        (FilePickModal(tmp_path), ["cwd", "home", "tree", "filepick-error"]),
    ]
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=SIZE) as pilot:
        for dialog, ids in dialogs:
            app.push_screen(dialog)
            await pilot.pause(0.2)
            assert_in_view(dialog.query_one(".dialog"))
            for oid in ids:
                if oid != "filepick-error":  # an empty line until a wrong file is picked
                    assert_in_view(dialog.query_one(f"#{oid}"))
            assert app.focused is not None and dialog in app.focused.ancestors_with_self
            await pilot.press("escape")  # every dialog closes from the keyboard
            await pilot.pause()
            assert isinstance(app.screen, MainMenu)


async def test_the_run_view_of_a_long_book_keeps_its_log_and_buttons_in_view(tmp_path):
    """Thirty chapters: the table scrolls inside its share, the log and buttons keep their rows."""
    book = tmp_path / "long.md"
    book.write_text("".join(f"# Part {n}\n\nWords of part {n}.\n\n" for n in range(1, 31)))
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=SIZE) as pilot:
        # SGLang-Omni with no venv here: the chapters are read and shown, then the backend start fails.
        run = RunScreen(ConvertRequest(book=book, backend="sglomni", model="voxtral_tts"))
        app.push_screen(run)
        await wait_for(pilot, lambda: run.outcome, what="the run to end")
        assert run.query_one("#chapters").row_count == 30
        for part in ("#status", "#stats", "#chapters", "#log", "#cancel", "#again", "#back"):
            assert_in_view(run.query_one(f"{part}"))
        assert "Failed:" in screen_text(app)
        await pilot.press("escape")  # back to the menu from the keyboard
        await pilot.pause()
        assert isinstance(app.screen, MainMenu)
