"""The arrows of ARCHITECTURE.md, checked on the import graph."""
from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"
#: Not the project's code: the managed sglang-omni venv (app/envs/ by default) holds
#: pip, setuptools and torch once `backends sglomni setup` has run.
_NOT_OURS = (APP / "envs",)


def _our_files(folder: Path):
    """Every .py file of the project's own code under folder."""
    return (p for p in folder.rglob("*.py") if not any(p.is_relative_to(x) for x in _NOT_OURS))


def _imports(folder: Path) -> dict[Path, set[str]]:
    found = {}
    for path in _our_files(folder):
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                # `from app.backends.sglomni import catalog` uses app.backends.sglomni.catalog.
                names.add(node.module)
                names |= {f"{node.module}.{a.name}" for a in node.names}
        found[path] = names
    return found


def _offenders(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    return [f"{p.relative_to(APP)} imports {name}"
            for p, names in _imports(APP / folder).items()
            for name in names if name.startswith(forbidden)]


def test_backends_use_nothing_above_them():
    assert _offenders("backends", ("app.pipeline", "app.cli", "app.hub", "app.convert", "app.progress")) == []


def test_backends_never_read_settings():
    """Backends get their options resolved (app.options); the settings file is not theirs to read."""
    assert _offenders("backends", ("app.core.settings",)) == []


#: The one door into sglomni for both faces, and the package itself (an empty __init__).
SGLOMNI_DOOR = {"app.backends.sglomni", "app.backends.sglomni.manage"}


def _past_the_door(paths: list[Path], root: Path = APP) -> list[str]:
    imports = {p: names for folder in {p.parent for p in paths} for p, names in _imports(folder).items()}
    return [f"{p.relative_to(root)} imports {name}" for p in paths for name in sorted(imports.get(p, ()))
            if name.startswith("app.backends.sglomni") and name not in SGLOMNI_DOOR
            and not name.startswith("app.backends.sglomni.manage.")]


def test_hub_and_cli_reach_sglomni_only_through_manage():
    faces = sorted((APP / "hub").glob("*.py")) + sorted((APP / "cli").glob("*.py"))
    assert (APP / "cli" / "entry.py") in faces and (APP / "hub" / "servers.py") in faces
    assert _past_the_door(faces) == []
    assert "import" not in (APP / "backends" / "sglomni" / "__init__.py").read_text(), "keep the package empty"


def test_the_door_check_sees_an_import_past_it(tmp_path):
    """The check itself: a face importing sglomni's catalog or server is reported; manage is not."""
    face = tmp_path / "hub" / "face.py"
    face.parent.mkdir()
    face.write_text("from app.backends.sglomni import catalog, manage\nimport app.backends.sglomni.server\n"
                    "from app.backends.sglomni.manage import ServerState\n")
    assert _past_the_door([face], tmp_path) == ["hub/face.py imports app.backends.sglomni.catalog",
                                                "hub/face.py imports app.backends.sglomni.server"]


def test_no_module_is_over_400_lines():
    long = {p.relative_to(APP).as_posix(): n for p in _our_files(APP)
            if (n := len(p.read_text().splitlines())) > 400}
    assert long == {}, long


def test_book_and_audio_know_no_backend_or_pipeline():
    assert _offenders("book", ("app.backends", "app.pipeline", "app.audio")) == []
    assert _offenders("audio", ("app.backends", "app.pipeline")) == []


def test_only_proc_starts_subprocesses():
    starters = ("subprocess.run(", "subprocess.Popen(", "subprocess.call(", "subprocess.check_",
                "os.system(", "os.popen(", "os.spawn", "os.exec", "create_subprocess_")
    users = sorted(p.relative_to(APP).as_posix() for p in _our_files(APP)
                   if any(s in p.read_text() for s in starters))
    assert users == ["core/proc.py"], users


def test_only_the_http_door_imports_httpx():
    users = sorted(p.relative_to(APP).as_posix() for p, names in _imports(APP).items()
                   if any(n == "httpx" or n.startswith("httpx.") for n in names))
    assert users == ["core/http.py"], users


def test_no_shell_true_and_no_unsafe_yaml():
    for path in _our_files(APP):
        text = path.read_text()
        assert "shell=True" not in text, path
        assert "yaml.load(" not in text, path


def test_the_pipeline_reads_backend_capabilities_from_the_interface():
    """What the pipeline asks of a backend is declared on app/backends/base.py, never probed with getattr."""
    probed = []
    for path in _our_files(APP / "pipeline"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("getattr", "hasattr") \
                    and "backend" in ast.unparse(node.args[0]):
                probed.append(f"{path.relative_to(APP)}:{node.lineno} {ast.unparse(node)}")
    assert probed == []


def test_product_code_imports_no_test_tool():
    tools = ("pytest", "hypothesis", "selenium", "pyte", "mutagen", "tests")
    assert [f"{p.relative_to(APP)} imports {n}" for p, names in _imports(APP).items()
            for n in names if n.split(".")[0] in tools] == []
