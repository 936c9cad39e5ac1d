#!/usr/bin/env python3
"""Time npuzzle.solve against two popular Python packages on the same boards.

The other packages are not dependencies of npuzzle: install them, with the npuzzle wheel, in a
throwaway virtual environment and run this script there::

    python3 -m venv /tmp/bench && /tmp/bench/bin/pip install ./python fifteen-puzzle-solvers slidingpuzzle
    NPUZZLE_PDB_DIR=/tmp/bench/pdb /tmp/bench/bin/python python/bench/compare.py --timeout 30

Solvers compared, each on the blank-last goal (the others' only goal):

* ``npuzzle`` -- ``npuzzle.solve(board)``: the defaults (auto policy: IDA* with the 7-6-2 /
  4-4 pattern databases, built once into the cache before timing) -- and
  ``npuzzle.solve(board, engine="idastar", heuristic="linear-conflict", threads=1)``, one core
  and no tables, the heuristic the others use.
* ``fifteen-puzzle-solvers`` (2.0.3) -- ``PuzzleSolver(AStar(Puzzle(rows))).run()``, its A*
  with its default heuristic. Its queue orders states by heuristic alone (no path cost g),
  so it is greedy best-first search: fast to some answer, not the shortest.
* ``slidingpuzzle`` (0.1.5) -- ``search(board, "a*")`` and ``search(board, "ida*")`` with its
  default heuristic (linear conflict plus last-moves and corner-tiles terms). Its IDA* keeps a
  visited set within an iteration, which cuts off shorter paths to states first reached by a
  longer one, so it can return non-optimal answers.

Each foreign solve runs in its own process, killed after ``--timeout`` seconds. Lengths are
compared with the known optimum from the instance file (and npuzzle's proof); the others'
answers are checked to be legal move sequences reaching the goal. Prints a Markdown table: time
per board in seconds, the solution length, ``*`` after a non-optimal length.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import platform
import statistics
import time
from pathlib import Path
from typing import Any, Callable, List, Optional, Tuple

import npuzzle

TESTDATA = Path(__file__).resolve().parents[2] / "testdata"
Rows = List[List[int]]


def boards(first15: int) -> List[Tuple[str, Rows, int]]:
    """The two 31-move 8-puzzles (blank-last) and the first seed15 boards: (id, rows, optimum)."""
    out = []
    for i in npuzzle.parse_instances((TESTDATA / "eight31.txt").read_text()):
        if i["id"].startswith("A31"):
            out.append((i["id"], i["board"], i["optimal"]))
    for i in npuzzle.parse_instances((TESTDATA / "seed15.txt").read_text())[:first15]:
        out.append((i["id"], i["board"], i["optimal"]))
    return out


def goal_of(rows: Rows) -> Rows:
    n, w = len(rows) * len(rows[0]), len(rows[0])
    cells = list(range(1, n)) + [0]
    return [cells[r * w : (r + 1) * w] for r in range(len(rows))]


def fps_solve(rows: Rows) -> int:
    """fifteen-puzzle-solvers' A*: returns the number of moves, checking the states it returns."""
    from fifteen_puzzle_solvers.domain import Puzzle
    from fifteen_puzzle_solvers.services.algorithms import AStar
    from fifteen_puzzle_solvers.services.solver import PuzzleSolver

    solver = PuzzleSolver(AStar(Puzzle([list(r) for r in rows])))
    solver.run()
    states = [p.position for p in solver.get_solution()]  # the start first, the goal last
    assert states[0] == rows and states[-1] == goal_of(rows), "no solution returned"
    for a, b in zip(states, states[1:]):
        diff = [(r, c) for r in range(len(a)) for c in range(len(a[0])) if a[r][c] != b[r][c]]
        (r1, c1), (r2, c2) = diff
        assert len(diff) == 2 and abs(r1 - r2) + abs(c1 - c2) == 1 and 0 in (a[r1][c1], a[r2][c2])
    return len(states) - 1


def sp_solve(rows: Rows, alg: str) -> int:
    """slidingpuzzle's search(board, alg): returns the number of moves, replaying them."""
    import numpy as np
    import slidingpuzzle as sp

    board = sp.from_rows(*rows)
    result = sp.search(board, alg)
    assert result.solution is not None, "no solution returned"
    b = np.copy(board)
    for y, x in result.solution:  # each move names the cell of the tile that slides
        by, bx = sp.find_blank(b)
        assert abs(by - y) + abs(bx - x) == 1
        b[by][bx], b[y][x] = b[y][x], 0
    assert b.tolist() == goal_of(rows), "the moves do not reach the goal"
    return len(result.solution)


def _child(fn: Callable[..., int], args: Tuple[Any, ...], queue: Any) -> None:
    # Imports outside the timed part.
    import fifteen_puzzle_solvers.services.solver  # noqa: F401
    import slidingpuzzle  # noqa: F401

    start = time.perf_counter()
    try:
        length = fn(*args)
        queue.put((length, time.perf_counter() - start, None))
    except Exception as e:  # reported in the table
        queue.put((None, time.perf_counter() - start, repr(e)))


def timed_in_process(
    fn: Callable[..., int], args: Tuple[Any, ...], timeout: float
) -> Tuple[Optional[int], Optional[float], str]:
    """Runs fn(*args) in a fresh process: (length, seconds, note); length None on timeout."""
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    p = ctx.Process(target=_child, args=(fn, args, queue))
    p.start()
    try:
        length, seconds, error = queue.get(timeout=timeout + 10)  # + process start-up
    except Exception:
        p.kill()
        p.join()
        return None, None, f"> {timeout:g} s"
    p.join()
    if error is not None:
        return None, seconds, error
    if seconds > timeout:
        return None, None, f"> {timeout:g} s"
    return length, seconds, ""


def npuzzle_time(rows: Rows, repeat: int, **options: Any) -> Tuple[int, float, bool]:
    """Median wall time of npuzzle.solve over `repeat` runs, in this process (tables open)."""
    times, s = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        s = npuzzle.solve(rows, **options)
        times.append(time.perf_counter() - start)
    assert s is not None
    return s.length, statistics.median(times), s.optimal


def cell(length: Optional[int], seconds: Optional[float], note: str, optimum: int) -> str:
    if length is None:
        return note if note.startswith(">") else f"error: {note[:40]}"
    star = "" if length == optimum else "*"
    assert seconds is not None
    t = f"{seconds * 1e3:.2g} ms" if seconds < 0.1 else f"{seconds:.2f} s"
    return f"{t} ({length}{star})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per foreign solve")
    ap.add_argument("--first15", type=int, default=5, help="how many seed15 boards (of 9)")
    ap.add_argument("--repeat", type=int, default=5, help="npuzzle runs per board (median)")
    a = ap.parse_args()

    cases = boards(a.first15)
    # Tables first (the 15-puzzle's 7-6-2: 20-30 s once), then one warm-up solve per shape.
    for size in sorted({(len(r[0]), len(r)) for _, r, _ in cases}):
        npuzzle.pdb_build(size)
    for _, rows, _ in cases:
        npuzzle.solve(rows)

    head = [
        "board",
        "optimal",
        "npuzzle (auto)",
        "npuzzle idastar+LC, 1 thread",
        "fifteen-puzzle-solvers A*",
        "slidingpuzzle a*",
        "slidingpuzzle ida*",
    ]
    print(
        f"Python {platform.python_version()}, npuzzle {npuzzle.__version__}, timeout {a.timeout:g} s per foreign solve"
    )
    print()
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name, rows, optimum in cases:
        length, secs, optimal = npuzzle_time(rows, a.repeat)
        assert length == optimum and optimal, (name, length, optimum)
        row = [name, str(optimum), cell(length, secs, "", optimum)]
        length, secs, optimal = npuzzle_time(
            rows, a.repeat, engine="idastar", heuristic="linear-conflict", threads=1
        )
        assert length == optimum and optimal, (name, length, optimum)
        row.append(cell(length, secs, "", optimum))
        for fn, args in (
            (fps_solve, (rows,)),
            (sp_solve, (rows, "a*")),
            (sp_solve, (rows, "ida*")),
        ):
            row.append(cell(*timed_in_process(fn, args, a.timeout), optimum))
        print("| " + " | ".join(row) + " |", flush=True)
    print()
    print("Time: wall seconds per board (npuzzle: median of the runs, tables already open);")
    print("(n) the solution's length in moves, * = longer than the optimum.")


if __name__ == "__main__":
    main()
