"""Count machine instructions of parts of a benchmark with Valgrind's callgrind.

A benchmark run with ``--marked`` calls :func:`mark` (``os.getppid``) before each group of work
and after the last one; :func:`counts` runs it under ``valgrind --dump-before=getppid`` and
returns the instructions of each group. Instructions do not depend on the machine's load, so
two versions of the code can be compared on a busy machine. One caveat: a block copy counts one
instruction per byte moved (``rep movsb``), so work that copies megabytes (a 3 MB ledger sent
as it is) looks dearer than its CPU time says.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tempfile


def mark() -> None:
    """The boundary between two groups of work (callgrind dumps its counts before each call)."""
    os.getppid()


def counts(script: str, argv: list[str], groups: int) -> list[int]:
    """Instructions of each of ``groups`` groups of ``script --marked argv`` (its start-up left out)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "cg.out"
        command = ["valgrind", "--tool=callgrind", "--dump-before=getppid", f"--callgrind-out-file={out}"]
        command += [sys.executable, script, "--marked", *argv]
        subprocess.run(command, check=True, capture_output=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        dumps = sorted(pathlib.Path(tmp).glob("cg.out.*"), key=lambda p: int(p.suffix[1:]))
        found = [
            int(line.split()[1]) for p in dumps for line in p.read_text().splitlines() if line.startswith("summary:")
        ]
    if len(found) != groups + 1:
        raise RuntimeError(f"{len(found)} dumps for {groups} groups: did something else call getppid?")
    return found[1:]
