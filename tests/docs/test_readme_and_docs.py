"""Every code block of README.md, docs/simulate.md, docs/web.md, docs/rules/highway-heist.md and the Balance
commands of docs/rules/scrap-racer.md, brc-grand-prix.md and rev-it-up.md runs, and every Python block of
docs/rules/rush-n-crush.md (its other blocks are board text and hints, which its game's tests check);
docs/adding-a-game.md has its own test; docs/interop.md's Python blocks run in tests/interop and its size
table is checked here (test_interop_figures.py); docs/design.md and docs/simulate-measurements.md have no
code blocks. Every path a page names is inside the repository and exists.

Python blocks are executed. Command blocks run each command through the real ``slipstream`` command, in
one scratch directory per block (so ``--save race.json`` then ``--resume race.json`` follow each other),
with these changes only, so that the suite stays small:

- ``-n N`` becomes ``-n 2`` (``-n 1`` when an ``mcts`` bot plays);
- ``[optional parts]`` run both without and with them; a synopsis line (with placeholders such as
  ``GAME``) runs its required part with the placeholders filled in (``PLACEHOLDERS``), and every option
  it shows must be one the command knows (``--help``);
- an interactive ``play`` gets ``q`` (quit at the first decision; ``--step`` gets Enter);
- ``slipstream serve`` listens on a free port and is stopped once it says it runs (or, for a database
  that is not there, must say so in one line with exit code 2);
- ``make X`` runs as ``make -n X`` (its recipe is checked, nothing is built or served);
- ``runs/<the directory printed>`` is the directory the block's previous command printed.

A transcript (a block whose first line is ``$ slipstream ...``) runs that command as it is and must print
exactly the rest of the block. A block of another kind (the README's layout tree) is checked for what it
claims: every path exists.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import slipstream

ROOT = Path(__file__).resolve().parents[2]
SRC = Path(slipstream.__file__).resolve().parents[1]
PAGES = ["README.md", "docs/simulate.md", "docs/web.md", "docs/rules/highway-heist.md", "docs/rules/scrap-racer.md",
         "docs/rules/brc-grand-prix.md", "docs/rules/rev-it-up.md"]
PYTHON_PAGES = ["docs/rules/rush-n-crush.md"]
"""Pages of which only the Python blocks run."""
FENCE = re.compile(r"^```([a-z]*)\n(.*?)^```", re.DOTALL | re.MULTILINE)
PLACEHOLDERS = {"GAME": "scrap-racer", "N": "2", "S": "1", "P": "2", "DIR": "out/synopsis",
                "RAY_ADDRESS": "127.0.0.1:1"}


def blocks(pages: list[str] = PAGES) -> list[tuple[str, int, str, str]]:
    """``(page, line, language, text)`` of every fenced block of ``pages``."""
    out = []
    for page in pages:
        text = (ROOT / page).read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            out.append((page, line, match.group(1), match.group(2)))
    return out


BLOCKS = blocks()
PYTHON_BLOCKS = [block for block in blocks(PYTHON_PAGES) if block[2] == "python"]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(ROOT)]), "COLUMNS": "120"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def commands(text: str) -> list[str]:
    """The command lines of a block: continuation lines joined, comments dropped."""
    joined = text.replace("\\\n", " ")
    lines = []
    for raw in joined.splitlines():
        line = raw.split(" #", 1)[0].strip()
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


def is_synopsis(line: str) -> bool:
    return any(re.search(rf"(^|[\s=]){p}(\s|$|\])", line) for p in PLACEHOLDERS)


def variants(line: str) -> list[list[str]]:
    """The argument lists to run for one command line (see the module docstring)."""
    if is_synopsis(line):
        required = re.sub(r"\[[^\]]*\]", " ", line)
        words = [PLACEHOLDERS.get(w, w) for w in shlex.split(required)]
        return [words]
    optional = re.findall(r"\[([^\]]*)\]", line)
    without = shlex.split(re.sub(r"\[[^\]]*\]", " ", line))
    if not optional:
        return [without]
    return [without, shlex.split(line.replace("[", " ").replace("]", " "))]


def shrink(words: list[str]) -> list[str]:
    out = list(words)
    for i, word in enumerate(out[:-1]):
        if word in ("-n", "--races"):
            out[i + 1] = "1" if "mcts" in " ".join(out) else "2"
    return out


def synopsis_options_are_known(line: str, cwd: Path) -> None:
    words = shlex.split(line.replace("[", " ").replace("]", " "))
    shown = {w for w in words if w.startswith("-")}
    proc = subprocess.run([sys.executable, "-m", "slipstream.cli.main", words[1], "--help"], cwd=cwd,
                          capture_output=True, text=True, env=env(), timeout=120)
    missing = [opt for opt in shown if opt not in proc.stdout]
    assert not missing, f"{line!r} shows options that `slipstream {words[1]}` does not know: {missing}"


def run_serve(words: list[str], cwd: Path) -> None:
    if "--port" in words:
        words[words.index("--port") + 1] = str(free_port())
    else:
        words += ["--port", str(free_port())]
    proc = subprocess.Popen([sys.executable, "-m", "slipstream.cli.main", *words[1:]], cwd=cwd, env=env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    if "is running" in first:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
        return
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "cannot open the database" in err and len(err.strip().splitlines()) == 1, (
        first + out, err)


def run_command(line: str, cwd: Path, printed: list[str]) -> None:
    if line.startswith("make "):
        proc = subprocess.run(["make", "-n", *shlex.split(line)[1:]], cwd=ROOT, capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode == 0, proc.stderr
        return
    assert line.startswith("slipstream "), f"a command block line that is not a command: {line!r}"
    if "<the directory printed>" in line:
        assert printed, "no directory was printed before"
        line = line.replace("runs/<the directory printed>", printed[-1])
    if is_synopsis(line):
        synopsis_options_are_known(line, cwd)
    for words in variants(line):
        words = shrink(words)
        if words[1] == "serve":
            run_serve(words, cwd)
            continue
        stdin = "\n" * 2000 if "--step" in words else "q\n"
        proc = subprocess.run([sys.executable, "-m", "slipstream.cli.main", *words[1:]], cwd=cwd, input=stdin,
                              capture_output=True, text=True, env=env(), timeout=900)
        assert proc.returncode == 0, (words, proc.stdout[-2000:], proc.stderr[-3000:])
        assert "Traceback" not in proc.stderr
        printed += re.findall(r"(?:records and results|records and ratings) in (\S+);", proc.stdout)


def check_layout(text: str) -> None:
    for raw in text.splitlines():
        path = raw.split()[0] if raw.strip() and not raw[0].isspace() else ""  # indented: a continued line
        if path.endswith("/") or path.endswith((".py", ".md")):
            assert (ROOT / path).exists(), f"the layout names {path}, which does not exist"


def check_transcript(text: str, cwd: Path) -> None:
    first, _, expected = text.partition("\n")
    words = shlex.split(first.removeprefix("$ "))
    proc = subprocess.run([sys.executable, "-m", "slipstream.cli.main", *words[1:]], cwd=cwd, capture_output=True,
                          text=True, env=env(), timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = [line.rstrip() for line in proc.stdout.splitlines()]
    assert got == [line.rstrip() for line in expected.splitlines()], (
        f"`{first[2:]}` no longer prints what the page shows; run it (COLUMNS=120) and paste its output:\n"
        + proc.stdout)


def kind(language: str, text: str) -> str:
    if language == "python":
        return "python"
    if text.startswith("$ slipstream "):
        return "transcript"
    lines = commands(text)
    if lines and all(line.startswith(("slipstream ", "make ")) for line in lines):
        return "commands"
    if text.lstrip().startswith("src/slipstream/"):
        return "layout"
    return "unknown"


@pytest.mark.parametrize(("page", "line", "language", "text"), BLOCKS,
                         ids=[f"{page}:{line}" for page, line, _, _ in BLOCKS])
def test_code_block_runs(page: str, line: int, language: str, text: str, tmp_path: Path) -> None:
    what = kind(language, text)
    if what == "python":
        exec(compile(text, f"{page} line {line}", "exec"), {"__name__": "docs_block"})
    elif what == "commands":
        printed: list[str] = []
        for command in commands(text):
            run_command(command, tmp_path, printed)
    elif what == "transcript":
        check_transcript(text, tmp_path)
    elif what == "layout":
        check_layout(text)
    else:
        pytest.fail(f"{page} line {line}: a block this test cannot run; make it a command, Python or "
                    "teach this test what it claims")


@pytest.mark.parametrize(("page", "line", "text"), [(page, line, text) for page, line, _, text in PYTHON_BLOCKS],
                         ids=[f"{page}:{line}" for page, line, _, _ in PYTHON_BLOCKS])
def test_python_block_runs(page: str, line: int, text: str) -> None:
    exec(compile(text, f"{page} line {line}", "exec"), {"__name__": "docs_block"})


def test_every_page_has_blocks() -> None:
    assert {page for page, *_ in BLOCKS} == set(PAGES)
    assert {page for page, *_ in PYTHON_BLOCKS} == set(PYTHON_PAGES)


LINKED = re.compile(r"`((?:\.\./|docs/|src/|tests/|scripts/|benchmarks/)[^`\s]*)`|\]\(([^)\s]+)\)")


def test_the_pages_name_only_files_inside_the_repository() -> None:
    """The README is self-contained (it linked ../shared/DESIGN.md, outside the repository: docs/design.md
    holds what a user needs of it): no page names a path outside, and every path a page names exists (a
    module may be named without its .py)."""
    wrong = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for match in LINKED.finditer(page.read_text(encoding="utf-8")):
            path = match.group(1) or match.group(2)
            if path.startswith(("http:", "https:", "#", "mailto:")) or any(c in path for c in "<*{"):
                continue
            target = (ROOT / path if match.group(1) else page.parent / path).as_posix().split("#")[0].rstrip(".,:;")
            inside = Path(target).resolve().is_relative_to(ROOT)
            if not inside or not (Path(target).exists() or Path(target + ".py").exists()):
                wrong.append(f"{page.relative_to(ROOT)}: {path}")
    assert not wrong, wrong
    assert "docs/design.md" in (ROOT / "README.md").read_text(encoding="utf-8")
