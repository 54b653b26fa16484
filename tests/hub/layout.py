"""Checks that a hub screen fits a small terminal: widgets wholly in view, fields reached by Tab."""
from __future__ import annotations

from textual.geometry import Region
from textual.widget import Widget

from tests.hub.conftest import screen_text

SIZE = (80, 24)
SCREEN = Region(0, 0, *SIZE)


def assert_in_view(widget: Widget) -> None:
    """The whole widget (border included) lies inside the 80x24 screen: nothing of it is cut off."""
    region = widget.region
    assert region.area > 0, f"{widget!r} is not shown at 80x24"
    assert SCREEN.contains_region(region), f"{widget!r} at {region} runs past the 80x24 screen"


async def tab_through(pilot, ids: list[str], limit: int = 40) -> None:
    """Press Tab until each of `ids` has had the focus, each one in full view when it has it."""
    seen: set[str] = set()
    for _ in range(limit):
        focused = pilot.app.focused
        if focused is not None and focused.id in ids:
            assert_in_view(focused)
            seen.add(focused.id)
        if seen == set(ids):
            return
        await pilot.press("tab")
    raise AssertionError(f"Tab never reached {sorted(set(ids) - seen)}; screen:\n{screen_text(pilot.app)}")
