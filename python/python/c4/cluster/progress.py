"""The driver's progress display: tasks done, running and queued, nodes a
second and an estimate of the queued work, redrawn on one terminal line
(as indicatif draws c4's own bars) or written as log lines
(``--progress``)."""

from __future__ import annotations

import sys
import time
from typing import Optional, TextIO


def _count(n: float) -> str:
    """``1234567`` -> ``"1.23M"``."""
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.2f}{unit}"
    return f"{n:.0f}"


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"


class Progress:
    """The counts of a run and their display.

    Args:
        mode: ``"bar"`` (one line redrawn on ``out``, a terminal),
            ``"log"`` (a line every ``every`` seconds) or None (silent).
        stored: tasks the store held when the run began.
        threads: the cluster's worker threads.
    """

    def __init__(
        self,
        mode: Optional[str],
        *,
        out: TextIO = sys.stderr,
        every: float = 10.0,
        stored: int = 0,
        threads: int = 1,
    ) -> None:
        self.mode = mode
        self.out = out
        self.every = every
        self.stored = stored
        self.threads = max(1, threads)
        self.start = time.monotonic()
        self.done = 0
        self.in_flight = 0
        self.nodes = 0
        self.task_seconds = 0.0
        self.last = 0.0

    def submitted(self) -> None:
        self.in_flight += 1

    def finished_or_dropped(self) -> None:
        self.in_flight -= 1

    def solved(self, nodes: int) -> None:
        self.done += 1
        self.nodes += nodes

    def line(self) -> str:
        """The state in one line."""
        elapsed = max(time.monotonic() - self.start, 1e-9)
        running = min(self.in_flight, self.threads)
        queued = self.in_flight - running
        rate = self.nodes / elapsed
        # The queued tasks' share of the work, at the mean task's length so
        # far; the tree above may still open more.
        mean = elapsed * self.threads / self.done if self.done else 0.0
        left = self.in_flight * mean / self.threads
        estimate = f"~{_duration(left)} for the tasks in flight" if self.done else "no estimate yet"
        return (
            f"tasks: {self.done + self.stored} done ({self.stored} from the store), {running} running, "
            f"{queued} queued; {_count(rate)} nodes/s; {_duration(elapsed)} elapsed, {estimate}"
        )

    def tick(self, force: bool = False) -> None:
        """Draws the state if it is time to."""
        now = time.monotonic()
        if self.mode == "bar":
            if force or now - self.last >= 0.2:
                self.out.write("\r\x1b[2K" + self.line())
                self.out.flush()
                self.last = now
        elif self.mode == "log":
            if force or now - self.last >= self.every:
                self.out.write("progress: " + self.line() + "\n")
                self.out.flush()
                self.last = now

    def close(self) -> None:
        """The last state, and a new line after a bar."""
        if self.mode is not None:
            self.tick(force=True)
            if self.mode == "bar":
                self.out.write("\n")
                self.out.flush()
