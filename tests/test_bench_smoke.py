"""The benchmarks still run and print their figures (the comparisons between versions rest on them)."""

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


def test_bench_after_write_prints_both_tables_and_their_ratio() -> None:
    command = [sys.executable, str(ROOT / "bench" / "after_write.py"), "--small", "3", "--large", "12"]
    done = subprocess.run(
        [*command, "--rounds", "2", "--runs", "2"], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    print(done.stdout)
    number = r"([\d.]+)"
    cpu = rf"   CPU +{number} ms / +{number} ms +ratio {number}"
    rounds = re.findall(
        rf"^  round (\d): page after write +{number} ms / +{number} ms +ratio {number}{cpu}$", done.stdout, re.M
    )
    assert [r[0] for r in rounds] == ["1", "2"], done.stdout
    final = re.search(
        rf"^  page after write +3 hands +{number} ms +12 hands +{number} ms +ratio {number}{cpu}"
        r" \(target ≤ 1\.5, on CPU\) — (meets|MISSES)$",
        done.stdout,
        re.M,
    )
    assert final, done.stdout
    assert re.search(
        rf"^  write \+ page +3 hands +{number} ms +12 hands +{number} ms +ratio {number}{cpu}$", done.stdout, re.M
    )
    assert all(float(x) > 0 for x in final.groups()[:6])
