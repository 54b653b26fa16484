"""Make the real sglang-omni 0.1.9 importable on a CPU-only machine without triton.

Runs inside the conformance venv only. `sglang` (imported unconditionally by
sglang-omni's serve modules) does `import triton` at module level; triton is a
~1 GB wheel that nothing on the HTTP path ever calls on a CPU. Upstream ships
a stub for exactly this case (Apple Silicon, where triton does not exist):
`sglang._platform_stubs`. Its installer only fires on darwin/arm64 and also
patches torch.mps, so this module builds the same triton stub from upstream's
own pieces and nothing else.
"""
from __future__ import annotations

import importlib.util
import sys


def install_triton_stub() -> bool:
    """Register upstream's triton stub unless a real triton is importable; return True if stubbed."""
    if "triton" in sys.modules or importlib.util.find_spec("triton") is not None:
        return False
    # Import the helpers without importing `sglang` itself: its __init__ is what needs triton.
    spec = importlib.util.find_spec("sglang")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("sglang is not installed in this environment")
    path = next(iter(spec.submodule_search_locations)) + "/_platform_stubs.py"
    loader_spec = importlib.util.spec_from_file_location("_sgo_platform_stubs", path)
    stubs = importlib.util.module_from_spec(loader_spec)
    sys.modules[loader_spec.name] = stubs  # its dataclasses look their module up here
    loader_spec.loader.exec_module(stubs)

    sys.meta_path.insert(0, stubs._TritonFinder())
    make = stubs._make_mock
    triton = make("triton")
    triton.__version__ = "3.0.0"
    triton.cdiv = stubs._cdiv
    triton.next_power_of_2 = stubs._next_power_of_2
    triton.Config = stubs._Config

    class _Constexpr:
        def __init__(self, value=None):
            self.value = value

    tl = make("triton.language")
    tl.constexpr = _Constexpr
    triton.language = tl
    extra = make("triton.language.extra")
    tl.extra = extra
    extra.libdevice = make("triton.language.extra.libdevice")

    runtime = make("triton.runtime")
    triton.runtime = runtime
    jit = make("triton.runtime.jit")
    jit.JITFunction = type("JITFunction", (), {})
    jit.KernelInterface = type("KernelInterface", (stubs._StubBase,), {})
    runtime.jit = jit
    cache = make("triton.runtime.cache")
    cache.triton_key = stubs._triton_key
    runtime.cache = cache
    autotuner = make("triton.runtime.autotuner")
    # torch's Inductor imports these as exception classes, not modules.
    autotuner.OutOfResources = type("OutOfResources", (Exception,), {})
    autotuner.PTXASError = type("PTXASError", (Exception,), {})
    runtime.autotuner = autotuner
    runtime.driver = make("triton.runtime.driver")

    compiler_root = make("triton.compiler")
    compiler_root.CompiledKernel = type("CompiledKernel", (stubs._StubBase,), {})
    compiler_impl = make("triton.compiler.compiler")
    compiler_impl.ASTSource = type("ASTSource", (stubs._StubBase,), {})
    compiler_impl.triton_key = stubs._triton_key
    compiler_root.compiler = compiler_impl
    triton.compiler = compiler_root

    triton.testing = make("triton.testing")
    tools = make("triton.tools")
    triton.tools = tools
    tools.tensor_descriptor = make("triton.tools.tensor_descriptor")
    backends = make("triton.backends")
    triton.backends = backends
    backend_compiler = make("triton.backends.compiler")
    backend_compiler.GPUTarget = type("GPUTarget", (stubs._StubBase,), {})
    backends.compiler = backend_compiler
    return True


def boot() -> None:
    """Prepare the interpreter for importing sglang_omni on a CPU."""
    install_triton_stub()
