"""Isolate every test from the user's real settings, caches and network config."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

# The README's test command (scripts/test.sh) runs the property tests on fixed draws, so CI runs the same
# examples each time and a submission does not fail on a draw no change of its made; a developer's own
# `pytest` draws anew each run (the default profile) and so goes on finding what is left.
hypothesis_settings.register_profile("repeatable", derandomize=True, database=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

ROOT = Path(__file__).resolve().parent.parent

#: Variables a test must never inherit from the developer's shell.
_SCRUBBED = ("AUDIOBOOK_SETTINGS", "AUDIOBOOK_CACHE", "AUDIOBOOK_LOGS", "AUDIOBOOK_ENVS",
             "AUDIOBOOK_VOICES", "AUDIOBOOK_DEBUG", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN",
             "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch):
    """Point the app home, HF cache and XDG dirs at a fresh temp folder."""
    home = tmp_path_factory.mktemp("home")
    for var in _SCRUBBED:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("AUDIOBOOK_HOME", str(home))
    monkeypatch.setenv("HF_HOME", str(home / "hf"))
    # HF_HUB_CACHE (and the older TRANSFORMERS_CACHE) win over HF_HOME: a developer's own
    # setting must not let a test read or fill the real Hugging Face cache. Removed rather
    # than set, so a test (or a subprocess) that passes its own HF_HOME gets HF_HOME/hub.
    for var in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "TRANSFORMERS_CACHE", "HF_HUB_OFFLINE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg-config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "xdg-cache"))
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    return home


@pytest.fixture
def app_python() -> str:
    """Return the interpreter that runs the app (the one running the tests)."""
    return sys.executable


@pytest.fixture
def run_cli(app_python):
    """Run `audiobook.py ARGS` as a real subprocess and return the CompletedProcess."""
    import subprocess

    def _run(*args: str, timeout: float = 300, env: dict | None = None, input: str | None = None):
        full_env = dict(os.environ)
        full_env.update(env or {})
        return subprocess.run([app_python, str(ROOT / "audiobook.py"), *map(str, args)],
                              capture_output=True, text=True, timeout=timeout, env=full_env,
                              input=input, cwd=ROOT)

    return _run


# -- skips: reported with their reason, and never hiding a missing install step under CI -------------

#: Skip reasons that name a setup step: on CI the setup scripts have run, so such a skip means a
#: step is missing from them, and it fails instead of hiding.
_INSTALL_STEPS = ("scripts/system-deps.sh", "scripts/setup.sh", "tests/conformance/env.sh")


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not report.skipped or not os.environ.get("CI") or hasattr(report, "wasxfail"):
        return
    reason = _skip_reason(report)
    if any(step in reason for step in _INSTALL_STEPS):
        report.outcome = "failed"
        report.longrepr = (f"skipped on CI for a tool the setup scripts should have installed: {reason} "
                           "(add it to the setup scripts, or make the skip say why it cannot be installed)")


def pytest_terminal_summary(terminalreporter):
    """List every skip with its reason, grouped, at the end of the run (and into AUDIOBOOK_SKIP_REPORT,
    which scripts/test.sh prints once after both tiers)."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = _skip_reason(report)
        reasons[reason] = reasons.get(reason, 0) + 1
    out = os.environ.get("AUDIOBOOK_SKIP_REPORT")
    if out:
        with open(out, "a", encoding="utf-8") as fh:
            fh.writelines(f"{n}\t{reason}\n" for reason, n in reasons.items())
    if reasons:
        terminalreporter.section(f"skipped tests: {sum(reasons.values())}, by reason")
        for reason, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
            terminalreporter.write_line(f"{n:4d}  {reason}")
