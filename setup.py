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

    # mypyc reads the sources with each state's copy method written in (native.with_generated_copies);
    # the files are put back as they were as soon as it has read them, whatever happens.
    sources = [native.source_of(m, PACKAGE) for m in native.MODULES]
    originals = {path: path.read_text() for path in sources}
    try:
        for path, text in originals.items():
            generated = native.with_generated_copies(text, PACKAGE)
            if generated != text:
                path.write_text(generated)
        extensions = mypycify([str(p.relative_to(ROOT)) for p in sources], opt_level="3", group_name="slipstream")
    finally:
        for path, text in originals.items():
            if path.read_text() != text:
                path.write_text(text)
    setup(ext_modules=extensions, cmdclass={"build_ext": BuildAndRecord})
