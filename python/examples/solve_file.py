#!/usr/bin/env python3
"""Solve every board of an instance file across processes, and check each length.

    python python/examples/solve_file.py testdata/seed15.txt --workers 2
    python python/examples/solve_file.py testdata/korf100.txt --goal blank-first --first 10

An instance file has one board a line with its known optimal length (``ID T0 .. T(N-1) LENGTH``,
``HEX LENGTH`` or ``ID HEX LENGTH``; the file's header names the goal). Boards are handed to a
``concurrent.futures.ProcessPoolExecutor`` (started with "spawn"): each worker process solves one board at a time with
``threads=1`` (the processes, not IDA*'s threads, use the cores) and opens the pattern databases
once, memory-mapped from the shared cache. The script prints one line a board and exits 1 if any
length differs from the file's.

``solve_one`` is a plain top-level function of picklable arguments returning a dict, so any
executor runs it: ``run(..., executor=client.get_executor())`` with a Dask ``distributed.Client``,
or ``ray.remote(solve_one)`` with Ray (see python/README.md, "Beyond one machine").
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, Optional

import npuzzle


def solve_one(
    board: List[List[int]], goal: str = "blank-last", pdb: Optional[str] = None
) -> Dict[str, Any]:
    """Solve one board in this process; return plain values (length, moves, optimal, stats)."""
    s = npuzzle.solve(board, goal=goal, pdb=pdb, threads=1)
    return {
        "length": s.length,
        "moves": s.moves,
        "optimal": s.optimal,
        "generated": s.stats.get("generated", 0),
        "seconds": s.stats.get("seconds", 0.0),
    }


def run(
    path: Path,
    goal: str = "blank-last",
    pdb: Optional[str] = None,
    first: Optional[int] = None,
    executor: Optional[Executor] = None,
    workers: Optional[int] = None,
) -> int:
    """Solve the file's boards on ``executor`` (default: a process pool); return mismatches."""
    instances = npuzzle.parse_instances(path.read_text())[:first]
    width, height = len(instances[0]["board"][0]), len(instances[0]["board"])
    if pdb is not None or width * height <= 16:
        # Build (or find) the tables once here, so that the workers do not all build them
        # (auto builds the default tables itself only up to 16 cells).
        npuzzle.pdb_build((width, height), partition=pdb or "default", goal=goal)
    own = executor is None
    # "spawn", not Linux's default "fork": a forked child inherits no threads, so a thread pool
    # the parent started (pattern-database builds use one) would be unusable in the workers.
    spawn = multiprocessing.get_context("spawn")
    pool = executor if executor is not None else ProcessPoolExecutor(workers, mp_context=spawn)
    start = time.perf_counter()
    bad = 0
    try:
        futures = [pool.submit(solve_one, i["board"], goal, pdb) for i in instances]
        for inst, future in zip(instances, futures):
            r = future.result()
            ok = r["length"] == inst["optimal"] and r["optimal"]
            bad += not ok
            print(
                f"{inst['id']:>18}  {r['length']:3d} moves  {'ok ' if ok else 'MISMATCH'}"
                f"  {r['generated']:>12,} nodes  {r['seconds']:8.3f} s  {r['moves']}"
            )
    finally:
        if own:
            pool.shutdown()
    print(f"{len(instances)} boards, {bad} mismatches, {time.perf_counter() - start:.2f} s wall")
    return bad


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file", type=Path, help="an instance file, e.g. testdata/seed15.txt")
    p.add_argument("--goal", default="blank-last", help="blank-last (default) or blank-first")
    p.add_argument("--pdb", default=None, help="pattern-database partition (default: auto's)")
    p.add_argument("--first", type=int, default=None, help="only the first N boards")
    p.add_argument("--workers", type=int, default=None, help="processes (default: one per core)")
    a = p.parse_args(argv)
    return 1 if run(a.file, a.goal, a.pdb, a.first, workers=a.workers) else 0


if __name__ == "__main__":
    sys.exit(main())
