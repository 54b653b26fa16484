"""`python audiobook.py backends sglomni ...`: the command-line face of manage.py.

It lives beside app/cli/entry.py, not inside the backend: it reads settings (through
app.options) and prints, which a backend never does. Every hub view of sglomni
has its command here (the Servers screen's local and remote status is `status`).
"""
from __future__ import annotations

import argparse
import sys

from app import options as options_mod
from app.core import settings as settings_mod
from app.backends.sglomni import manage
from app.core.plural import plural
from app.cli.suggest import SuggestingParser
from app.core.urls import display_url


def _parser() -> argparse.ArgumentParser:
    p = SuggestingParser(prog="audiobook.py backends sglomni",
                         description="Manage the SGLang-Omni backend: venv, models, servers.")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="the model catalog; * marks installed models")
    sub.add_parser("status", help="venv, GPU, installed models, managed servers and the remote server")
    sub.add_parser("setup", help="provision the managed venv (app/envs/sglomni)")
    inst = sub.add_parser("install", help="install models: companion packages, then weights")
    inst.add_argument("keys", nargs="+", metavar="KEY")
    rem = sub.add_parser("remove", help="remove models' cached weights (stopping a server hosting one)")
    rem.add_argument("keys", nargs="+", metavar="KEY")
    start = sub.add_parser("start", help="start a managed server for a model and leave it running")
    start.add_argument("key", metavar="KEY")
    start.add_argument("--port", type=int)
    start.add_argument("--host")
    start.add_argument("--profile", help="e.g. throughput (moss_tts_local)")
    stop = sub.add_parser("stop", help="stop managed servers (all, or the one on --port)")
    stop.add_argument("--port", type=int)
    voices = sub.add_parser("voices", help="list the voices a server offers")
    voices.add_argument("--api-url")
    return p


def _say(line: str) -> None:
    print(line, flush=True)


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    conf = settings_mod.load()
    if args.command == "list":
        for row in manage.catalog_rows():
            print(row)
    elif args.command == "status":
        print_status(conf)
    elif args.command == "setup":
        if not manage.gpu_ok():
            print("WARNING: nvidia-smi does not answer. SGLang-Omni serves TTS on NVIDIA GPUs only; "
                  "the venv installs, but a server will not start here.", file=sys.stderr)
        python = manage.provision_venv(log=_say)
        print(f"ready: {python}")
    elif args.command == "install":
        for key in args.keys:
            manage.model_spec(key)  # validate every key before downloading anything
        for line in manage.missing_system(args.keys):
            print(line, file=sys.stderr)
        done = manage.install_models(args.keys, progress=_say)
        print(f"installed: {', '.join(done)}")
    elif args.command == "remove":
        for key in args.keys:
            manage.model_spec(key)
        removed = manage.remove_models(args.keys, log=_say)
        print(f"removed: {', '.join(removed) or 'nothing was cached'}")
    elif args.command == "start":
        options = options_mod.server_options(conf, port=args.port, host=args.host, profile=args.profile,
                                             use_remote=False)
        server = manage.prepare_server(args.key, options, log=_say)
        server.start()
        print(f"ready: {server.label} at {display_url(server.base_url)} (stop it with: python audiobook.py backends sglomni stop)")
    elif args.command == "stop":
        stopped = manage.stop_server(args.port)
        print(f"stopped {plural(len(stopped), 'server')}" if stopped else "no managed server was running")
    elif args.command == "voices":
        options = options_mod.server_options(conf, api_urls=(args.api_url,) if args.api_url else ())
        for name in manage.server_voices(manage.server_url(options)):
            print(name)
    return 0


def print_status(conf: settings_mod.Settings) -> None:
    """Print what the hub's Configure and Servers screens show: venv, GPU, models, servers."""
    print(f"venv: {'ready' if manage.venv_provisioned() else 'not provisioned'} ({manage.venv_dir()})")
    print(f"GPU: {'nvidia-smi answers' if manage.gpu_ok() else 'nvidia-smi does not answer (no NVIDIA GPU?)'}")
    for row in manage.model_status_rows():
        print(row)
    servers = manage.server_status()
    for st in servers:
        print(f"server: {st['label']} on port {st['port']}: {st['state']} (log: {st['log_path']})")
    if not servers:
        print("server: none started by this tool")
    options = options_mod.server_options(conf)
    if options.api_urls:
        print(manage.remote_status(options.api_urls[0]).line() + f" (from {options.source('api_urls')})")


def print_voices(api_urls: tuple[str, ...] = ()) -> int:
    """Print the voices of the server a conversion would use (--list-voices)."""
    options = options_mod.server_options(settings_mod.load(), api_urls=api_urls[:1])
    url = manage.server_url(options)
    names = manage.server_voices(url)
    if not names:
        print(f"No voices listed at {display_url(url)} (is a server running there?)", file=sys.stderr)
        return 1
    for name in names:
        print(name)
    return 0
