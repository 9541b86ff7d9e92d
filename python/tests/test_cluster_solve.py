"""c4.cluster (docs/cluster.md) on a real Dask cluster of this machine: a
`dask scheduler` and a `dask worker` of two single-threaded worker
processes, started here. Empty boards and Begin-Hard positions get the
scores one process gives; a driver killed halfway and run again gives the
same score and solves no stored task again; a worker killed mid-task has
its task run elsewhere; `verify` passes on a store and fails on one with a
bound changed; bad stores, a full disk and an unreachable scheduler get
clear errors and leave the store as it was."""

from __future__ import annotations

import hashlib
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import read_set
from envs_common import require

require("distributed", "dask[distributed]")

import c4  # noqa: E402
import c4.cluster  # noqa: E402

PYTHON = sys.executable
ENV = {**os.environ, "PYTHONWARNINGS": "ignore"}


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory):
    """The address of a running scheduler with two worker processes."""
    from distributed import Client

    where = tmp_path_factory.mktemp("dask")
    file = where / "scheduler.json"
    logs = open(where / "dask.log", "w")
    procs = [subprocess.Popen(
        [PYTHON, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", "0",
         "--dashboard-address", "127.0.0.1:0", "--scheduler-file", str(file)],
        stdout=logs, stderr=subprocess.STDOUT, env=ENV,
    )]
    for _ in range(100):
        if file.exists() and file.stat().st_size > 0:
            break
        time.sleep(0.1)
    procs.append(subprocess.Popen(
        [PYTHON, "-m", "dask", "worker", "--scheduler-file", str(file), "--nworkers", "2",
         "--nthreads", "1", "--no-dashboard", "--local-directory", str(where)],
        stdout=logs, stderr=subprocess.STDOUT, env=ENV,
    ))
    client = Client(scheduler_file=str(file), timeout=30)
    try:
        client.wait_for_workers(2, timeout=60)
        yield client.scheduler.address
    finally:
        client.close()
        for proc in reversed(procs):
            proc.send_signal(signal.SIGINT)
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        logs.close()


def cli(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([PYTHON, "-m", "c4.cluster", *args], capture_output=True, text=True,
                          timeout=timeout, env=ENV)


def rows(store: Path, sql: str) -> list:
    with sqlite3.connect(store) as db:
        return db.execute(sql).fetchall()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# A solver seeded with a store's bounds solves its root with this many
# times fewer nodes than one without them, at least (the empty 7x5 board,
# frontier at depth 5).
SEEDED_NODES_FACTOR = 2  # measured: 1,531,999 nodes against 4,617,300


def single_process(moves: str, width: int, height: int) -> int:
    return c4.Solver(width, height).solve(moves)


@pytest.mark.parametrize("width,height", [(8, 5), (9, 4)])
def test_an_empty_board_gets_the_single_process_score(scheduler, tmp_path, width, height):
    store = tmp_path / "s.sqlite"
    score = c4.cluster.solve("", store=str(store), scheduler=scheduler, width=width, height=height)
    assert score == single_process("", width, height)
    tasks = rows(store, "SELECT count(*), count(DISTINCT worker) FROM tasks")[0]
    assert tasks[0] > 10 and tasks[1] == 2, tasks  # both workers solved tasks
    report = c4.cluster.verify(str(store), sample=5)
    assert report.ok, report.problems


def test_the_empty_7x7_board_is_a_draw(scheduler, tmp_path):
    # The single process's score: docs/board-sizes.md (`c4 solve --width 7
    # --height 7 ''`, 2,216,137,434 nodes); solving it again here would
    # double the test's time.
    store = tmp_path / "7x7.sqlite"
    assert c4.cluster.solve("", store=str(store), scheduler=scheduler, width=7, height=7) == 0
    assert c4.cluster.verify(str(store), sample=3).ok


def test_begin_hard_positions_get_the_standard_sets_scores(scheduler, standard_sets, tmp_path):
    store = tmp_path / "begin-hard.sqlite"
    for moves, score in read_set(standard_sets / "Test_L1_R3", limit=20):
        got = c4.cluster.solve(moves, store=str(store), scheduler=scheduler, depth=2, book=None)
        assert got == score, moves
    assert c4.cluster.solve("4453", store=str(store), scheduler=scheduler, weak=True) == -1
    report = c4.cluster.verify(str(store), sample=10, book=None)
    assert report.ok and report.roots == 21, report.problems


def test_a_killed_driver_resumes_without_solving_a_task_twice(scheduler, tmp_path):
    store = tmp_path / "s.sqlite"
    args = ["solve", "", "--width", "7", "--height", "5", "--store", str(store), "--scheduler",
            scheduler, "--depth", "5", "--progress", "--progress-every", "0.2"]
    driver = subprocess.Popen([PYTHON, "-m", "c4.cluster", *args], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=ENV)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and driver.poll() is None:
        if store.exists() and rows(store, "SELECT count(*) FROM tasks")[0][0] >= 20:
            break
        time.sleep(0.05)
    assert driver.poll() is None, "the driver finished before it could be killed"
    driver.kill()
    driver.wait()
    before = rows(store, "SELECT * FROM tasks ORDER BY id")
    assert len(before) >= 20 and not rows(store, "SELECT * FROM results")
    again = cli(*args)
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == str(single_process("", 7, 5))
    after = rows(store, "SELECT * FROM tasks ORDER BY id")
    assert after[: len(before)] == before  # the first run's tasks, untouched
    duplicates = rows(store, "SELECT key, alpha, beta FROM tasks GROUP BY 1, 2, 3 HAVING count(*) > 1")
    assert duplicates == []
    # Every task stored since the kill is the second run's, none the first
    # run's; the driver's count of what it solved is the rows it added, the
    # tasks that finished just as the search stopped waiting for them
    # included.
    second_run = rows(store, "SELECT max(id) FROM runs")[0][0]
    added = after[len(before):]
    runs_column = [c[1] for c in rows(store, "PRAGMA table_info(tasks)")].index("run")
    assert added and all(row[runs_column] == second_run for row in added)
    said = re.search(r"(\d+) tasks solved in this run", again.stderr)
    assert said, again.stderr
    assert int(said.group(1)) == len(added), again.stderr
    assert f"{len(before)} tasks were in the store" in again.stderr
    assert "progress: tasks: " in again.stderr and "dashboard: http" in again.stderr
    assert rows(store, "SELECT count(*) FROM runs")[0][0] == 2


def test_a_solver_seeded_from_the_store_solves_the_root_with_few_nodes(scheduler, tmp_path):
    store = tmp_path / "s.sqlite"
    score = c4.cluster.solve("", store=str(store), scheduler=scheduler, width=7, height=5, depth=5)
    alone = c4.Solver(7, 5, book=None)
    assert alone.solve("") == score
    seeded = c4.Solver(7, 5, book=None)
    keys = rows(store, "SELECT count(DISTINCT key) FROM tasks")[0][0]
    assert c4.cluster.seed(seeded, str(store)) == keys > 10
    assert seeded.solve("") == score
    assert seeded.node_count * SEEDED_NODES_FACTOR < alone.node_count, (
        seeded.node_count, alone.node_count)
    assert seeded.solve("", weak=True) == (score > 0) - (score < 0)
    # Below the root too: every first move's score, seeded against alone.
    assert seeded.analyze("") == alone.analyze("")
    # A solver of another board is refused with the store's reason.
    with pytest.raises(c4.cluster.StoreError, match="7x5|board"):
        c4.cluster.seed(c4.Solver(8, 5, book=None), str(store))


def test_a_killed_workers_task_is_run_again(scheduler, tmp_path):
    from distributed import Client

    store = tmp_path / "s.sqlite"
    driver = subprocess.Popen(
        [PYTHON, "-m", "c4.cluster", "solve", "", "--width", "9", "--height", "4", "--store",
         str(store), "--scheduler", scheduler, "--depth", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
    )
    victim = None
    with Client(scheduler, timeout=30) as client:
        deadline = time.monotonic() + 120
        while victim is None and time.monotonic() < deadline and driver.poll() is None:
            running = [(worker, key) for worker, keys in client.processing().items()
                       for key in keys if str(key).startswith("c4_")]
            if running:
                time.sleep(0.3)  # well into the task
                if running[0][1] in client.processing().get(running[0][0], ()):
                    victim = running[0]
                    os.kill(client.run(os.getpid)[victim[0]], signal.SIGKILL)
            time.sleep(0.05)
        assert victim is not None, "no task was seen running for 0.3 s"
        out, err = driver.communicate(timeout=600)
        assert driver.returncode == 0, err
        assert out.strip() == str(single_process("", 9, 4))
        client.wait_for_workers(2, timeout=60)  # the nanny starts it again
    _, _, key, alpha, beta, _ = victim[1].split("_")
    done = rows(store, f"SELECT worker FROM tasks WHERE key = '{key}' AND alpha = {alpha} AND beta = {beta}")
    assert len(done) == 1 and done[0][0] != victim[0], (victim, done)


def test_verify_fails_on_a_store_with_one_bound_changed(scheduler, tmp_path):
    store = tmp_path / "s.sqlite"
    assert c4.cluster.solve("", store=str(store), scheduler=scheduler, width=7, height=5, depth=3) == 0
    good = cli("verify", "--store", str(store), "--all")
    assert good.returncode == 0 and "verified" in good.stdout, good.stderr
    # The exact value that decides the root, one higher.
    with sqlite3.connect(store) as db:
        task, value = db.execute(
            "SELECT id, value FROM tasks WHERE lower = upper ORDER BY id LIMIT 1").fetchone()
        db.execute("UPDATE tasks SET value = value + 1, lower = lower + 1, upper = upper + 1 WHERE id = ?",
                   (task,))
    bad = cli("verify", "--store", str(store), "--sample", "0")
    assert bad.returncode == 1 and "NOT verified" in bad.stdout, bad.stdout
    assert "problem: root (empty)" in bad.stderr, bad.stderr
    # The same change is found again when that task is solved again.
    again = cli("verify", "--store", str(store), "--all")
    assert f"problem: task {task} " in again.stderr and f"the store says {value + 1}" in again.stderr


def test_bad_stores_are_refused_and_left_as_they_were(scheduler, tmp_path):
    store = tmp_path / "s.sqlite"
    assert c4.cluster.solve("", store=str(store), scheduler=scheduler, width=6, height=5) == 0
    cases = {
        "another board": ("", "the 6x5 board, not of 7x6"),
        "another version": ("UPDATE meta SET value = '0.0.1' WHERE name = 'solver_version'",
                            "written by another c4 (0.0.1"),
        "a newer c4": ("UPDATE meta SET value = '999.0.0' WHERE name = 'solver_version'",
                       "written by a newer c4 (999.0.0"),
        "a newer format": ("UPDATE meta SET value = '99' WHERE name = 'format'",
                           "written by a newer c4 (store format 99"),
    }
    for name, (sql, message) in cases.items():
        copy = tmp_path / f"{name}.sqlite"
        copy.write_bytes(store.read_bytes())
        if sql:
            with sqlite3.connect(copy) as db:
                db.execute(sql)
        board = ["--width", "6", "--height", "5"] if sql else []
        before = digest(copy)
        run = cli("solve", "44", *board, "--store", str(copy), "--scheduler", scheduler)
        assert run.returncode == 2 and message in run.stderr, (name, run.stderr)
        assert run.stderr.startswith("error: "), run.stderr
        assert digest(copy) == before, name
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database\n" * 100)
    run = cli("solve", "", "--store", str(junk), "--scheduler", scheduler)
    assert run.returncode == 2 and "not a c4 store" in run.stderr, run.stderr
    assert junk.read_bytes() == b"not a database\n" * 100
    run = cli("verify", "--store", str(tmp_path / "absent.sqlite"))
    assert run.returncode == 2 and "no such store" in run.stderr


def test_a_full_disk_stops_the_solve_and_keeps_the_store(scheduler, tmp_path):
    store = tmp_path / "s.sqlite"
    args = ["solve", "", "--width", "7", "--height", "5", "--store", str(store), "--scheduler",
            scheduler, "--depth", "6"]
    full = cli(*args, "--max-store-bytes", "36K")
    assert full.returncode == 2 and "the disk is full" in full.stderr, full.stderr
    assert rows(store, "PRAGMA integrity_check") == [("ok",)]
    kept = rows(store, "SELECT count(*) FROM tasks")[0][0]
    assert kept > 0
    again = cli(*args)
    assert again.returncode == 0 and again.stdout.strip() == "0", again.stderr
    assert f"{kept} tasks were in the store" in again.stderr
    assert cli("verify", "--store", str(store), "--sample", "3").returncode == 0


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store = tmp_path / "s.sqlite"
    run = cli("solve", "", "--store", str(store), "--scheduler", f"tcp://127.0.0.1:{port}",
              "--connect-timeout", "2", timeout=120)
    assert run.returncode == 2, run.stderr
    assert f"error: cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in run.stderr, run.stderr
    assert rows(store, "PRAGMA integrity_check") == [("ok",)]
    assert rows(store, "SELECT count(*) FROM tasks") == [(0,)]
