"""docs/interop.md's table of each game's actions, chance outcomes and observation slots is generated from
the specs shipped in ``src/slipstream/interop/specs/``: this test builds the table from them and compares.
When the specs are rebuilt (``python -m slipstream.interop``), run it with ``SLIPSTREAM_WRITE_DOCS=1`` to
write the new table into the page (then read the diff)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from slipstream.interop.spec import BUILDER_VERSION, SHIPPED, GameSpec

DOC = Path(__file__).resolve().parents[2] / "docs" / "interop.md"
HEADER = "| game | actions | chance outcomes | observation slots |\n|---|---|---|---|\n"


def shipped() -> list[GameSpec]:
    return [GameSpec.from_json(json.loads(path.read_text(encoding="utf-8"))) for path in sorted(SHIPPED.glob("*.json"))]


def table(specs: list[GameSpec]) -> str:
    """The page's table: one row per shipped spec, in game id order, numbers with thousands separators."""
    rows = [f"| `{spec.game}` | {len(spec.actions):,} | {len(spec.chance):,} | {spec.encoder().size:,} |\n"
            for spec in specs]
    return HEADER + "".join(rows)


def test_the_size_table_is_the_shipped_specs() -> None:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(re.escape(HEADER) + r"(?:\|.*\|\n)+", text)
    assert found, "docs/interop.md has no size table"
    expected = table(shipped())
    if found.group(0) != expected and os.environ.get("SLIPSTREAM_WRITE_DOCS") == "1":
        DOC.write_text(text.replace(found.group(0), expected), encoding="utf-8")
        return
    assert found.group(0) == expected, ("docs/interop.md's table is not the shipped specs' (rerun this test with "
                                        "SLIPSTREAM_WRITE_DOCS=1 to write it):\n" + expected)


def test_the_builder_the_page_names_is_the_shipped_specs() -> None:
    builders = {spec.builder for spec in shipped()}
    assert builders == {BUILDER_VERSION}, builders
    assert f'(`"builder": {BUILDER_VERSION}`)' in DOC.read_text(encoding="utf-8")


def test_every_shipped_game_has_a_row() -> None:
    games = {spec.game for spec in shipped()}
    text = DOC.read_text(encoding="utf-8")
    assert all(f"| `{game}` |" in text for game in games)
