"""The main menu: generate, configure backends, start/stop servers, settings, quit."""
from __future__ import annotations

from textual.binding import Binding

from app.hub.configure import BackendsMenu
from app.hub.generate import GenerateScreen
from app.hub.menu import MenuScreen
from app.hub.servers import ServersScreen
from app.hub.settings_screen import SettingsScreen

#: (option id, prompt, key) of the main menu, in order.
MAIN_ENTRIES: tuple[tuple[str, str, str], ...] = (
    ("generate", "Generate Audiobooks", "g"),
    ("backends", "Configure Backends…", "b"),
    ("servers", "Start/Stop Backend Servers", "s"),
    ("settings", "Settings", "t"),
    ("quit", "Quit", "q"),
)


class MainMenu(MenuScreen):
    """Generate, configure, start/stop, settings, quit."""

    ENTRIES = MAIN_ENTRIES
    HEADING = "Audiobook hub — pick with the arrows and Enter, or press the key in brackets"
    BINDINGS = [Binding(key, f"open('{oid}')", prompt, show=False) for oid, prompt, key in MAIN_ENTRIES]

    async def action_open(self, entry: str) -> None:
        if entry == "quit":
            await self.app.action_quit()
        else:
            self.open(entry)

    def open(self, entry: str) -> None:
        screen = {"generate": GenerateScreen, "backends": BackendsMenu, "servers": ServersScreen,
                  "settings": SettingsScreen}[entry]()
        self.app.push_screen(screen)
