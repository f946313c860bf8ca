"""The benchmark of CPU per request still runs (issue 23's comparison between versions rests on it)."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_bench_cpu_prints_a_figure_for_every_request() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "cpu.py"), "--hands", "3", "12", "--runs", "2"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    rows = re.findall(r"^  (\S.*?)\s{2,}([\d.]+) /\s*([\d.]+)\s+([\d.]+) /\s*([\d.]+)$", done.stdout, re.M)
    assert [r[0] for r in rows] == [
        "table page (edit link)",
        "table page (view link)",
        "hand list, page 1",
        "ledger API",
        "hand POST (API)",
    ]
    assert all(float(x) > 0 for r in rows for x in r[1:]), done.stdout
