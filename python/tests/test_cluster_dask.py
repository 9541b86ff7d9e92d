"""The Dask recipe of docs/cluster.md: scripts/dask-label.py labels a file
of positions on a local cluster of two worker processes; its scores are the
standard set's, in the input's order, both workers take part, and bad
lines are reported by number without stopping the others."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO, read_set
from envs_common import require

require("distributed", "dask[distributed]")

SCRIPT = REPO / "scripts" / "dask-label.py"


def test_a_local_cluster_labels_a_file_in_order(standard_sets: Path, tmp_path: Path) -> None:
    lines = read_set(standard_sets / "Test_L2_R1", limit=150)  # Middle-Easy
    bad = {40: "4453x", 90: "44444444"}  # a bad character; a full column
    text, expected = [], []
    for i, (moves, score) in enumerate(lines):
        if i in bad:
            text.append(bad[i])
        text.append(f"{moves} {score}")
        expected.append(f"{moves} {score}")
    source = tmp_path / "games.txt"
    source.write_text("\n".join(text) + "\n")
    out = tmp_path / "labels.txt"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(source), str(out), "--local", "2", "--chunk", "20"],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert run.returncode == 1, run.stderr  # the two bad lines
    assert out.read_text().splitlines() == expected
    errors = [line for line in run.stderr.splitlines() if line.startswith("line ")]
    assert errors == [
        "line 41: character 5 ('x') is not a column (1-7)",
        "line 92: character 7: column 4 is already full",
    ], run.stderr
    summary = run.stderr.strip().splitlines()[-1]
    assert summary.startswith("150 lines labelled, 2 errors; 8 chunks: ")
    workers = summary.split(": ", 1)[1].split(", ")
    assert len(workers) == 2, summary  # both worker processes labelled
