"""Ctrl-C stops a long search within a second, and the GIL is released
while searching: other Python threads run."""

from __future__ import annotations

import _thread
import signal
import threading
import time
from typing import Callable

import pytest

import c4

# The empty 7x6 board without a book takes 10 s and more: long enough to be
# interrupted, never finished within the test.
LONG = ""
# A position of the middle game, solved in milliseconds without a book.
MIDDLE = "52753311433677442422121"


def send_sigint_to_main_thread() -> None:
    signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)


CALLS: dict[str, Callable[[c4.Solver], object]] = {
    "solve": lambda s: s.solve(LONG),
    "solve_weak": lambda s: s.solve(LONG, weak=True),
    "analyze": lambda s: s.analyze(LONG),
    "best_move": lambda s: s.best_move(LONG),
    "pv": lambda s: s.pv(LONG),
    "solve_many": lambda s: s.solve_many(["4453", LONG, "4"]),
    "solve_many_threads": lambda s: s.solve_many([LONG, "4", "44"], threads=2),
    # A review analyses the empty board first: every column is a long search.
    "review": lambda s: s.review("44"),
    "review_many_threads": lambda s: s.review_many(["4", "44"], threads=2),
}


@pytest.mark.parametrize("call", sorted(CALLS))
@pytest.mark.parametrize("send", [send_sigint_to_main_thread, _thread.interrupt_main])
def test_ctrl_c_stops_a_long_search_within_a_second(call: str, send) -> None:
    solver = c4.Solver(book=None, table="16M")
    fired: list[float] = []

    def fire() -> None:
        fired.append(time.monotonic())
        send()

    timer = threading.Timer(0.3, fire)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            CALLS[call](solver)
        stopped = time.monotonic()
    finally:
        timer.cancel()
        timer.join()
    assert fired, "the search ended before the interrupt"
    assert stopped - fired[0] < 1.0
    # The solver is still usable, and right (the book's solver, a witness).
    assert solver.solve(MIDDLE) == c4.solve(MIDDLE)
    assert solver.solve_many([MIDDLE, MIDDLE[:-1]], threads=2) == [
        c4.solve(MIDDLE),
        c4.solve(MIDDLE[:-1]),
    ]


def test_the_gil_is_released_while_searching() -> None:
    solver = c4.Solver(book=None, table="16M")
    count = 0
    done = threading.Event()
    seen: dict[str, object] = {}

    def counter() -> None:
        nonlocal count
        while not done.is_set():
            count += 1

    def watch() -> None:
        before = count
        time.sleep(0.5)
        seen["counted"] = count - before
        # The solver is busy in the main thread: a second call is refused.
        try:
            solver.solve("4453")
        except RuntimeError as e:
            seen["busy"] = str(e)
        _thread.interrupt_main()

    threads = [threading.Thread(target=counter), threading.Timer(0.2, watch)]
    for t in threads:
        t.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            solver.solve(LONG)
    finally:
        done.set()
        for t in threads:
            t.join()
    # Half a second of a Python loop running beside the search.
    assert seen["counted"] > 100_000
    assert "busy" in str(seen.get("busy"))
