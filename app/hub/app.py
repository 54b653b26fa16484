"""The hub: a Textual terminal UI that calls the same functions as the CLI."""
from __future__ import annotations

import argparse
from typing import Callable

from textual.app import App
from textual.binding import Binding

from app.core import settings as settings_mod
from app.core.errors import AudiobookError
from app.hub.mainmenu import MainMenu
from app.hub.modals import MODAL_CSS, ConfirmModal
from app.hub.wizard import WizardScreen, needs_setup

CSS = MODAL_CSS + """
.heading { color: $accent; text-style: bold; padding: 0 1; height: auto; }
.menu { padding: 1 2; }
.menu OptionList { height: auto; max-height: 12; width: 60; }
#form { padding: 0 1; }
#form Label { margin-top: 0; }
.error { color: $error; height: auto; width: 100%; }
#chapter-choice { height: auto; max-height: 10; }
.row { height: auto; }
.row Input { width: 1fr; }
.cell { width: 1fr; height: auto; }
.buttons { height: auto; margin: 1 0 0 0; }
.buttons Button { margin-right: 1; }
#model { height: auto; max-height: 14; }
#models { height: 2fr; min-height: 6; }
#task, #log, #serverlog, #wizardlog { height: 1fr; min-height: 4; border: round $panel; }
/* Half the run view at most: the log and the buttons keep their rows on an 80x24 terminal. */
#chapters { height: auto; max-height: 45%; }
#system { color: $warning; height: auto; }
#status { padding: 0 1; text-style: bold; height: auto; }
#stats, #detail, #gpu, #venv { padding: 0 1; height: auto; }
"""


class HubApp(App):
    """The audiobook hub."""

    TITLE = "Audiobook hub"
    CSS = CSS
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True),
                # A terminal's redraw key; the web hub also sends it when a page reattaches.
                Binding("ctrl+l", "redraw", "Redraw", show=False, priority=True)]

    def __init__(self, *, setup_wizard: bool | None = None) -> None:
        super().__init__()
        try:
            self.conf = settings_mod.load()
            self.settings_error = ""
        except AudiobookError as exc:
            self.conf = settings_mod.Settings()
            self.settings_error = exc.one_line()
        self.setup_wizard = needs_setup() if setup_wizard is None else setup_wizard
        #: Work in progress: name -> how to cancel it (quitting asks first when any is here).
        self.tasks: dict[str, Callable[[], None]] = {}
        #: The server this hub started (Start/Stop screen), if any.
        self.managed_server = None
        #: Whether the "quit anyway?" dialog is open (a second Ctrl+Q must not stack another).
        self._asking_to_quit = False

    def on_mount(self) -> None:
        self.push_screen(MainMenu())
        if self.setup_wizard:
            self.push_screen(WizardScreen())
        if self.settings_error:
            self.notify(self.settings_error, severity="error", timeout=10)

    def action_redraw(self) -> None:
        """Paint the whole screen again (a page that reattached to the web hub starts blank)."""
        self.screen.refresh(layout=True)

    def on_unmount(self) -> None:
        # Leaving by a path that asks nothing (the web server stopping, SIGTERM) still stops work
        # cleanly, as quitting from the keyboard does: the worker ends, the run resumes from the cache.
        for cancel in list(self.tasks.values()):
            cancel()

    def begin_task(self, name: str, cancel: Callable[[], None]) -> None:
        """Record work in progress so quitting asks first; its cancel runs once, however the hub is left."""
        called: list[bool] = []

        def cancel_once() -> None:
            if not called:
                called.append(True)
                cancel()

        self.tasks[name] = cancel_once

    def end_task(self, name: str) -> None:
        """Forget finished work."""
        self.tasks.pop(name, None)

    async def action_quit(self) -> None:
        """Quit; with work in progress, ask first, then cancel it (it resumes next time)."""
        if not self.tasks:
            self.exit()
            return
        if self._asking_to_quit:
            return

        def answered(yes: bool | None) -> None:
            self._asking_to_quit = False
            if yes:
                for cancel in list(self.tasks.values()):
                    cancel()
                self.exit()

        work = ", ".join(sorted(self.tasks))
        self._asking_to_quit = True
        self.push_screen(ConfirmModal(
            f"Work in progress ({work}). Quit anyway? It stops cleanly; finished chunks and downloads are kept "
            f"and resume when you run it again.", yes="Quit", no="Stay"), answered)


def run(argv: list[str]) -> int:
    """Open the hub (`python audiobook.py hub [--setup | --no-setup]`) and return the exit code."""
    parser = argparse.ArgumentParser(prog="audiobook.py hub", description="The audiobook terminal UI.")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--setup", dest="wizard", action="store_true", default=None,
                       help="open the setup wizard even when it already ran")
    group.add_argument("--no-setup", dest="wizard", action="store_false", help="skip the first-start wizard")
    args = parser.parse_args(argv)
    HubApp(setup_wizard=args.wizard).run()
    return 0
