"""Configure Backends… → Configure SGLang-Omni: the model checkbox tree and its task view."""
from __future__ import annotations

import threading
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, RichLog, Static, Tree

from app.backends.sglomni import manage
from app.core.errors import AudiobookError, Cancelled
from app.hub.menu import MenuScreen
from app.hub.modals import ConfirmModal
from app.hub.threads import ask_from_thread, ui


class BackendsMenu(MenuScreen):
    """The backends a user can configure (SGLang-Omni; Piper needs nothing)."""

    ENTRIES = (("sglomni", "Configure SGLang-Omni", "o"), ("back", "Back", "escape"))
    HEADING = "Configure Backends… — Piper needs no setup; SGLang-Omni models are installed here"
    BINDINGS = [Binding("o", "open('sglomni')", "SGLang-Omni", show=False),
                Binding("escape", "app.pop_screen", "Back")]

    def open(self, entry: str) -> None:
        if entry == "sglomni":
            self.app.push_screen(ConfigureScreen())
        else:
            self.app.pop_screen()


def plan_diff(installed: set[str], checked: set[str]) -> tuple[list[str], list[str]]:
    """Return (removals, installs) in catalog order: unchecked installed models, checked missing ones."""
    order = manage.model_keys()
    return ([k for k in order if k in installed - checked], [k for k in order if k in checked - installed])


class ModelTree(Tree):
    """The checkbox tree: Space checks/unchecks instead of folding."""

    BINDINGS = [Binding("space", "screen.toggle", "Check/uncheck")]


class ConfigureScreen(Screen):
    """Check models to install, uncheck to remove; Apply runs the diff as one task."""

    BINDINGS = [Binding("a", "apply", "Apply"),
                Binding("c", "cancel_task", "Cancel task"), Binding("escape", "back", "Back")]

    def __init__(self) -> None:
        super().__init__()
        self.installed: set[str] = set()
        self.checked: set[str] = set()
        self.cancel_event = threading.Event()
        self.running = False
        #: False until the worker has read the disk (the HF cache scan stays off the UI thread).
        self.scanned = False
        #: What to do once the disk is read (the task view's "On disk now" line after Apply).
        self._after_scan: Any = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            yield Static("SGLang-Omni models — Space checks/unchecks, A applies. Checked = installed after Apply.",
                         classes="heading")
            tree: Tree[str | None] = ModelTree("SGLang-Omni models", id="models")
            tree.show_root = False
            yield tree
            yield Static("", id="system")
            with Horizontal(classes="buttons"):
                yield Button("Apply", variant="primary", id="apply")
                yield Button("Cancel task", id="cancel-task", disabled=True)
                yield Button("Back", id="back")
            yield RichLog(id="task", wrap=True, markup=False, max_lines=500)
        yield Footer()

    def on_mount(self) -> None:
        self.reload()
        self.query_one(Tree).focus()

    # -- the tree --------------------------------------------------------------------------

    def reload(self) -> None:
        """Re-read what is on disk (in a worker) and rebuild the tree with installed models checked."""
        self.scanned = False
        self.scan_disk()

    @work(thread=True, exclusive=True, group="configure-scan")
    def scan_disk(self) -> None:
        """Scan the HF cache once, off the UI thread, then show the tree."""
        installed = manage.installed_models()
        ui(self.app, self._show_tree, installed)

    def _show_tree(self, installed: set[str]) -> None:
        if not self.is_mounted:
            return  # closed while the cache was scanned
        self.installed = installed
        self.checked = set(installed)
        self.scanned = True
        tree = self.query_one(Tree)
        tree.clear()
        groups: dict[str, Any] = {}
        for key in manage.model_keys():
            org = manage.model_spec(key).org
            if org not in groups:
                groups[org] = tree.root.add(Text(org), data=None, expand=True)
            groups[org].add_leaf(self._label(key), data=key)
        self._show_system()
        if self._after_scan is not None:
            self._after_scan()
            self._after_scan = None

    def _label(self, key: str) -> Text:
        spec = manage.model_spec(key)
        mark = "[x]" if key in self.checked else "[ ]"
        note = "  (installed)" if key in self.installed else ""
        return Text(f"{mark} {spec.label}  {key}{note}")

    def _refresh_labels(self) -> None:
        for node in self.query_one(Tree).root.children:
            for leaf in node.children:
                leaf.set_label(self._label(leaf.data))
        self._show_system()

    def _show_system(self) -> None:
        rows = manage.missing_system(sorted(self.checked))
        text = "\n".join(rows)
        self.query_one("#system", Static).update(Text("Missing system packages:\n" + text) if rows else "")

    def action_toggle(self) -> None:
        if self.running or not self.scanned:
            return
        node = self.query_one(Tree).cursor_node
        if node is None:
            return
        keys = [node.data] if node.data else [leaf.data for leaf in node.children]
        on = not all(k in self.checked for k in keys)
        for key in keys:
            (self.checked.add if on else self.checked.discard)(key)
        self._refresh_labels()

    def on_tree_node_selected(self, event: Tree.NodeSelected) -> None:
        if event.node.data:
            self.action_toggle()

    # -- apply -----------------------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        {"apply": self.action_apply, "cancel-task": self.action_cancel_task, "back": self.action_back}[
            str(event.button.id)]()

    def action_back(self) -> None:
        if self.running:
            self.notify("A task is running; cancel it first (C).", severity="warning")
            return
        self.app.pop_screen()

    def action_cancel_task(self) -> None:
        if self.running:
            self.cancel_event.set()
            self.query_one("#task", RichLog).write("Cancelling… (downloads resume where they stopped next time)")

    def action_apply(self) -> None:
        if self.running or not self.scanned:
            return
        removals, installs = plan_diff(self.installed, self.checked)
        if not removals and not installs:
            self.notify("Nothing to change.")
            return
        self.running = True
        self.cancel_event = threading.Event()
        self.query_one("#cancel-task", Button).disabled = False
        self.query_one("#apply", Button).disabled = True
        self.app.begin_task("configure", self.cancel_event.set)
        self.run_diff(removals, installs)

    def _log(self, line: str) -> None:
        ui(self.app, self.query_one("#task", RichLog).write, line)

    @work(thread=True, exclusive=True, group="configure")
    def run_diff(self, removals: list[str], installs: list[str]) -> None:
        """Remove (each after a confirm) first, then install with progress; then re-read the disk."""
        try:
            for key in removals:
                if self.cancel_event.is_set():
                    raise Cancelled("Cancelled")
                ok = ask_from_thread(self.app, ConfirmModal(
                    f"Remove {manage.model_spec(key).label} ({key})? Its downloaded weights are deleted; a managed "
                    f"server hosting it is stopped first.", yes="Remove", no="Keep"), self.cancel_event)
                if not ok:
                    self._log(f"kept {key}")
                    continue
                self._log(f"removing {key} …")
                manage.remove_models([key], log=self._log)
                self._log(f"removed {key}")
            if installs:
                self._log(f"installing {', '.join(installs)} …")
                manage.install_models(installs, progress=self._progress, cancel_event=self.cancel_event)
                if self.cancel_event.is_set():
                    raise Cancelled("Cancelled")
                self._log("installs finished")
        except Cancelled:
            self._log("Stopped. Run Apply again to resume the downloads.")
        except AudiobookError as exc:
            self._log(f"error: {exc.one_line()}")
        except Exception as exc:  # the task view must survive a bug in one step
            self._log(f"error: unexpected {type(exc).__name__}: {exc}")
        finally:
            ui(self.app, self._finished)

    def _progress(self, line: str) -> None:
        """Show a progress line from models.install."""
        self._log(str(line))

    def _finished(self) -> None:
        self.running = False
        self.app.end_task("configure")
        self.query_one("#cancel-task", Button).disabled = True
        self.query_one("#apply", Button).disabled = False
        self._after_scan = lambda: self.query_one("#task", RichLog).write(
            f"On disk now: {', '.join(sorted(self.installed)) or 'no models'}")
        self.reload()
