"""Running `scorer settle` in a subprocess, shared by the CLI tests of every rule set."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any


def settle_cli(payload: Any) -> subprocess.CompletedProcess[str]:
    """`python -m scorer settle -` with ``payload`` as JSON on standard input."""
    return subprocess.run(
        [sys.executable, "-m", "scorer", "settle", "-"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def assert_rejected(proc: subprocess.CompletedProcess[str], prefix: str) -> str:
    """Exit 2, nothing on standard output, one stderr line starting with ``prefix``, no traceback."""
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(prefix), lines[0]
    assert "Traceback" not in proc.stderr
    return lines[0]
