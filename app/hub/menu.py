"""The main menu and the Configure Backends… submenu."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

#: (option id, prompt, key) of the main menu, in order.
MAIN_ENTRIES: tuple[tuple[str, str, str], ...] = (
    ("generate", "Generate Audiobooks", "g"),
    ("backends", "Configure Backends…", "b"),
    ("servers", "Start/Stop Backend Servers", "s"),
    ("settings", "Settings", "t"),
    ("quit", "Quit", "q"),
)


class MenuScreen(Screen):
    """A list of entries, each opened with Enter or its own key."""

    ENTRIES: tuple[tuple[str, str, str], ...] = ()
    HEADING = ""

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(classes="menu"):
            yield Static(self.HEADING, classes="heading")
            yield OptionList(*[Option(f"{prompt}   [{key}]", id=oid) for oid, prompt, key in self.ENTRIES],
                             id="menu", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        await self.action_open(str(event.option.id))

    async def action_open(self, entry: str) -> None:
        self.open(entry)

    def open(self, entry: str) -> None:
        raise NotImplementedError


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
        from app.hub.configure import BackendsMenu
        from app.hub.generate import GenerateScreen
        from app.hub.servers import ServersScreen
        from app.hub.settings_screen import SettingsScreen

        screen = {"generate": GenerateScreen, "backends": BackendsMenu, "servers": ServersScreen,
                  "settings": SettingsScreen}[entry]()
        self.app.push_screen(screen)
