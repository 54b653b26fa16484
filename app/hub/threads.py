"""Helpers for worker threads talking to the UI thread."""
from __future__ import annotations

import threading
from typing import Any, Callable

from textual.app import App
from textual.screen import Screen


def ui(app: App, fn: Callable[..., Any], *args: Any) -> Any:
    """Run `fn(*args)` on the UI thread; do nothing when the app has already gone."""
    try:
        return app.call_from_thread(fn, *args)
    except RuntimeError:  # the app stopped (or this is the UI thread: call directly)
        if threading.current_thread() is threading.main_thread() and app.is_running:
            return fn(*args)
        return None


def ask_from_thread(app: App, screen: Screen, cancel: threading.Event | None = None) -> Any:
    """Show a modal from a worker thread and return its dismiss value (None if cancelled meanwhile)."""
    done = threading.Event()
    box: dict[str, Any] = {}

    def answered(result: Any) -> None:
        box["result"] = result
        done.set()

    ui(app, app.push_screen, screen, answered)
    while not done.wait(0.1):
        if (cancel is not None and cancel.is_set()) or not app.is_running:
            return None
    return box.get("result")
