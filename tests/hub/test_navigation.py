"""Every screen opens from the keyboard; the wizard is skippable; quitting with work asks first."""
from __future__ import annotations

import pytest

from app.core import paths
from app.hub.app import HubApp
from app.hub.configure import BackendsMenu, ConfigureScreen
from app.hub.generate import GenerateScreen
from app.hub.mainmenu import MainMenu
from app.hub.modals import ConfirmModal, FilePickModal
from app.hub.servers import ServersScreen
from app.hub.settings_screen import SettingsScreen
from app.hub.wizard import WizardScreen
from tests.hub.conftest import screen_text, wait_for

pytestmark = pytest.mark.hub


async def test_every_screen_by_its_key():
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        assert isinstance(app.screen, MainMenu)
        for key, screen in (("g", GenerateScreen), ("s", ServersScreen), ("t", SettingsScreen)):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, screen), key
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, MainMenu)
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, BackendsMenu)
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, ConfigureScreen)
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert isinstance(app.screen, MainMenu)


async def test_menu_entries_by_arrows_and_enter():
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        # The highlight starts on the first entry; each Down moves one entry.
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ServersScreen)
        await pilot.press("escape", "up", "enter")  # Configure Backends…
        await pilot.pause()
        assert isinstance(app.screen, BackendsMenu)
        await pilot.press("enter")  # Configure SGLang-Omni
        await pilot.pause()
        assert isinstance(app.screen, ConfigureScreen)
        assert app.return_code is None
        await pilot.press("escape", "escape", "down", "down", "down", "enter")  # Quit
        await pilot.pause()
        assert app.return_code == 0  # exit() was called: no work was in progress


async def test_browse_opens_a_file_picker(tmp_path, monkeypatch):
    book = tmp_path / "tiny.txt"
    book.write_text("Hello there.\n")
    monkeypatch.chdir(tmp_path)
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("g", "ctrl+o")
        await pilot.pause(0.3)
        assert isinstance(app.screen, FilePickModal)
        # The tree lists the folder; the cursor starts on the root, Down reaches the file.
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GenerateScreen), what="the picker to close")
        assert app.screen.query_one("#book").value == str(book)


async def test_first_start_opens_the_wizard_and_skip_remembers_it():
    assert not paths.settings_file().exists()
    app = HubApp()
    async with app.run_test(size=(100, 40)) as pilot:
        assert isinstance(app.screen, WizardScreen)
        # No nvidia-smi here: the wizard says so loudly.
        await wait_for(pilot, lambda: "nvidia-smi does not answer" in screen_text(app), what="the GPU warning")
        assert "not provisioned" in screen_text(app)
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, ConfigureScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainMenu)
    assert paths.settings_file().exists()
    app = HubApp()
    async with app.run_test(size=(100, 40)) as pilot:
        assert isinstance(app.screen, MainMenu)


async def test_quit_with_work_in_progress_asks_first():
    cancelled = []
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        app.begin_task("convert", lambda: cancelled.append(True))
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        assert "Work in progress (convert)" in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, MainMenu) and app.is_running and not cancelled
        await pilot.press("q")  # the menu's Quit entry asks the same question
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("y")
        await pilot.pause()
    assert cancelled == [True]
