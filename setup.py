"""Build hook: compile the hot modules with mypyc (see src/slipstream/_native.py).

``pip install .`` (or ``-e .``) compiles them; ``SLIPSTREAM_PURE=1 pip install ...`` skips the compiler
and installs the same package as plain Python (slower, same behaviour). Everything else about the
package is in pyproject.toml.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "slipstream"

_spec = importlib.util.spec_from_file_location("_slipstream_native", PACKAGE / "_native.py")
assert _spec is not None and _spec.loader is not None
native = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(native)


class BuildAndRecord(build_ext):
    """build_ext, then the record of the sources compiled (only once every module has built)."""

    def run(self) -> None:
        sources = {m: native.digest(native.source_of(m, PACKAGE)) for m in native.MODULES}
        target = PACKAGE if self.inplace else Path(self.build_lib) / "slipstream"
        (target / native.RECORD).unlink(missing_ok=True)  # a failed build leaves no record: pure Python runs
        super().run()
        target.mkdir(parents=True, exist_ok=True)
        native.write_record(target, sources)


if os.environ.get("SLIPSTREAM_PURE", "") not in ("", "0"):
    setup()
else:
    from mypyc.build import mypycify

    paths = [str(native.source_of(m, PACKAGE).relative_to(ROOT)) for m in native.MODULES]
    setup(
        ext_modules=mypycify(paths, opt_level="3", group_name="slipstream"),
        cmdclass={"build_ext": BuildAndRecord},
    )
