"""`backends sglomni status`: the CLI twin of the hub's Configure and Servers screens, remote server included."""
from __future__ import annotations

from app.core import settings as settings_mod
from app.core.settings import Settings, SglomniSettings

from .conftest import free_port


def test_status_shows_the_remote_server_and_what_it_hosts(run_cli, external_double):
    url = external_double("moss_tts_local")
    settings_mod.save(Settings(sglomni=SglomniSettings(remote_url=url)))
    result = run_cli("backends", "sglomni", "status", timeout=60)
    assert result.returncode == 0, result.stderr
    assert f"Remote server {url}: healthy, hosts moss_tts_local (from settings.toml)" in result.stdout
    assert "venv: not provisioned" in result.stdout
    assert "server: none started by this tool" in result.stdout


def test_status_says_when_the_remote_server_does_not_answer(run_cli):
    url = f"http://127.0.0.1:{free_port()}"
    settings_mod.save(Settings(sglomni=SglomniSettings(remote_url=url)))
    result = run_cli("backends", "sglomni", "status", timeout=60)
    assert result.returncode == 0, result.stderr
    assert f"Remote server {url}: not answering" in result.stdout
