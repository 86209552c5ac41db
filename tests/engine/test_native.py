"""The compiled build (slipstream/_native.py): used when fresh, never when stale, the same races either way."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import slipstream
import slipstream.engine.game
from slipstream import _native

ROOT = Path(__file__).resolve().parents[2]
EXT = importlib.machinery.EXTENSION_SUFFIXES[0]


def fake_build(tmp_path: Path, *, record: bool = True) -> Path:
    """A package directory holding every compiled module's source and a stand-in extension file."""
    sources = {}
    for i, module in enumerate(_native.MODULES):
        src = _native.source_of(module, tmp_path)
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(f"X = {i}\n")
        src.with_suffix(EXT).write_bytes(b"")
        sources[module] = _native.digest(src)
    if record:
        _native.write_record(tmp_path, sources)
    return tmp_path


def test_no_extension_files_is_a_plain_pure_install(tmp_path: Path) -> None:
    for module in _native.MODULES:
        src = _native.source_of(module, tmp_path)
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text("X = 1\n")
    assert _native.status(tmp_path, {}) == ("pure", False)


def test_a_fresh_build_is_used(tmp_path: Path) -> None:
    assert _native.status(fake_build(tmp_path), {}) == ("compiled", False)


def test_slipstream_pure_loads_the_sources(tmp_path: Path) -> None:
    assert _native.status(fake_build(tmp_path), {"SLIPSTREAM_PURE": "1"}) == ("pure (SLIPSTREAM_PURE=1)", True)
    assert _native.status(tmp_path, {"SLIPSTREAM_PURE": "0"}) == ("compiled", False)


def test_a_source_edited_after_the_build_loads_every_source(tmp_path: Path) -> None:
    pkg = fake_build(tmp_path)
    edited = _native.source_of("slipstream.games.brc_grand_prix.state", pkg)
    edited.write_text(edited.read_text() + "# edited\n")
    mode, use_sources = _native.status(pkg, {})
    assert use_sources and "slipstream.games.brc_grand_prix.state changed" in mode


def test_a_missing_or_broken_record_loads_every_source(tmp_path: Path) -> None:
    pkg = fake_build(tmp_path, record=False)
    assert _native.status(pkg, {}) == (f"pure (stale build: no valid {_native.RECORD})", True)
    (pkg / _native.RECORD).write_text("{not json")
    assert _native.status(pkg, {})[1]
    (pkg / _native.RECORD).write_text(json.dumps({"other": 1}))
    assert _native.status(pkg, {})[1]


def test_a_module_without_its_extension_loads_every_source(tmp_path: Path) -> None:
    pkg = fake_build(tmp_path)
    _native.source_of(_native.MODULES[-1], pkg).with_suffix(EXT).unlink()
    mode, use_sources = _native.status(pkg, {})
    assert use_sources and "was not compiled" in mode


def test_this_checkout_runs_its_build_when_it_has_one() -> None:
    """After ``make``, the compiled modules are the ones running (a stale build here is a failure: rebuild)."""
    built = any(_native.compiled_files(m) for m in _native.MODULES)
    if not built or os.environ.get("SLIPSTREAM_PURE", "") not in ("", "0"):
        assert _native.mode.startswith("pure")
        assert slipstream.engine.game.__file__ is not None and slipstream.engine.game.__file__.endswith(".py")
        return
    assert _native.mode == "compiled", _native.mode
    assert slipstream.engine.game.__file__ is not None and not slipstream.engine.game.__file__.endswith(".py")


PURE_CHECK = """
import sys
import slipstream, slipstream._native as native, slipstream.engine.game as engine_game
from scripts.make_golden import golden_cases, playthrough
assert native.mode.startswith("pure"), native.mode
assert engine_game.__file__.endswith(".py"), engine_game.__file__
for game_id, options, path in golden_cases():
    assert playthrough(game_id, options) == path.read_text(), path.name
print("same", len(slipstream.available_games()))
"""


def test_the_pure_python_modules_play_the_same_golden_races() -> None:
    """The sources are the fallback: with SLIPSTREAM_PURE=1 every game replays its golden playthrough."""
    env = {**os.environ, "SLIPSTREAM_PURE": "1"}
    done = subprocess.run([sys.executable, "-c", PURE_CHECK], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"same {len(slipstream.available_games())}"


@pytest.mark.parametrize("module", _native.MODULES)
def test_every_compiled_module_has_its_source(module: str) -> None:
    assert _native.source_of(module).exists()
