"""NumPy conversions of c4.Position, imported only when one is asked for.

NumPy is not a dependency of c4: it is imported here, on first use, and a
missing NumPy raises ImportError naming what to install.
"""

from __future__ import annotations

from typing import Any


def _numpy() -> Any:
    try:
        import numpy
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "c4.Position.to_numpy and from_numpy need NumPy: pip install numpy"
        ) from e
    return numpy


def to_numpy(rows: list[list[int]]) -> Any:
    """The grid ``rows`` (top row first) as an int8 array, rows by columns."""
    return _numpy().array(rows, dtype="int8").reshape(len(rows), -1)


def rows_of(array: Any) -> list[list[int]]:
    """The rows of a 2-D array of 0 / 1 / 2 (top row first), as lists of ints."""
    numpy = _numpy()
    grid = numpy.asarray(array)
    if grid.ndim != 2:
        raise ValueError(
            f"a board is a 2-D array (rows by columns), not one of shape {grid.shape}"
        )
    if grid.dtype.kind not in "iub":
        if grid.dtype.kind == "f" and numpy.all(numpy.mod(grid, 1) == 0):
            grid = grid.astype("int64")
        else:
            raise ValueError(
                f"a board holds 0, 1 and 2 (integers), not values of type {grid.dtype}"
            )
    return [[int(v) for v in row] for row in grid.tolist()]
