"""Shared helpers of the tests of c4's agents in the environments and of
``c4.evaluate``: importing an environment's package (skipped with one line
when it is absent, failed when CI is set), and judging every move of one
player of a game against c4's scores.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

import c4


def require(module: str, package: str) -> ModuleType:
    """Imports ``module`` (of the PyPI package ``package``) for a test
    module: when it is missing the whole module is skipped with one line,
    unless CI is set (and not empty), when it fails."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        why = f"{module} cannot be imported ({e}): pip install {package}"
        if os.environ.get("CI"):
            pytest.fail(f"{why}; CI is set, so the environments' tests are required", pytrace=False)
        pytest.skip(why, allow_module_level=True)


def verdicts(moves: str, player: int, width: int = 7, height: int = 6) -> list[str]:
    """The verdict of each move of ``player`` (1 first, 2 second) in the
    game ``moves``, from every column's score of the position before the
    move (the scores the review judges by); checked to be c4's review's
    when the package has ``c4.review``."""
    solver = _solver(width, height)
    position = c4.Position("", width, height)
    out = []
    for index, ch in enumerate(moves):
        column = int(ch, 36)
        if index % 2 == player - 1:
            scores = solver.analyze(position)
            out.append(c4.evaluation.verdict(max(s for s in scores if s is not None), scores[column - 1]))
        position = position.play(column)
    review = getattr(c4, "review", None)
    if review is not None:
        assert _review_verdicts(review, moves, player, width, height) == out, moves
    return out


def _review_verdicts(review, moves: str, player: int, width: int, height: int) -> list[str]:
    """The verdicts of ``player``'s moves in c4's review of ``moves``."""
    result = review(moves, width=width, height=height)
    records = getattr(result, "moves", result)
    out = []
    for record in records:
        if record.player == player:
            value = record.verdict
            out.append(getattr(value, "name", str(value)).lower())
    return out


_solvers: dict[tuple[int, int], c4.Solver] = {}


def _solver(width: int, height: int) -> c4.Solver:
    """One solver a board for the checks (not the agents' own)."""
    solver = _solvers.get((width, height))
    if solver is None:
        solver = _solvers[(width, height)] = c4.Solver(width, height)
    return solver
