"""models.py downloading for real over HTTP from a fake Hub process on 127.0.0.1."""
from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path

import pytest

from app.core import proc
from app.backends.sglomni import catalog, models
from app.core.errors import Cancelled, ProvisionError
from tests.support import processes_running_from

HUB = Path(__file__).with_name("fake_hub.py")
BIG = "x" * 60_000  # 59 chunks x 50 ms: ~3 s when slow


def _repos(*keys):
    files = {"config.json": '{"architectures": ["X"]}', "model.safetensors": BIG}
    return {r: {"files": files} for k in keys for r in catalog.get(k).all_repos}


@pytest.fixture
def hub(tmp_path, monkeypatch):
    def start(spec):
        spec_file = tmp_path / f"hub-{len(procs)}.json"
        spec_file.write_text(json.dumps(spec))
        port_file = tmp_path / f"port-{len(procs)}"
        p = proc.spawn([sys.executable, HUB, spec_file, port_file])
        procs.append(p)
        deadline = time.monotonic() + 10
        while not port_file.exists():
            assert p.poll() is None and time.monotonic() < deadline, "fake hub did not start"
            time.sleep(0.05)
        monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port_file.read_text()}")
        return Path(str(spec_file) + ".log")

    procs: list = []
    yield start
    for p in procs:
        p.terminate()
        p.wait(5)


def test_install_then_installed_then_remove(hub, tmp_path):
    log = hub({"repos": _repos("moss_tts_local", "moss_tts")})
    assert models.installed() == set()
    lines: list[str] = []
    assert models.install(["moss_tts_local"], progress=lines.append, companions=False) == ["moss_tts_local"]
    assert "moss_tts_local" in models.installed()
    snap = next((tmp_path / "hf" / "hub").glob("models--OpenMOSS-Team--MOSS-TTS-Local-Transformer-v1.5/snapshots/*"))
    assert (snap / "model.safetensors").read_text() == BIG
    requests = log.read_text()
    assert "/api/models/OpenMOSS-Team/MOSS-Audio-Tokenizer-v2/revision/main" in requests
    assert "HF_TOKEN" not in "\n".join(lines)
    st = {s.key: s for s in models.status()}
    assert st["moss_tts_local"].installed and st["moss_tts_local"].size_bytes >= 2 * len(BIG)
    assert st["moss_tts"].missing_repos == ("OpenMOSS-Team/MOSS-TTS", "OpenMOSS-Team/MOSS-Audio-Tokenizer")
    assert any(r.startswith("* moss_tts_local ") for r in models.list_rows())

    order: list[str] = []

    def stop_server(key):
        order.append(f"stop {key}")
        assert "moss_tts_local" in models.installed(), "stop must come before deletion"

    removed = models.remove(["moss_tts_local"], stop_server=stop_server, progress=order.append)
    assert order[0] == "stop moss_tts_local" and order[1].startswith("Deleting")
    assert removed == ["OpenMOSS-Team/MOSS-Audio-Tokenizer-v2", "OpenMOSS-Team/MOSS-TTS-Local-Transformer-v1.5"]
    assert models.installed() == set()
    assert not list((tmp_path / "hf" / "hub").glob("models--OpenMOSS-Team--MOSS-TTS-Local*"))


def test_cancel_ends_the_download_process_and_a_later_install_resumes_the_partial_file(hub, tmp_path):
    # huggingface_hub writes a download in 10 MiB pieces: the hub double sends 12 MiB of the 24 and then
    # holds the transfer (a pause point, not a race), so the first piece is on disk when the test cancels.
    shard = "y" * (24 * 1024 * 1024)
    files = {"config.json": '{"architectures": ["X"]}', "model.safetensors": shard}
    spec = {"repos": {r: {"files": files} for r in catalog.get("voxtral_tts").all_repos},
            "slow": ["model.safetensors"], "slow_chunk": 1024 * 1024, "slow_pause": 0.02,
            "stall_after": 12 * 1024 * 1024}
    log = hub(spec)
    cache = tmp_path / "hf" / "hub"
    repo_dir = cache / "models--mistralai--Voxtral-4B-TTS-2603"
    cancel = threading.Event()
    seen: list[list[int]] = []

    def cancel_once_bytes_arrive():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            partial = list(repo_dir.glob("blobs/*.incomplete"))
            if partial and partial[0].stat().st_size > 0:
                seen.append(processes_running_from(cache))  # the hf download child, mid-transfer
                break
            time.sleep(0.05)
        cancel.set()

    threading.Thread(target=cancel_once_bytes_arrive, daemon=True).start()
    with pytest.raises(Cancelled):
        models.install(["voxtral_tts"], cancel_event=cancel, progress=lambda _: None, companions=False)
    assert seen and seen[0], "a child process was downloading"
    assert all(not Path(f"/proc/{pid}").exists() or _zombie(pid) for pid in seen[0]), "the child was ended"
    assert processes_running_from(cache) == []
    (partial,) = repo_dir.glob("blobs/*.incomplete")
    size = partial.stat().st_size
    time.sleep(0.5)
    assert partial.stat().st_size == size < len(shard), "the transfer stopped with the process"
    assert "voxtral_tts" not in models.installed()
    assert list(repo_dir.glob("snapshots/*/model.safetensors")) == [], "no unfinished file in a snapshot"

    models.install(["voxtral_tts"], progress=lambda _: None, companions=False)
    assert "voxtral_tts" in models.installed()
    (done,) = repo_dir.glob("snapshots/*/model.safetensors")
    assert done.read_text() == shard
    assert not list(repo_dir.glob("blobs/*.incomplete"))
    resumed = [line for line in log.read_text().splitlines() if "model.safetensors" in line and "Range: bytes=" in line]
    assert resumed and int(resumed[-1].split("bytes=")[1].split("-")[0]) >= size > 0, "resumed, not restarted"


def _zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat[stat.rindex(")") + 2] == "Z"


def test_a_failed_download_quotes_the_hubs_answer(hub):
    hub({"repos": {}})
    with pytest.raises(ProvisionError) as err:
        models.install(["voxtral_tts"], progress=lambda _: None, companions=False)
    assert "mistralai/Voxtral-4B-TTS-2603" in err.value.message and err.value.log_path.is_file()
    assert "404" in err.value.message or "not found" in err.value.message.lower()


def test_missing_system_package_warns_but_downloads(hub, monkeypatch):
    hub({"repos": _repos("fish_s2_pro")})
    monkeypatch.setattr(models.shutil, "which", lambda name, *a, **k: None)
    lines: list[str] = []
    models.install(["fish_s2_pro"], progress=lines.append, companions=False)
    assert any("ffmpeg not found" in l and "apt install ffmpeg" in l for l in lines)
    assert "fish_s2_pro" in models.installed()
    assert any("ffmpeg not found" in r for r in models.status_rows() if r.startswith("fish_s2_pro"))
