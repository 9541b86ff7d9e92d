"""Shared helpers of the c4 tests: where the standard test sets are, and
their lines.

The standard sets (Pascal Pons's, never copied into the repository) are
found as the Rust tests find them (tests/common/sets.rs): the directory the
environment variable C4_STANDARD_SETS names, ``none`` to declare them
absent, or ``../shared/testsets`` beside the clone when it is unset. When
they are absent a test that needs them is skipped with one line saying why,
unless CI is set (and not empty): then it fails.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

STANDARD_SETS_ENV = "C4_STANDARD_SETS"
REPO = Path(__file__).resolve().parents[2]


def _standard_dir() -> tuple[Path | None, str]:
    """The standard sets' directory, or None and why they are absent."""
    setting = os.environ.get(STANDARD_SETS_ENV, "")
    if setting == "none":
        return None, f"{STANDARD_SETS_ENV}=none"
    directory = Path(setting) if setting else REPO.parent / "shared" / "testsets"
    if not directory.is_dir():
        return None, f"{directory} is not a directory"
    return directory, ""


@pytest.fixture
def standard_sets(request: pytest.FixtureRequest) -> Path:
    """The standard sets' directory; skips (fails in CI) when absent."""
    directory, why = _standard_dir()
    if directory is None:
        if os.environ.get("CI"):
            pytest.fail(
                f"the standard test sets are missing ({why}): put them in "
                f"../shared/testsets or set {STANDARD_SETS_ENV}=DIR"
            )
        pytest.skip(f"no standard test sets ({why})")
    return directory


def read_set(path: Path, limit: int | None = None) -> list[tuple[str, int]]:
    """The (moves, score) lines of a test set, comments skipped."""
    lines = []
    with open(path, encoding="utf-8") as f:
        for text in f:
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            moves, score = text.split()
            lines.append((moves, int(score)))
            if limit is not None and len(lines) == limit:
                break
    return lines
