"""A store's bounds as a solver's knowledge: every frontier position the
store holds, seeded into a ``c4.Solver``'s tables with the interval its
tasks proved, so that one process solving the root (or a position near
it) after a cluster run skips the subtrees the cluster solved."""

from __future__ import annotations

from typing import Dict

from .._c4 import Position, Solver, seed_bounds
from .store import Store
from .tree import score_range


def seed(solver: Solver, path: str) -> int:
    """Seeds ``solver`` (see ``c4._c4.seed_bounds``) with the bounds of the
    store at ``path``; returns how many positions were seeded. The store
    must be of the solver's board and written by this ``c4``; the seeds
    last until ``solver.clear()``.

    Raises ``StoreError`` for a store that cannot be used (missing, of
    another board or version), ``ValueError`` for a stored interval that
    contradicts itself."""
    from .. import __version__

    store = Store(path, solver.width, solver.height, __version__, create=False)
    try:
        # One position per key: the key is shared by a position and its
        # mirror image, and seed_bounds seeds both.
        moves_of: Dict[str, str] = {}
        for row in store.tasks():
            moves_of.setdefault(row[1], row[2])
        for key, moves in moves_of.items():
            position = Position(moves, solver.width, solver.height)
            low, high = store.interval(key, score_range(position))
            try:
                seed_bounds(solver, position, low, high)
            except ValueError as e:
                raise ValueError(f"{path}: position {moves or '(empty)'}: {e}") from None
        return len(moves_of)
    finally:
        store.close()
