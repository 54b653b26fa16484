"""Small modal questions the hub asks: confirm, chunk clamp, unsaved edits, model choice, file choice."""
from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DirectoryTree, Label, OptionList
from textual.widgets.option_list import Option

from app.hub.book_choice import KINDS, unsupported_reason

MODAL_CSS = """
ModalScreen { align: center middle; }
.dialog { width: 70; max-width: 95%; height: auto; max-height: 90%; border: thick $accent;
          background: $surface; padding: 1 2; }
.dialog .question { width: 100%; margin-bottom: 1; }
.dialog Horizontal { height: auto; width: 100%; }
.dialog Button { margin-right: 1; }
.dialog OptionList { height: auto; max-height: 16; }
/* The file dialog takes most of a small terminal, its tree what is left: the error line stays in view. */
#filepick { height: 90%; }
.dialog DirectoryTree { height: 1fr; min-height: 4; }
.dialog .error { color: $error; height: auto; width: 100%; }
"""


class ConfirmModal(ModalScreen[bool]):
    """Ask a yes/no question; Enter or y confirms, Escape or n declines."""

    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str, *, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question = question
        self.yes, self.no = yes, no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="confirm"):
            yield Label(self.question, classes="question")
            with Horizontal():
                yield Button(self.yes, variant="error", id="yes")
                yield Button(self.no, variant="primary", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class ClampModal(ModalScreen[str]):
    """Offer to clamp the chunk size to the model's request window: "set", "keep" or "cancel"."""

    BINDINGS = [Binding("s", "answer('set')", "Set"), Binding("k,t", "answer('keep')", "Keep"),
                Binding("c,escape", "answer('cancel')", "Cancel")]

    def __init__(self, size: int, cap: int) -> None:
        super().__init__()
        self.chunk_words, self.cap_words = size, cap

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="clamp"):
            yield Label(f"This model speaks at most {self.cap_words} words per request, but the chunk size is "
                        f"{self.chunk_words}. Longer chunks may be cut off mid-sentence.", classes="question")
            with Horizontal():
                yield Button(f"Set Chunk to {self.cap_words}", variant="primary", id="set")
                yield Button(f"Keep {self.chunk_words}", id="keep")
                yield Button("Cancel", variant="error", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#set", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(str(event.button.id))

    def action_answer(self, value: str) -> None:
        self.dismiss(value)


class UnsavedModal(ModalScreen[str]):
    """Ask what to do with unsaved edits: "save", "discard" or "keep" (editing); Escape keeps editing."""

    BINDINGS = [Binding("s", "answer('save')", "Save"), Binding("d", "answer('discard')", "Discard"),
                Binding("k,escape", "answer('keep')", "Keep editing")]

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="unsaved"):
            yield Label(f"{self.what} has unsaved changes. Save them before leaving?", classes="question")
            with Horizontal():
                yield Button("Save [s]", variant="primary", id="save")
                yield Button("Discard [d]", variant="error", id="discard")
                yield Button("Keep editing [k]", id="keep")

    def on_mount(self) -> None:
        self.query_one("#save", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(str(event.button.id))

    def action_answer(self, value: str) -> None:
        self.dismiss(value)


class PickModal(ModalScreen["str | None"]):
    """Pick one of `choices` (id, prompt); Escape returns None."""

    BINDINGS = [Binding("escape", "dismiss_none", "Cancel")]

    def __init__(self, title: str, choices: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="pick"):
            yield Label(self.title_text, classes="question")
            yield OptionList(*[Option(prompt, id=key) for key, prompt in self.choices], id="pick-list")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)


class FilePickModal(ModalScreen["Path | None"]):
    """Browse for a book file from a start folder, the current folder or home; Escape returns None.

    A file the tool cannot read is refused where it is picked, with one line in the dialog, so
    the user picks again at once instead of learning it after Start. In the web hub these are
    the server's files: the folder `hub --web` was started in, and the home of the user running it.
    """

    BINDINGS = [Binding("escape", "dismiss_none", "Cancel"),
                Binding("tilde", "root('home')", "Home folder"),
                Binding("full_stop", "root('cwd')", "Current folder")]

    def __init__(self, start: Path) -> None:
        super().__init__()
        self.start = start
        self.roots = {"cwd": Path.cwd(), "home": Path.home()}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="filepick"):
            yield Label(self._question(self.start), classes="question", id="filepick-question")
            with Horizontal():
                yield Button("Current folder (.)", id="cwd")
                yield Button("Home folder (~)", id="home")
            yield DirectoryTree(self.start, id="tree")
            yield Label("", id="filepick-error", classes="error")

    @staticmethod
    def _question(root: Path) -> str:
        return f"Choose a book ({KINDS}) under {root}"

    def on_mount(self) -> None:
        self.query_one(DirectoryTree).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_root(str(event.button.id))

    def action_root(self, which: str) -> None:
        """Browse from the current folder ("cwd") or the home folder ("home")."""
        tree = self.query_one(DirectoryTree)
        tree.path = self.roots[which]
        self.query_one("#filepick-question", Label).update(self._question(self.roots[which]))
        tree.focus()

    def on_directory_tree_file_selected(self, event: DirectoryTree.FileSelected) -> None:
        path = Path(event.path)
        reason = unsupported_reason(path)
        if reason is None:
            self.dismiss(path)
        else:
            self.query_one("#filepick-error", Label).update(Text(reason))

    def action_dismiss_none(self) -> None:
        self.dismiss(None)


__all__ = ["ConfirmModal", "ClampModal", "UnsavedModal", "PickModal", "FilePickModal", "MODAL_CSS"]
