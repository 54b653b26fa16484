"""Build tiny real wheels by hand (a wheel is a zip with a dist-info), for offline pip installs."""
from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def make_wheel(
    dest: Path, name: str, version: str, *, requires_python: str | None = None,
    console_scripts: dict[str, str] | None = None, modules: dict[str, str] | None = None,
    requires: tuple[str, ...] = (),
) -> Path:
    """Write `name-version-py3-none-any.whl` into `dest` and return its path."""
    dist = name.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    if requires_python:
        meta += f"Requires-Python: {requires_python}\n"
    meta += "".join(f"Requires-Dist: {req}\n" for req in requires)
    files: dict[str, bytes] = {f"{path}": src.encode() for path, src in (modules or {}).items()}
    files[f"{info}/METADATA"] = (meta + "\n").encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    if console_scripts:
        lines = "".join(f"{k} = {v}\n" for k, v in console_scripts.items())
        files[f"{info}/entry_points.txt"] = ("[console_scripts]\n" + lines).encode()
    record = [_record_line(n, d) for n, d in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    dest.mkdir(parents=True, exist_ok=True)
    wheel = dest / f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for n, d in files.items():
            zf.writestr(n, d)
    return wheel


def sglang_omni_wheel(dest: Path, *, requires_python: str = ">=3.11,<3.13", requires: tuple[str, ...] = ()) -> Path:
    """Return a stand-in sglang-omni 0.1.9 wheel with an `sgl-omni` console script."""
    return make_wheel(
        dest, "sglang-omni", "0.1.9", requires_python=requires_python, requires=requires,
        console_scripts={"sgl-omni": "sglang_omni_fake.cli:main"},
        modules={
            "sglang_omni_fake/__init__.py": "",
            "sglang_omni_fake/cli.py": "def main():\n    print('sgl-omni 0.1.9 (test double)')\n",
        },
    )
