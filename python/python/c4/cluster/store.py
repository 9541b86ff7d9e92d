"""The store of a distributed solve: one SQLite file holding every finished
task (a position's symmetric key, the window it was searched in, the value
found, the bound that proves, its nodes and the solver's version) and the
root results proved from them.

A task counts only once its row is committed, so a killed driver, worker
or cluster loses at most the tasks in flight; a driver started again reads
the rows back and submits none of them again. The bounds are facts of
positions, not of one root: solves of several roots of a board may share a
store. One process writes at a time (the driver); readers (``verify``, the
query of docs/cluster.md) may read while it runs. The rollback journal is
used, not WAL, so the file can live on a shared file system.
"""

from __future__ import annotations

import os
import sqlite3
import time
from typing import Dict, Iterator, List, Optional, Tuple

from .tree import Interval

#: The store format this c4 writes and the newest it reads.
FORMAT = 1

SCHEMA = """
CREATE TABLE meta (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    root TEXT NOT NULL,
    weak INTEGER NOT NULL,
    depth INTEGER NOT NULL,
    scheduler TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL
);
CREATE TABLE tasks (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    moves TEXT NOT NULL,
    alpha INTEGER NOT NULL,
    beta INTEGER NOT NULL,
    value INTEGER NOT NULL,
    lower INTEGER NOT NULL,
    upper INTEGER NOT NULL,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    worker TEXT NOT NULL,
    solver_version TEXT NOT NULL,
    run INTEGER NOT NULL REFERENCES runs(id),
    finished REAL NOT NULL
);
CREATE INDEX tasks_by_key ON tasks(key);
CREATE TABLE results (
    root_key TEXT NOT NULL,
    weak INTEGER NOT NULL,
    moves TEXT NOT NULL,
    depth INTEGER NOT NULL,
    score INTEGER NOT NULL,
    solver_version TEXT NOT NULL,
    run INTEGER NOT NULL REFERENCES runs(id),
    finished REAL NOT NULL,
    PRIMARY KEY (root_key, weak)
);
"""


class StoreError(Exception):
    """A store that cannot be used, with a sentence saying why; the file is
    left as it was."""


class StoreFull(StoreError):
    """The store's disk (or its size limit) is full: the tasks committed
    before are kept."""


def _version_tuple(version: str) -> Tuple[int, ...]:
    """The numeric parts of a version (``"1.4.0"`` -> ``(1, 4, 0)``)."""
    parts = []
    for part in version.split("."):
        digits = "".join(ch for ch in part if ch.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts)


class Store:
    """An open store of a board, for this solver's version.

    Args:
        path: the SQLite file (created, with its tables, if absent).
        width, height: the board; a store of another board is refused.
        solver_version: the version of c4 solving (``c4.__version__``); a
            store written by another version is refused (its bounds came
            from another search), one written by a newer c4 says so.
        max_bytes: a limit on the file's size (the disk it may fill), or
            None.
        create: make the file if it is absent (else a missing file is an
            error, as for ``verify``).

    Raises ``StoreError`` with a sentence naming the file.
    """

    def __init__(
        self,
        path: str,
        width: int,
        height: int,
        solver_version: str,
        *,
        max_bytes: Optional[int] = None,
        create: bool = True,
    ) -> None:
        self.path = str(path)
        self.width, self.height = width, height
        self.solver_version = solver_version
        exists = os.path.exists(self.path)
        if not exists and not create:
            raise StoreError(f"{self.path}: no such store")
        try:
            self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self.db.execute("PRAGMA synchronous = FULL")
            if max_bytes is not None:
                page = self.db.execute("PRAGMA page_size").fetchone()[0]
                self.db.execute(f"PRAGMA max_page_count = {max(1, int(max_bytes) // page)}")
            tables = {
                row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: not a c4 store (SQLite says: {e})") from None
        if not tables:
            self._create()
        elif "meta" not in tables:
            raise StoreError(f"{self.path}: an SQLite file, but not a c4 store (no meta table)")
        self._check()
        self.intervals: Dict[str, Interval] = {}
        self._load()

    # ---- opening ----

    def _meta(self) -> Dict[str, str]:
        return dict(self.db.execute("SELECT name, value FROM meta"))

    def _create(self) -> None:
        meta = {
            "format": str(FORMAT),
            "width": str(self.width),
            "height": str(self.height),
            "solver_version": self.solver_version,
            "created": str(time.time()),
        }

        def write() -> None:
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            self.db.executemany("INSERT INTO meta (name, value) VALUES (?, ?)", meta.items())

        self._write(write)

    def _check(self) -> None:
        meta = self._meta()
        try:
            fmt = int(meta.get("format", ""))
        except ValueError:
            raise StoreError(f"{self.path}: its format is not a number ({meta.get('format')!r})") from None
        if fmt > FORMAT:
            raise StoreError(
                f"{self.path}: written by a newer c4 (store format {fmt}; this c4, "
                f"{self.solver_version}, reads formats up to {FORMAT}): use that c4 or a new store"
            )
        board = (meta.get("width"), meta.get("height"))
        if board != (str(self.width), str(self.height)):
            raise StoreError(
                f"{self.path}: a store of the {board[0]}x{board[1]} board, not of "
                f"{self.width}x{self.height}: use another store"
            )
        theirs = meta.get("solver_version", "")
        if theirs != self.solver_version:
            newer = _version_tuple(theirs) > _version_tuple(self.solver_version)
            raise StoreError(
                f"{self.path}: written by {'a newer' if newer else 'another'} c4 ({theirs}; "
                f"this is {self.solver_version}): its bounds come from another solver; "
                "use that c4 or a new store"
            )

    def _load(self) -> None:
        for key, lower, upper in self.db.execute("SELECT key, lower, upper FROM tasks"):
            low, high = self.intervals.get(key, (lower, upper))
            self.intervals[key] = (max(low, lower), min(high, upper))

    # ---- writing ----

    def _write(self, job) -> None:
        """Runs ``job`` in one transaction: all of it is committed or none.
        A full disk raises ``StoreFull``; the store is left as before."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                job()
                self.db.execute("COMMIT")
            except BaseException:
                # SQLite rolls a transaction back itself on a full disk.
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError as e:
            if "full" in str(e):
                raise StoreFull(
                    f"{self.path}: the disk is full ({e}): the tasks finished before are kept; "
                    "free some space and run the same command again"
                ) from None
            raise StoreError(f"{self.path}: cannot write ({e})") from None

    def begin_run(self, root: str, weak: bool, depth: int, scheduler: str) -> int:
        """Records a driver's run; returns its id."""
        ids: List[int] = []

        def write() -> None:
            cursor = self.db.execute(
                "INSERT INTO runs (root, weak, depth, scheduler, started) VALUES (?, ?, ?, ?, ?)",
                (root, int(weak), depth, scheduler, time.time()),
            )
            ids.append(cursor.lastrowid)

        self._write(write)
        return ids[0]

    def end_run(self, run: int) -> None:
        self._write(lambda: self.db.execute("UPDATE runs SET finished = ? WHERE id = ?", (time.time(), run)))

    def record(
        self,
        key: str,
        moves: str,
        window: Tuple[int, int],
        value: int,
        bounds: Interval,
        nodes: int,
        seconds: float,
        worker: str,
        run: int,
    ) -> None:
        """Commits a finished task: the position ``key`` (reached by
        ``moves``) searched in ``window`` gave ``value``, which proves its
        score is within ``bounds``. Only then does the task count."""
        row = (key, moves, window[0], window[1], value, bounds[0], bounds[1], nodes, seconds,
               worker, self.solver_version, run, time.time())
        self._write(lambda: self.db.execute(
            "INSERT INTO tasks (key, moves, alpha, beta, value, lower, upper, nodes, seconds, "
            "worker, solver_version, run, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            row,
        ))
        low, high = self.intervals.get(key, bounds)
        self.intervals[key] = (max(low, bounds[0]), min(high, bounds[1]))

    def record_result(self, root_key: str, moves: str, weak: bool, depth: int, score: int, run: int) -> None:
        """Commits the root's result, proved by the tasks stored."""
        self._write(lambda: self.db.execute(
            "INSERT OR REPLACE INTO results (root_key, weak, moves, depth, score, solver_version, run, "
            "finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (root_key, int(weak), moves, depth, score, self.solver_version, run, time.time()),
        ))

    # ---- reading ----

    def interval(self, key: str, score_range: Interval) -> Interval:
        """What the stored tasks prove of the score of the position ``key``,
        within its ``score_range``. Raises ``StoreError`` if they
        contradict each other."""
        low, high = self.intervals.get(key, score_range)
        low, high = max(low, score_range[0]), min(high, score_range[1])
        if low > high:
            raise StoreError(
                f"{self.path}: the stored bounds of position {key} contradict each other "
                f"(at least {low} and at most {high})"
            )
        return low, high

    def result(self, root_key: str, weak: bool) -> Optional[Tuple[int, int]]:
        """The stored ``(score, depth)`` of a root, or None."""
        row = self.db.execute(
            "SELECT score, depth FROM results WHERE root_key = ? AND weak = ?", (root_key, int(weak))
        ).fetchone()
        return None if row is None else (row[0], row[1])

    def results(self) -> List[Tuple[str, str, int, int, int]]:
        """Every stored root result: ``(root_key, moves, weak, depth, score)``."""
        return list(self.db.execute("SELECT root_key, moves, weak, depth, score FROM results ORDER BY finished"))

    def tasks(self) -> Iterator[Tuple]:
        """Every stored task: ``(id, key, moves, alpha, beta, value, lower,
        upper, nodes, worker, run)``."""
        return self.db.execute(
            "SELECT id, key, moves, alpha, beta, value, lower, upper, nodes, worker, run FROM tasks ORDER BY id"
        )

    def close(self) -> None:
        self.db.close()


def board_of(path: str) -> Tuple[int, int, str]:
    """The board and solver version a store was written for, read without
    checking them (for ``verify``, which takes the board from the store).
    Raises ``StoreError`` for a file that is not a c4 store."""
    if not os.path.exists(path):
        raise StoreError(f"{path}: no such store")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            meta = dict(db.execute("SELECT name, value FROM meta"))
        finally:
            db.close()
        return int(meta["width"]), int(meta["height"]), meta["solver_version"]
    except (sqlite3.DatabaseError, KeyError, ValueError) as e:
        raise StoreError(f"{path}: not a c4 store ({e})") from None
