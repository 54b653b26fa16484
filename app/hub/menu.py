"""A screen of menu entries, each opened with Enter or its own key (the main menu and Configure Backends… are ones)."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

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
