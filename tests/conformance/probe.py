"""Ask the real sglang-omni 0.1.9 questions the app's tests need answered; print JSON.

Runs inside the conformance venv:
    python probe.py cli                 the `sgl-omni serve` options, read from the typer app
    python probe.py configs FILE...     load each config as `sgl-omni serve --config FILE` does,
                                        then derive what the launcher derives from it
    python probe.py requests FILE       run each {"source", "body"} in FILE (JSON) through the real
                                        request path: CreateSpeechRequest, the speech service's
                                        GenerateRequest, the Client's OmniRequest, then the model's
                                        request-building function named by "source"
"""
from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sgo_boot  # noqa: E402


def serve_options() -> dict:
    """Return the serve command's option strings and which of them take no value."""
    import typer.main
    from sglang_omni.cli import app

    group = typer.main.get_command(app)
    commands = sorted(group.commands)
    serve = group.commands["serve"]
    options, flags = [], []
    for param in serve.params:
        names = list(getattr(param, "opts", [])) + list(getattr(param, "secondary_opts", []))
        options += names
        if getattr(param, "is_flag", False):
            flags += names
    return {"commands": commands, "options": sorted(set(options)), "flags": sorted(set(flags)),
            "allows_extra_args": bool(serve.context_settings.get("allow_extra_args"))}


def load_config(path: str) -> dict:
    """Load `path` through the CLI's own steps and the launcher's derivations; report each stage."""
    from sglang_omni.cli.serve import apply_tensor_parallel_engine_overrides
    from sglang_omni.config.manager import ConfigManager

    report: dict = {"file": path}
    try:
        manager = ConfigManager.from_file(path)
        merged = manager.merge_config(manager.parse_extra_args([]))
        merged = apply_tensor_parallel_engine_overrides(merged)
    except Exception as exc:  # the point is to report it
        report.update(schema_ok=False, error=f"{type(exc).__name__}: {exc}")
        return report
    report.update(schema_ok=True, config_cls=type(merged).__name__, model_path=merged.model_path,
                  stages=[stage.name for stage in merged.stages])
    # What launcher.run_server asks the config before create_app(...). Some of it reads the
    # checkpoint's config.json, which only exists where the weights (or their metadata) are.
    try:
        kwargs = {
            "requires_uploaded_voice_for_named_voice": merged.requires_uploaded_voice_for_named_voice(),
            "supports_uploaded_voice_references": merged.supports_uploaded_voice_references(),
            "custom_voice_config": repr(merged.resolve_custom_voice_config()),
            "required_speech_reference_count": merged.required_speech_reference_count,
            "speech_reference_text_required": merged.speech_reference_text_required,
            "max_speech_input_chars": merged.max_speech_input_chars,
            "supported_speech_fields": sorted(merged.supported_speech_fields)
            if merged.supported_speech_fields is not None else None,
        }
        report.update(launch_ok=True, create_app_kwargs=kwargs)
    except Exception as exc:
        report.update(launch_ok=False, launch_error=f"{type(exc).__name__}: {exc}"[:400],
                      needs_checkpoint=_is_missing_checkpoint(exc))
    return report


def _is_missing_checkpoint(exc: BaseException) -> bool:
    """Return whether `exc` only says the checkpoint's files are not on this machine."""
    while exc is not None:
        name = type(exc).__name__
        if name in ("LocalEntryNotFoundError", "FileNotFoundError", "OfflineModeIsEnabled",
                    "EntryNotFoundError", "RepositoryNotFoundError") or "cannot find the requested files" in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def speech_payload(body: dict):
    """Return the StagePayload the pipeline's first stage receives for /v1/audio/speech `body`."""
    from sglang_omni.client.client import Client
    from sglang_omni.client.types import GenerateRequest
    from sglang_omni.proto.request import StagePayload
    from sglang_omni.serve import speech_service as ss
    from sglang_omni.serve.protocol import CreateSpeechRequest

    request = CreateSpeechRequest(**body)
    # SpeechService.build_generate_request's body, with the reference descriptors a plain
    # request (no uploaded voice) gets: its module functions, called as it calls them.
    generate = GenerateRequest(
        model=request.model, prompt=ss.build_speech_prompt(request, ss.reference_descriptors_from_request(request)),
        sampling=ss.build_sampling_params(request), stage_params=request.stage_params,
        extra_params=ss.build_extra_params(request), stream=request.stream, output_modalities=["audio"],
        metadata={"task": "tts", "tts_params": ss.build_tts_params(request)})
    return StagePayload(request_id="conformance", request=Client.build_omni_request(generate), data=None)


def run_builder(source: str, body: dict) -> dict:
    """Run `body` through the builder `source` ("models/<family>/<file>.py <function>") names."""
    import importlib
    import inspect

    path, _, function = source.partition(" ")
    module_name = "sglang_omni." + path.removesuffix(".py").replace("/", ".")
    report: dict = {"source": source}
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        return {**report, "imported": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    head, _, nested = function.partition(".")
    target = getattr(module, head, None)
    report.update(imported=True, found=target is not None)
    if target is None or nested:
        # A closure inside a stage factory (it needs the checkpoint's tokenizer): only its home is checked.
        return {**report, "ran": False}
    payload = speech_payload(body)
    params = inspect.signature(target).parameters
    try:
        if "tts_params" in params:  # Voxtral's validator takes the request's parts
            request = payload.request
            target(inputs=request.inputs, params=request.params or {},
                   tts_params=(request.metadata or {}).get("tts_params") or {})
        else:
            target(payload)
    except Exception as exc:
        return {**report, "ran": True, "ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    return {**report, "ran": True, "ok": True}


def main(argv: list[str]) -> int:
    logging.disable(logging.WARNING)
    sgo_boot.boot()
    if argv[:1] == ["cli"]:
        print(json.dumps(serve_options()))
    elif argv[:1] == ["configs"]:
        print(json.dumps([load_config(path) for path in argv[1:]]))
    elif argv[:1] == ["requests"]:
        items = json.loads(Path(argv[1]).read_text())
        print(json.dumps([run_builder(item["source"], item["body"]) for item in items]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
