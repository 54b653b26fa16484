"""Configure SGLang-Omni: the tree shows the disk, Apply removes (confirmed) before installing, then re-reads."""
from __future__ import annotations

import pytest

from app.backends.sglomni import catalog, models
from app.hub.app import HubApp
from app.hub.configure import ConfigureScreen
from app.hub.modals import ConfirmModal
from tests.hub.conftest import fake_download, fake_repo, hub_cache, screen_text, wait_for

pytestmark = pytest.mark.hub


def leaf_line(app, key: str) -> str:
    return next(line for line in screen_text(app).splitlines() if f"  {key}" in line)


async def move_to(pilot, key: str) -> None:
    """Move the tree cursor onto the model `key` (org rows sit between the leaves)."""
    tree = pilot.app.screen.query_one("#models")
    await pilot.press("home")
    for _ in range(40):
        if tree.cursor_node is not None and tree.cursor_node.data == key:
            return
        await pilot.press("down")
    raise AssertionError(f"{key} not found in the tree")


async def test_apply_removes_before_installing_and_rereads_the_disk(monkeypatch):
    fake_download("voxtral_tts")
    fake_download("qwen3_tts_0_6b_customvoice")
    calls: list[tuple[str, object]] = []

    real_remove = models.remove

    def recording_remove(keys, **kw):
        calls.append(("remove", list(keys)))
        return real_remove(keys, **kw)

    def network_download(repo, cancel_event):
        # The only stand-in: the network fetch. The cache entry it leaves is the real layout.
        calls.append(("download", repo))
        fake_repo(repo)

    monkeypatch.setattr(models, "remove", recording_remove)
    monkeypatch.setattr(models, "_download", network_download)

    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("b", "o")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ConfigureScreen)
        await wait_for(pilot, lambda: screen.scanned, what="the disk scan (a worker)")
        assert leaf_line(app, "voxtral_tts").lstrip(" ▼▶├└│─").startswith("[x]")
        assert "[ ] Higgs Audio v3 TTS" in leaf_line(app, "higgs_audio_v3_tts")
        # Uncheck Voxtral and the Qwen model, check Higgs; keep the Qwen one at the confirm.
        for key in ("voxtral_tts", "qwen3_tts_0_6b_customvoice", "higgs_audio_v3_tts"):
            await move_to(pilot, key)
            await pilot.press("space")
        assert "[x] Higgs Audio v3 TTS" in leaf_line(app, "higgs_audio_v3_tts")
        await pilot.press("a")
        # Removals come in catalog order: the Qwen model first (kept), then Voxtral (removed).
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmModal), what="the first confirm")
        assert "qwen3_tts_0_6b_customvoice" in screen_text(app)
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmModal) and "voxtral" in screen_text(app),
                       what="the second confirm")
        await pilot.press("y")
        await wait_for(pilot, lambda: not screen.running and screen.scanned, what="the task and the re-scan")
        assert calls == [("remove", ["voxtral_tts"]), ("download", "bosonai/higgs-audio-v3-tts-4b")]
        assert not (hub_cache() / "models--mistralai--Voxtral-4B-TTS-2603").exists()
        # The tree was rebuilt from the disk: what the user kept or added is checked, the rest is not.
        assert models.installed() == {"qwen3_tts_0_6b_customvoice", "higgs_audio_v3_tts"}
        assert "[x] Higgs Audio v3 TTS" in leaf_line(app, "higgs_audio_v3_tts")
        assert "(installed)" in leaf_line(app, "higgs_audio_v3_tts")
        assert "[ ] Voxtral TTS 4B" in leaf_line(app, "voxtral_tts")
        assert "[x] Qwen3-TTS 0.6B CustomVoice" in leaf_line(app, "qwen3_tts_0_6b_customvoice")


async def test_install_can_be_cancelled_and_an_org_row_toggles_its_models(monkeypatch):
    import threading

    started = threading.Event()

    def slow_download(repo, cancel_event):
        started.set()
        # Real models._download raises Cancelled when the event fires; wait for it the same way.
        while not cancel_event.wait(0.05):
            pass
        from app.core.errors import Cancelled
        raise Cancelled(f"Download of {repo} cancelled")

    monkeypatch.setattr(models, "_download", slow_download)
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("b", "o")
        await pilot.pause()
        screen = app.screen
        await wait_for(pilot, lambda: screen.scanned, what="the disk scan (a worker)")
        tree = screen.query_one("#models")
        await pilot.press("home")
        while tree.cursor_node.data is not None or str(tree.cursor_node.label) != "mistralai":
            await pilot.press("down")
        await pilot.press("space")  # the org row checks every model under it
        assert screen.checked == {"voxtral_tts"}
        await pilot.press("a")
        await wait_for(pilot, started.is_set, what="the download to start")
        assert "configure" in app.tasks
        await pilot.press("c")
        await wait_for(pilot, lambda: not screen.running and screen.scanned, what="the cancel and the re-scan")
        log = "\n".join(line.text for line in screen.query_one("#task").lines)
        assert "Run Apply again to resume" in log
        assert models.installed() == set() and screen.checked == set()
        assert app.tasks == {}


async def test_missing_system_packages_are_shown(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    fake_download("qwen3_tts_0_6b_base")
    app = HubApp(setup_wizard=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("b", "o")
        await wait_for(pilot, lambda: getattr(app.screen, "scanned", False), what="the disk scan (a worker)")
        await pilot.pause()
        text = screen_text(app)
        assert "qwen3_tts_0_6b_base: sox not found" in text
        assert catalog.get("qwen3_tts_0_6b_base").system_packages[0].remediation[:30] in text
