"""The arrows of ARCHITECTURE.md, checked on the import graph."""
from __future__ import annotations

import ast
import functools
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


# --- the import graph: no cycle, no import inside a function that only dodges one ---------------------

def _module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """Nodes under `if TYPE_CHECKING:` (annotations only: never run)."""
    return {id(x) for n in ast.walk(tree) if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test)
            for b in n.body for x in ast.walk(b)}


def _function_nodes(tree: ast.AST) -> set[int]:
    return {id(x) for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            for x in ast.walk(n) if x is not n}


@functools.cache
def import_graph(root: Path = APP) -> tuple[dict[str, set[str]], list[tuple[str, int, str]]]:
    """Return module -> app modules it imports (anywhere but under TYPE_CHECKING), and the function-level ones."""
    files = {_module_name(p): p for p in _our_files(root)}

    def resolve(module: str, name: str | None = None) -> str | None:
        if name and f"{module}.{name}" in files:
            return f"{module}.{name}"
        return module if module in files else None

    graph, in_functions = {}, []
    for module, path in files.items():
        tree = ast.parse(path.read_text())
        typing_only, in_function = _type_checking_nodes(tree), _function_nodes(tree)
        edges = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = {resolve(a.name) for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                targets = {resolve(node.module, a.name) for a in node.names}
            else:
                continue
            targets -= {None, module}
            if not targets or id(node) in typing_only:
                continue
            edges |= targets
            if id(node) in in_function:
                in_functions += [(module, node.lineno, t) for t in sorted(targets)]
        graph[module] = edges
    return graph, in_functions


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected groups of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle():
    graph, _ = import_graph()
    assert len(graph) > 150  # the walk saw the app
    assert cycles(graph) == []


def test_the_cycle_check_sees_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


#: Imports of app modules inside functions, and why each stays there. Each keeps a heavy third-party
#: package (or a whole room) out of a process that does not need it; none dodges a cycle (the graph above
#: counts them, and has none). Keyed by (importing module, imported module).
LAZY_IMPORTS = {
    # the front door loads only the room of the command asked for: `--help` and a Piper run load no
    # Textual, no httpx, no sglomni (tests/pipeline/test_run_imports.py)
    **{("app.cli.entry", m): "one subcommand's room, loaded when that command runs" for m in (
        "app.convert", "app.progress", "app.core.settings", "app.cli.sglomni", "app.hub.app", "app.hub.web",
        "app.cli.cache", "app.preview", "app.cli.queue", "app.castview", "app.backends.piper.voices", "app.request")},
    ("app.convert", "app.backends.sglomni.asr"): "a server's listener: no sglomni in a Piper run",
    ("app.convert", "app.backends.sglomni.catalog"): "a managed listener: no sglomni in a Piper run",
    ("app.cast.llm", "app.core.http"): "httpx only when a language model is asked",
    ("app.cast.llm", "app.core.errors"): "beside the HTTP door it explains",
    ("app.backends.sglomni.manage", "app.backends.sglomni.client"): "httpx only when a server is asked",
    ("app.backends.sglomni.manage", "app.core.http"): "httpx only when a server is asked",
    ("app.backends.sglomni.manage", "app.core.errors"): "beside the HTTP door it explains",
    ("app.backends.sglomni.client", "app.listen.clip"): "faster-whisper only for a clip without a transcript",
    ("app.backends.piper.backend", "app.backends.piper.compiled"): "onnx only when a voice is compiled",
    ("app.backends.piper.compiled", "app.backends.piper.graph2d"): "onnx graph rewriting, on a first load",
    ("app.backends.piper.compiled", "app.backends.piper.windowed"): "onnx graph rewriting, on a first load",
    # a cached re-run of a finished book loads no synthesis, numpy or read-along writer (test_run_imports)
    ("app.pipeline.run", "app.pipeline.synthesis"): "no voice runtime or numpy when every chapter is cached",
    ("app.pipeline.progressive", "app.audio.assemble"): "numpy only when a chapter is assembled",
    ("app.pipeline.outputs", "app.output.library"): "each output's writer only when that output is asked",
    ("app.pipeline.outputs", "app.output.readalong"): "each output's writer only when that output is asked",
    ("app.pipeline.outputs", "app.output.timing"): "each output's writer only when that output is asked",
    ("app.pipeline.outpath", "app.output.library"): "the library layout only with --library",
}


def test_imports_inside_functions_are_only_the_lazy_ones():
    _, inside = import_graph()
    unexplained = sorted({f"{m}:{line} imports {t}" for m, line, t in inside if (m, t) not in LAZY_IMPORTS})
    assert unexplained == [], "move these imports to the top, or say in LAZY_IMPORTS why one stays"
    used = {(m, t) for m, _, t in inside}
    assert sorted(set(LAZY_IMPORTS) - used) == [], "entries that no longer apply: remove them"


def test_cast_book_and_listen_import_no_backend():
    for room in ("cast", "book", "listen"):
        assert _offenders(room, ("app.backends",)) == [], room


def test_no_backend_knows_the_cast_the_pipeline_or_a_face():
    assert _offenders("backends", ("app.cast", "app.pipeline", "app.cli", "app.hub")) == []


def test_the_ground_floor_imports_nothing_above_it():
    above = [f"{p.relative_to(APP)} imports {n}" for p, names in _imports(APP / "core").items()
             for n in names if n.startswith("app.") and not n.startswith("app.core")]
    assert above == []


def test_the_root_of_app_holds_at_most_eight_modules():
    modules = sorted(p.name for p in APP.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert len(modules) <= 8, modules


def test_the_readme_layout_names_every_package():
    readme = (APP.parent / "README.md").read_text()
    layout = readme[readme.index("## Layout"):readme.index("## Licence")]
    packages = sorted(p.parent.relative_to(APP.parent).as_posix() for p in _our_files(APP)
                      if p.name == "__init__.py" and p.parent != APP)
    assert [p for p in packages if f"`{p}/`" not in layout] == []
    root_modules = sorted(p.name for p in APP.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert [m for m in root_modules if f"app/{m}" not in layout] == []
