"""Options resolved once (app/options.py): the face, then settings.toml, then the default, each with its source."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.request import ConvertRequest, build_backend, resolve_options
from app.core.errors import ConfigError, InputError
from app.options import COMMAND_LINE, DEFAULT, HUB_FORM, SETTINGS, server_options
from app.core.settings import Settings, SglomniSettings

BOOK = Path("book.txt")


def conf(**sglomni) -> Settings:
    return Settings(sglomni=SglomniSettings(**sglomni))


@pytest.mark.parametrize("option, setting, value, source", [
    (9001, 8200, 9001, COMMAND_LINE),
    (None, 8200, 8200, SETTINGS),
    (None, None, 8100, DEFAULT),
])
def test_port_comes_from_the_option_then_the_settings_then_the_default(option, setting, value, source):
    settings = conf(port=setting) if setting else conf()
    options = server_options(settings, port=option)
    assert (options.port, options.source("port")) == (value, source)
    assert options.explain("port") == f"--port {value} (from {source})"


def test_the_hub_form_is_named_as_the_source():
    run = resolve_options(ConvertRequest(book=BOOK, model="voxtral_tts", chunk_size=30, face=HUB_FORM),
                          Settings(chunk_size=50, sglomni=SglomniSettings(start_timeout=60.0)))
    assert run.backend == "sglomni" and run.chunk_size == 30
    assert run.sources["chunk_size"] == HUB_FORM and run.sources["model"] == HUB_FORM
    assert run.backend_options.start_timeout == 60.0 and run.backend_options.source("start_timeout") == SETTINGS
    assert run.explain("chunk_size", 30) == "--chunk-size 30 (from hub form)"


def test_the_remote_url_setting_becomes_the_server_only_for_sglomni():
    settings = Settings(sglomni=SglomniSettings(remote_url="http://gpu-box:8100"))
    sglomni = resolve_options(ConvertRequest(book=BOOK), settings)
    assert sglomni.backend == "sglomni" and sglomni.backend_options.api_urls == ("http://gpu-box:8100",)
    assert sglomni.backend_options.source("api_urls") == SETTINGS
    piper = resolve_options(ConvertRequest(book=BOOK, backend="piper"), settings)
    assert piper.backend_options.api_urls == ()
    passed = resolve_options(ConvertRequest(book=BOOK, api_urls=("http://other:9000",)), settings)
    assert passed.backend_options.api_urls == ("http://other:9000",)
    assert passed.backend_options.source("api_urls") == COMMAND_LINE


def test_bad_values_are_one_line_input_or_settings_errors():
    with pytest.raises(InputError, match="--port must be between 1 and 65535"):
        server_options(Settings(), port=70000)
    with pytest.raises(ConfigError):
        resolve_options(ConvertRequest(book=BOOK), Settings(sglomni=SglomniSettings(remote_url="ftp://x")))


def test_the_backend_runs_with_the_settings_it_is_given_not_the_file(tmp_path):
    """The hub passes conf=: the sglomni backend must use it (it used to re-read settings.toml)."""
    given = Settings(model="voxtral_tts", sglomni=SglomniSettings(port=8311, host="127.0.0.1", profile="throughput",
                                                                 start_timeout=42.0))
    backend = build_backend(ConvertRequest(book=BOOK, backend="sglomni"), given)
    assert backend.spec.key == "voxtral_tts"
    assert (backend.options.port, backend.options.start_timeout) == (8311, 42.0)
    assert backend.profile is None, "a settings profile applies only to models that have it"
    assert backend.options.source("port") == SETTINGS


def test_the_backend_default_port_is_the_settings_default():
    from app.backends.sglomni.server import DEFAULT_PORT

    assert DEFAULT_PORT == Settings().sglomni.port


@pytest.mark.parametrize("req_host, setting, named, fix", [
    ("::1", "127.0.0.1", "::1 (from command line)", "Set --host"),
    (None, "::1", "::1 (from settings.toml)", "Set the host setting sglomni.host"),
])
def test_an_ipv6_bind_host_names_where_it_came_from(req_host, setting, named, fix):
    given = Settings(sglomni=SglomniSettings(host=setting))
    with pytest.raises(ConfigError) as err:
        build_backend(ConvertRequest(book=BOOK, model="voxtral_tts", host=req_host), given)
    assert f"cannot bind {named}" in err.value.message and err.value.hint.startswith(fix)
