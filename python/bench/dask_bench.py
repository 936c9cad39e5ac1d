"""Timings of npuzzle.distributed on a LocalCluster (BENCHMARKS.md, "npuzzle.distributed").

    python python/bench/dask_bench.py batch BOARDS_FILE [--workers 2]
    python python/bench/dask_bench.py one "BOARD" --goal blank-first --pdb-dir DIR \
        [--workers 2] [--frontier 128,512,2048] [--packet 4] [--runs 3] [--plan-workers 16] \
        [--baseline-seconds S]

    python python/bench/dask_bench.py versus "BOARD" --goal blank-first --pdb-dir DIR [--runs 3]

``batch``: boards per second of ``solve_many`` on a warm cluster (the workers have solved a
first chunk, so their solvers exist) over every board of the file.

``one``: wall time of ``npuzzle.distributed.solve`` on a warm cluster (each worker has opened
the tables with a first solve) per frontier size, the total packet search time, the measured
efficiency against ``--baseline-seconds`` (one thread's time, from ``npuzzle solve --threads
1``), and the efficiency predicted for 16 and 64 workers: the measured packets of every
iteration, in completion order, list-scheduled on P workers (each takes the next packet when
free) plus the measured per-packet overhead; efficiency = work / (P x makespan), per
iteration and over every iteration searched to the end (work-weighted). With
``--plan-workers P`` the driver plans its packets (frontier size, grains) for P workers, as a
P-worker cluster's driver would, while 2 workers search them: the packets are then those a
P-worker run gets, and their list schedule on P workers is the prediction. The wall time of
such a run is not a 2-worker run's (more, smaller packets).
"""

from __future__ import annotations

import argparse
import heapq
import statistics
import time
from typing import Dict, List

from distributed import Client, LocalCluster

import npuzzle
import npuzzle.distributed as nd


def makespan(packets: List[float], workers: int, overhead: float) -> float:
    free = [0.0] * workers
    for p in packets:
        t = heapq.heappop(free)
        heapq.heappush(free, t + p + overhead)
    return max(free)


def batch(args: argparse.Namespace, client: Client) -> None:
    boards = npuzzle._npuzzle.read_boards(open(args.file).read())
    list(nd.solve_many(boards[:200], client))  # warm: every worker builds its solver
    for _ in range(args.runs):
        t = time.perf_counter()
        n = sum(1 for a in nd.solve_many(boards, client) if a.ok)
        dt = time.perf_counter() - t
        print(f"batch: {n} boards in {dt:.2f} s = {n / dt:.0f} boards/s")


def one(args: argparse.Namespace, client: Client) -> None:
    options = {"goal": args.goal, "pdb_dir": args.pdb_dir}
    nd.solve(args.board, client, **options)  # warm: both workers open the tables
    for size in [int(s) for s in args.frontier.split(",")]:
        for run in range(args.runs):
            its: List[Dict] = []
            t = time.perf_counter()
            plan = {"plan_workers": args.plan_workers} if args.plan_workers else {}
            s = nd.solve(args.board, client, frontier_size=size, packet_size=args.packet,
                         on_iteration=its.append, **plan, **options)
            wall = time.perf_counter() - t
            line = f"frontier {size} packet {args.packet} run {run}: {s.length} moves, wall {wall:.2f} s"
            if args.baseline_seconds:
                line += f", efficiency at {args.workers}: {args.baseline_seconds / (args.workers * wall):.2f}"
            print(line)
            # The spread iterations searched to the end (all but the last): their packets are
            # complete, so their durations are the work-packet spread.
            totals: Dict[int, List[float]] = {}
            for i in its[:-1]:
                if len(i["packets"]) < 2:
                    continue
                p = i["packets"]
                work = sum(p)
                overhead = max(0.0, (i["seconds"] * args.workers - work) / len(p))
                print(f"    threshold {i['threshold']}: {i['generated']} generated, {len(p)} packets, "
                      f"work {work:.2f} s, median {statistics.median(p) * 1000:.1f} ms, "
                      f"max {max(p) * 1000:.0f} ms, wall {i['seconds']:.2f} s "
                      f"(efficiency {work / (args.workers * i['seconds']):.2f}), "
                      f"overhead {overhead * 1000:.1f} ms/packet")
                for w in (args.workers, 16, 64):
                    for o in (overhead, 0.0):
                        print(f"      predicted at {w} workers, {o * 1000:.1f} ms/packet: "
                              f"{work / (w * makespan(p, w, o)):.2f}")
                    span = makespan(p, w, overhead)
                    t = totals.setdefault(w, [0.0, 0.0])
                    t[0] += work
                    t[1] += w * span
            for w, (work, capacity) in sorted(totals.items()):
                if capacity > 0:
                    print(f"    every complete iteration at {w} workers: predicted efficiency "
                          f"{work / capacity:.2f} (work {work:.2f} s)")
            last = its[-1]
            print(f"    last threshold {last['threshold']}: {last['generated']} generated, "
                  f"wall {last['seconds']:.2f} s")


def versus(args: argparse.Namespace, client: Client) -> None:
    """Wall time of ``npuzzle.solve(threads=W)`` in this process against
    ``npuzzle.distributed.solve`` on the W-worker cluster, interleaved run by run; both warm
    (each has solved the board once, so every process has opened the tables)."""
    options = {"goal": args.goal, "pdb_dir": args.pdb_dir}
    local = npuzzle.solve(args.board, threads=args.workers, optimal=True, **options)
    nd.solve(args.board, client, **options)
    ratios = []
    for run in range(args.runs):
        t = time.perf_counter()
        a = npuzzle.solve(args.board, threads=args.workers, optimal=True, **options)
        t_local = time.perf_counter() - t
        t = time.perf_counter()
        b = nd.solve(args.board, client, **options)
        t_dist = time.perf_counter() - t
        assert a.length == b.length == local.length
        ratios.append(t_dist / t_local)
        print(f"run {run}: {a.length} moves; npuzzle.solve(threads={args.workers}) {t_local:.2f} s "
              f"({a.stats['generated']} generated), distributed on {args.workers} workers "
              f"{t_dist:.2f} s ({b.stats['generated']} generated): {t_dist / t_local:.3f}x")
    print(f"median ratio {statistics.median(ratios):.3f}x")


def main() -> None:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="what", required=True)
    b = sub.add_parser("batch")
    b.add_argument("file")
    o = sub.add_parser("one")
    o.add_argument("board")
    v = sub.add_parser("versus")
    v.add_argument("board")
    v.add_argument("--goal", default="blank-last")
    v.add_argument("--pdb-dir")
    o.add_argument("--goal", default="blank-last")
    o.add_argument("--pdb-dir")
    o.add_argument("--frontier", default="128,512,2048")
    o.add_argument("--packet", type=int, default=4)
    o.add_argument("--baseline-seconds", type=float)
    o.add_argument("--plan-workers", type=int,
                   help="plan the packets for this many workers (default: the cluster's)")
    for s in (b, o, v):
        s.add_argument("--workers", type=int, default=2)
        s.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, dashboard_address=None)
    client = Client(cluster)
    try:
        {"batch": batch, "one": one, "versus": versus}[args.what](args, client)
    finally:
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
