"""npuzzle on a Dask cluster: batches of boards, and one hard board spread over the cluster.

Needs the ``distributed`` extra (``pip install "./python[distributed]"``: ``dask`` and
``distributed``). Every worker needs this package installed and the pattern databases its
boards use (a shared directory through ``NPUZZLE_PDB_DIR``, or a copy per node; see the
package README, "On a Dask cluster").

* :func:`solve_many` solves many boards, each on one worker, in chunks (one Dask task per
  chunk of boards, so the per-task overhead of a few milliseconds is paid once per chunk), and
  yields a :class:`BoardAnswer` per board as its chunk completes; :func:`solve_many_ordered`
  yields them in input order. A board's error comes back as a value
  (``BoardAnswer.error``), never as a failed batch; a chunk whose worker died is run again
  by Dask, and its answers still arrive exactly once.
* :func:`solve` spreads **one** board over the cluster: distributed IDA* in the manner of
  AIDA* (Reinefeld & Schnecke 1994). For each threshold in turn, a worker cuts the
  iteration's tree at a frontier of about ``frontier_size`` nodes; the driver submits them in
  packets, in depth-first order (the order of the local engine's threads), and the workers
  search the packets' subtrees depth-first. From the second spread iteration on, packets are
  sized by **predicted work**: each search reports the nodes generated below each of its
  frontier nodes, and a node's subtree in the next iteration is predicted from the subtrees
  of the previous one below (or above) it. A node predicted to hold more than a grain of work
  (the iteration's predicted work over ``8 x`` the workers) is first **split** into a deeper
  frontier on a worker (:meth:`_Solver.split`: nothing is searched twice), and nodes are
  packed until a packet holds about half a grain. The first solution found at a threshold
  stops every task of the iteration (a Dask ``Event`` the tasks poll) and is optimal with an
  admissible heuristic, as with the local IDA* engine; an interrupted search raises
  :class:`npuzzle.LimitReached` whose ``lower_bound`` is the threshold being searched (every
  smaller one was exhausted).

Worker processes keep one native solver per configuration (``_SOLVERS``): the pattern
databases are opened once per process and shared by its threads.
"""

from __future__ import annotations

import argparse
import dataclasses
import heapq
import json
import pickle
import sys
import threading
import time
import uuid
import zlib
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

try:
    from distributed import Client, Event, LocalCluster, as_completed, get_client
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(
        'npuzzle.distributed needs Dask: pip install "npuzzle[distributed]" '
        '(or pip install dask distributed)'
    ) from e

from . import _npuzzle
from ._errors import LimitReached
from ._npuzzle import Solution

__all__ = [
    "BoardAnswer",
    "main",
    "solve",
    "solve_many",
    "solve_many_ordered",
]

#: The options of :func:`npuzzle.solve` a worker's solver is built with.
SOLVER_OPTIONS = (
    "goal",
    "engine",
    "heuristic",
    "timeout",
    "max_nodes",
    "memory_limit",
    "optimal",
    "weight",
    "pdb",
    "pdb_dir",
    "size",
    "threads",
    "deterministic",
    "anytime",
    "reflect",
    "cycle_check",
)

# ---------------------------------------------------------------------------------------------
# Worker side


_SOLVERS: Dict[str, Any] = {}
_SOLVERS_LOCK = threading.Lock()


def _solver(options: Dict[str, Any]) -> Any:
    """This process's solver for ``options``, built on first use (tables opened once)."""
    key = repr(sorted(options.items()))
    with _SOLVERS_LOCK:
        s = _SOLVERS.get(key)
        if s is None:
            s = _npuzzle._Solver(**options)
            _SOLVERS[key] = s
        return s


def _solve_chunk(options: Dict[str, Any], chunk: List[Tuple[int, Any]]) -> bytes:
    """One task of :func:`solve_many`: ``(index, ok, json line or exception)`` per board,
    pickled and compressed (the JSON lines shrink about 10x, which halves the batch's time on
    small boards: BENCHMARKS.md, "npuzzle.distributed")."""
    solver = _solver(options)
    results = solver.solve_batch([board for _, board in chunk])
    out = [(index, ok, payload) for (index, _), (ok, payload) in zip(chunk, results)]
    try:
        data = pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # an exception that does not pickle: its message travels instead
        out = [(i, ok, p if ok else RuntimeError(f"{type(p).__name__}: {p}")) for i, ok, p in out]
        data = pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL)
    return zlib.compress(data, 1)


def _unpack_chunk(data: bytes) -> List[Tuple[int, bool, Any]]:
    return pickle.loads(zlib.decompress(data))


def _frontier(options: Dict[str, Any], board: Any, threshold: int, target: int) -> Dict[str, Any]:
    """One task of :func:`solve`: the frontier of the iteration with ``threshold``."""
    return _solver(options).frontier(board, threshold, target)


def _split(options: Dict[str, Any], board: Any, threshold: int, paths: List[str],
           target: int) -> Dict[str, Any]:
    """One task of :func:`solve`: the nodes below ``paths`` down to a level of at least
    ``target`` nodes (a packet predicted to be large, split before it is searched)."""
    return _solver(options).split(board, threshold, paths, target)


#: Seconds between two looks at the stop event from a running packet (each look is one round
#: trip to the scheduler).
STOP_POLL = 0.25


def _stopper(event_name: str) -> Callable[[], bool]:
    """A cheap ``stop()`` for :meth:`_Solver.search`: the Dask event, looked at every
    :data:`STOP_POLL` seconds."""
    event = Event(event_name)
    state = {"next": 0.0, "set": False}

    def stop() -> bool:
        now = time.monotonic()
        if not state["set"] and now >= state["next"]:
            state["next"] = now + STOP_POLL
            state["set"] = event.is_set()
        return state["set"]

    return stop


def _search(
    options: Dict[str, Any],
    board: Any,
    threshold: int,
    paths: List[str],
    event_name: str,
) -> Dict[str, Any]:
    """One packet of :func:`solve`: the subtrees below ``paths`` within ``threshold``;
    ``{"stopped": True}`` when the iteration was stopped before or during the search."""
    stop = _stopper(event_name)
    if stop():
        return {"stopped": True, "expanded": 0, "generated": 0, "seconds": 0.0,
                "subtree_generated": [0] * len(paths)}
    try:
        result = _solver(options).search(board, threshold, paths, stop=stop)
    except LimitReached as e:
        if e.limit != "cancelled":
            raise
        p = e.progress
        return {"stopped": True, "expanded": p["expanded"], "generated": p["generated"],
                "seconds": p["seconds"], "subtree_generated": [0] * len(paths)}
    result["stopped"] = False
    return result


def _whole_iteration(options: Dict[str, Any], board: Any, threshold: int, event_name: str,
                     target: int) -> Dict[str, Any]:
    """A small iteration as one task: its frontier of about ``target`` nodes and every
    subtree, on one worker; ``history`` is the nodes generated below each frontier node (the
    next iteration's packets are sized from it)."""
    f = _frontier(options, board, threshold, target)
    out = {"expanded": f["expanded"], "generated": f["generated"], "solution": f["solution"],
           "next_threshold": f["next_threshold"], "stopped": False, "heuristic": f["heuristic"],
           "seconds": 0.0, "history": {}}
    if f["solution"] is None and f["nodes"]:
        paths = [n[0] for n in f["nodes"]]
        s = _search(options, board, threshold, paths, event_name)
        out["expanded"] += s["expanded"]
        out["generated"] += s["generated"]
        out["seconds"] = s["seconds"]
        out["stopped"] = s["stopped"]
        if not s["stopped"]:
            out["solution"] = s["solution"]
            out["next_threshold"] = _min_threshold(f["next_threshold"], s["next_threshold"])
            out["history"] = dict(zip(paths, s["subtree_generated"]))
    return out


def _min_threshold(a: Optional[int], b: Optional[int]) -> Optional[int]:
    return b if a is None else a if b is None else min(a, b)


# ---------------------------------------------------------------------------------------------
# Batches


@dataclasses.dataclass(frozen=True)
class BoardAnswer:
    """The answer for one board of a batch.

    Attributes:
        index: the board's position in the input (0-based).
        board: the board as given.
        line: the JSON line ``npuzzle solve --format json`` prints for it (``None`` on error).
        error: the exception :func:`npuzzle.solve` would have raised (``ValueError``,
            :class:`npuzzle.LimitReached`, :class:`npuzzle.PdbError`, or Dask's
            ``KilledWorker`` when a chunk failed on every retry), else ``None``. An
            unsolvable board is an answer (``record["solvable"]`` false), not an error.
    """

    index: int
    board: Any
    line: Optional[str]
    error: Optional[BaseException]

    @property
    def ok(self) -> bool:
        """Whether the board has an answer (solved, or proven unsolvable)."""
        return self.error is None

    @property
    def record(self) -> Optional[Dict[str, Any]]:
        """The answer as a dict (``json.loads(line)``): ``length``, ``moves``, ``optimal``,
        ``guarantee``, ``lower_bound``, ``stats``, ``parity``, ... (``None`` on error)."""
        return None if self.line is None else json.loads(self.line)

    @property
    def length(self) -> Optional[int]:
        """The solution's length in moves (``None``: unsolvable or error)."""
        r = self.record
        return None if r is None else r["length"]


def _chunk_size(client: Client, n: int, chunk_size: Optional[int]) -> int:
    if chunk_size is not None:
        if chunk_size < 1:
            raise ValueError(f"bad chunk_size {chunk_size}: at least 1")
        return chunk_size
    threads = sum(client.nthreads().values()) or 1
    # About 2 chunks per worker thread (so that a slow chunk does not hold the batch back
    # alone), at most 2,500 boards per chunk (a chunk's answers are about 2 MB of JSON).
    return max(1, min(2500, -(-n // (2 * threads))))


def solve_many(
    boards: Iterable[Any],
    client: Optional[Client] = None,
    *,
    chunk_size: Optional[int] = None,
    retries: int = 2,
    progress: bool = False,
    **options: Any,
) -> Iterator[BoardAnswer]:
    """Solve many boards on the cluster, yielding a :class:`BoardAnswer` per board as its chunk
    completes (in completion order; :func:`solve_many_ordered` for input order).

    Args:
        boards: the boards, in any form :func:`npuzzle.solve` takes.
        client: the Dask client (default: the current one, ``distributed.get_client()``).
        chunk_size: boards per task (default: about 2 tasks per worker thread, at most 2,500
            boards each).
        retries: how many times Dask re-runs a chunk whose task raised (a worker that dies is
            handled by the scheduler itself: its tasks run again elsewhere).
        progress: show Dask's progress bar (``distributed.progress``).
        **options: every keyword of :func:`npuzzle.solve` (``goal``, ``engine``, ``heuristic``,
            ``timeout`` and ``max_nodes`` per board, ``pdb_dir``, ...); ``threads`` (IDA*'s
            threads per board) defaults to 1 here: run one worker process per core.

    Answers equal :func:`npuzzle.solve`'s (length, guarantee); each board's answer arrives
    exactly once, even when a worker dies and its chunk is run again.
    """
    options = _options(options)
    # One thread per board: a worker process is one core (IDA*'s thread pool would cost more
    # than these searches take on small boards).
    options.setdefault("threads", 1)
    _npuzzle._Solver(**options)  # bad options: ValueError here, not once per board
    client = client or get_client()
    items = list(enumerate(boards))
    if not items:
        return
    size = _chunk_size(client, len(items), chunk_size)
    futures = [
        client.submit(_solve_chunk, options, items[i : i + size], pure=False, retries=retries)
        for i in range(0, len(items), size)
    ]
    if progress:
        from distributed import progress as show

        show(futures)
    chunks = {f.key: items[i * size : (i + 1) * size] for i, f in enumerate(futures)}
    try:
        for future in as_completed(futures):
            chunk = chunks.pop(future.key)
            try:
                results = _unpack_chunk(future.result())
            except Exception as e:  # the task failed on every retry: each board gets the error
                for index, board in chunk:
                    yield BoardAnswer(index, board, None, e)
                continue
            for (index, board), (_, ok, payload) in zip(chunk, results):
                if ok:
                    yield BoardAnswer(index, board, payload, None)
                else:
                    yield BoardAnswer(index, board, None, payload)
    finally:
        client.cancel([f for f in futures if not f.done()])


def solve_many_ordered(
    boards: Iterable[Any], client: Optional[Client] = None, **kwargs: Any
) -> Iterator[BoardAnswer]:
    """:func:`solve_many`, yielding the answers in input order (each as soon as it and every
    earlier one are in)."""
    pending: List[Tuple[int, BoardAnswer]] = []
    expected = 0
    for answer in solve_many(boards, client, **kwargs):
        heapq.heappush(pending, (answer.index, answer))
        while pending and pending[0][0] == expected:
            yield heapq.heappop(pending)[1]
            expected += 1


def _options(options: Dict[str, Any]) -> Dict[str, Any]:
    unknown = sorted(set(options) - set(SOLVER_OPTIONS))
    if unknown:
        raise TypeError(f"unknown option(s) {', '.join(unknown)}: expected {', '.join(SOLVER_OPTIONS)}")
    if options.get("pdb_dir") is not None:
        import os

        options["pdb_dir"] = os.fspath(options["pdb_dir"])
    return options


# ---------------------------------------------------------------------------------------------
# One board across the cluster

#: An iteration that generated fewer nodes than this runs the next one as one task on one
#: worker (a millisecond of search is not worth a frontier and a round of packets).
SMALL_ITERATION = 250_000


def solve(
    board: Any,
    client: Optional[Client] = None,
    *,
    frontier_size: Optional[int] = None,
    packet_size: int = 4,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    cancel: Optional[threading.Event] = None,
    on_iteration: Optional[Callable[[Dict[str, Any]], None]] = None,
    plan_workers: Optional[int] = None,
    **options: Any,
) -> Solution:
    """Solve one board with IDA* spread over the cluster's workers (distributed AIDA*).

    Args:
        board: the start board (any form :func:`npuzzle.solve` takes).
        client: the Dask client (default: the current one).
        frontier_size: frontier nodes per iteration (default: 256 per worker thread; the
            frontier is a whole level of the tree, so up to about 3x more).
        packet_size: frontier nodes per task in the first spread iteration (later ones size
            their packets by predicted work: see the module's notes).
        plan_workers: the worker threads packets are planned for (default: the cluster's);
            ``python/bench/dask_bench.py`` plans for 16 on a 2-worker cluster to predict a
            16-worker run from measured packets.
        timeout: seconds for the whole search (wall clock, at the driver).
        max_nodes: generated nodes for the whole search (checked as packets come back, so it
            is overshot by at most the packets in flight).
        cancel: a ``threading.Event``; setting it stops the search and every task.
        on_iteration: called after each iteration with ``threshold``, ``expanded``,
            ``generated``, ``seconds`` (wall) and ``packets`` (each packet's search seconds,
            in completion order).
        **options: the keywords of :func:`npuzzle.solve` that choose the search (``goal``,
            ``heuristic``, ``pdb``, ``pdb_dir``, ``size``, ``reflect``, ``cycle_check``,
            ``threads`` per task, ``engine`` = ``"auto"`` or ``"idastar"``, ``optimal``).

    Returns:
        A :class:`npuzzle.Solution` (engine ``idastar``), optimal with an admissible heuristic.

    Raises:
        As :func:`npuzzle.solve`; :class:`npuzzle.LimitReached` (``"time"``, ``"nodes"`` or
        ``"cancelled"``) whose ``lower_bound`` is the threshold being searched.
    """
    options = _options(options)
    options.setdefault("threads", 1)
    local = _npuzzle._Solver(**options)  # validates; opens no table
    if local.trivial(board):
        from . import solve as solve_locally

        return solve_locally(board, **options)
    client = client or get_client()
    started = time.monotonic()
    if plan_workers is not None and plan_workers < 1:
        raise ValueError(f"bad plan_workers {plan_workers}: at least 1")
    workers = plan_workers or max(1, sum(client.nthreads().values()))
    if frontier_size is None:
        frontier_size = 256 * workers
    if packet_size < 1:
        raise ValueError(f"bad packet_size {packet_size}: at least 1")
    event_name = f"npuzzle-stop-{uuid.uuid4().hex}"
    # Every worker opens the tables at once (threshold 0: the start's h, nothing expanded), so
    # that no worker opens them in the middle of the first spread iteration while the others
    # wait for its packets. The futures are kept until the search ends (a released future's
    # task may be cancelled).
    opening = [
        client.submit(_frontier, options, board, 0, 1, pure=False, workers=[w],
                      allow_other_workers=False)
        for w in client.scheduler_info()["workers"]
    ] or [client.submit(_frontier, options, board, 0, 1, pure=False)]
    first = next(as_completed(opening)).result()
    heuristic = first["heuristic"]
    initial_h = first["initial_h"]
    threshold = initial_h
    iterations: List[Tuple[int, int, int]] = []
    totals = {"expanded": first["expanded"], "generated": first["generated"]}
    small = True
    history: Dict[str, int] = {}
    event: Optional[Event] = None

    def check_limits(extra_generated: int = 0) -> Optional[Tuple[str, Any]]:
        if cancel is not None and cancel.is_set():
            return ("cancelled", None)
        if timeout is not None and time.monotonic() - started >= timeout:
            return ("time", timeout)
        if max_nodes is not None and totals["generated"] + extra_generated >= max_nodes:
            return ("nodes", max_nodes)
        return None

    def stopped(limit: Tuple[str, Any], generated: int, expanded: int) -> LimitReached:
        name, value = limit
        progress = {"expanded": totals["expanded"] + expanded,
                    "generated": totals["generated"] + generated,
                    "seconds": time.monotonic() - started, "bound": threshold, "stored_states": 0,
                    "bound_kind": "f-bound"}
        words = {"cancelled": "cancellation", "time": f"time limit of {value} s",
                 "nodes": f"node limit of {value}"}[name]
        return LimitReached(
            f"search stopped by the {words}: distributed IDA* exhausted every threshold below "
            f"{threshold} (no solution shorter than {threshold} moves)",
            name, value, progress)

    try:
        while True:
            limit = check_limits()
            if limit is not None:
                raise stopped(limit, 0, 0)
            iter_start = time.monotonic()
            event = Event(event_name, client=client)
            event.clear()
            if small:
                found, nxt, expanded, generated, packets, history = _run_small(
                    client, options, board, threshold, event_name, check_limits, frontier_size)
            else:
                found, nxt, expanded, generated, packets, history = _run_spread(
                    client, options, board, threshold, event_name, frontier_size, packet_size,
                    check_limits, history, workers)
            if isinstance(found, tuple):  # a limit stopped the iteration
                raise stopped(found, generated, expanded)
            totals["expanded"] += expanded
            totals["generated"] += generated
            iterations.append((threshold, expanded, generated))
            if on_iteration is not None:
                on_iteration({"threshold": threshold, "expanded": expanded,
                              "generated": generated, "seconds": time.monotonic() - iter_start,
                              "packets": packets})
            if found is not None:
                return local.answer(board, heuristic, found, time.monotonic() - started,
                                    initial_h, iterations)
            if nxt is None:
                raise RuntimeError("internal error: an iteration ended without a next threshold")
            small = generated < SMALL_ITERATION
            threshold = nxt
    finally:
        if event is not None:
            event.set()


def _run_small(client, options, board, threshold, event_name, check_limits, frontier_size):
    """One iteration as one task; returns (solution | limit | None, next, expanded, generated,
    packets, the nodes generated below each frontier node)."""
    future = client.submit(_whole_iteration, options, board, threshold, event_name,
                           frontier_size, pure=False)
    result = _wait(client, [future], event_name, check_limits)
    if isinstance(result, tuple):
        return result, None, 0, 0, [], {}
    r = future.result()
    return (r["solution"], r["next_threshold"], r["expanded"], r["generated"], [r["seconds"]],
            r["history"])


def _wait(client, futures, event_name, check_limits):
    """Waits for every future unless a limit comes first: then stops the tasks and returns it."""
    while True:
        done = [f for f in futures if f.done()]
        if len(done) == len(futures):
            return None
        limit = check_limits()
        if limit is not None:
            Event(event_name, client=client).set()
            client.cancel(futures)
            return limit
        time.sleep(0.02)


#: Packets of predicted work per worker and iteration: a grain is the iteration's predicted
#: work over this many times the workers (list scheduling then leaves at most about one grain
#: of a worker's time idle at the iteration's end).
GRAINS_PER_WORKER = 8

#: The most nodes one split asks for (a node predicted at many grains is split into about four
#: times as many nodes as it holds grains, packed two or so a packet).
MAX_SPLIT = 4096


def _predict(paths: List[str], history: Dict[str, int]) -> Optional[List[float]]:
    """The predicted work below each of ``paths`` (frontier nodes as move strings, one letter a
    move) from ``history``, the nodes generated below each frontier node of the previous
    spread iteration: a node's prediction is what was generated below it (the nodes of the
    old frontier at or under it), plus an equal share of an old node above it among the new
    nodes under that one. Subtrees grow by about the same factor from one threshold to the
    next (Korf, Reid & Edelkamp 2001), so the shares predict the new iteration's shares.
    Nodes with nothing known get the median prediction. ``None`` without a history.
    O(total path length)."""
    if not history:
        return None
    below: Dict[str, int] = {}
    for q, n in history.items():
        for k in range(len(q) + 1):
            below[q[:k]] = below.get(q[:k], 0) + n
    under: Dict[str, int] = {}
    for p in paths:
        for k in range(len(p)):
            if p[:k] in history:
                under[p[:k]] = under.get(p[:k], 0) + 1
    costs = []
    for p in paths:
        c = float(below.get(p, 0))
        for k in range(len(p)):
            if p[:k] in history:
                c += history[p[:k]] / under[p[:k]]
        costs.append(c)
    known = sorted(c for c in costs if c > 0)
    if not known:
        return None
    floor = known[len(known) // 2]
    return [c if c > 0 else floor for c in costs]


def _pack(paths: List[str], costs: List[float], grain: float) -> List[Tuple[List[str], float, int]]:
    """Packets of ``paths`` in their order: ``(paths, predicted work, split target)``; a node
    predicted above ``grain`` is a packet of its own with a split target (the nodes to split
    it into), other nodes are packed until a packet holds half a grain."""
    plan: List[Tuple[List[str], float, int]] = []
    cur: List[str] = []
    cur_cost = 0.0
    for p, c in zip(paths, costs):
        if c > grain:
            if cur:
                plan.append((cur, cur_cost, 0))
                cur, cur_cost = [], 0.0
            plan.append(([p], c, min(MAX_SPLIT, int(4 * c / grain) + 1)))
            continue
        cur.append(p)
        cur_cost += c
        if cur_cost >= grain / 2:
            plan.append((cur, cur_cost, 0))
            cur, cur_cost = [], 0.0
    if cur:
        plan.append((cur, cur_cost, 0))
    return plan


def _run_spread(client, options, board, threshold, event_name, frontier_size, packet_size,
                check_limits, history, workers):
    """One iteration across the cluster: the frontier, then packets in depth-first order (sized
    by the work ``history`` predicts, large nodes split first); the first solution stops the
    rest. Returns (solution | limit | None, next threshold, expanded, generated, packet
    seconds, the nodes generated below each searched node)."""
    f = client.submit(_frontier, options, board, threshold, frontier_size, pure=False).result()
    expanded, generated = f["expanded"], f["generated"]
    if f["solution"] is not None:
        return f["solution"], None, expanded, generated, [], {}
    nxt = f["next_threshold"]
    paths = [n[0] for n in f["nodes"]]
    costs = _predict(paths, history)
    if costs is None:
        plan = [(paths[i : i + packet_size], 0.0, 0) for i in range(0, len(paths), packet_size)]
        grain = 0.0
    else:
        grain = sum(costs) / (GRAINS_PER_WORKER * workers)
        plan = _pack(paths, costs, grain)
    futures = []
    kinds: Dict[str, Tuple[str, int, Any]] = {}

    def submit(fn, *args, kind, position, payload, priority):
        future = client.submit(fn, options, board, threshold, *args, pure=False, priority=priority)
        futures.append(future)
        kinds[future.key] = (kind, position, payload)
        return future

    top = len(plan) + 1
    for i, (packet, cost, target) in enumerate(plan):
        if target:
            # Splits are short (a few levels of one node): they go first.
            submit(_split, packet, target, kind="split", position=i, payload=cost, priority=top)
        else:
            submit(_search, packet, event_name, kind="search", position=i, payload=packet,
                   priority=top - 1 - i)
    seconds: List[float] = []
    searched: Dict[str, int] = {}
    found = None
    pending = as_completed(futures)
    try:
        while True:
            batch = pending.next_batch(block=False)
            if not batch:
                if pending.is_empty():
                    break
                limit = check_limits(generated)
                if limit is not None:
                    Event(event_name, client=client).set()
                    return limit, None, expanded, generated, seconds, {}
                time.sleep(0.01)
                continue
            for future in batch:
                kind, position, payload = kinds[future.key]
                r = future.result()
                expanded += r["expanded"]
                generated += r["generated"]
                if kind == "split":
                    nxt = _min_threshold(nxt, r["next_threshold"])
                    if r["solution"] is not None and found is None:
                        found = r["solution"]
                        Event(event_name, client=client).set()
                        continue
                    children = [n[0] for n in r["nodes"]]
                    if not children or found is not None:
                        continue
                    share = payload / len(children)
                    for packet, _, _ in _pack(children, [share] * len(children), grain):
                        pending.add(submit(_search, packet, event_name, kind="search",
                                           position=position, payload=packet,
                                           priority=top - 1 - position))
                    continue
                if r["stopped"]:
                    continue
                seconds.append(r["seconds"])
                for path, n in zip(payload, r["subtree_generated"]):
                    searched[path] = n
                if r["solution"] is not None and found is None:
                    found = r["solution"]
                    Event(event_name, client=client).set()
                    client.cancel([g for g in futures if not g.done()])
                nxt = _min_threshold(nxt, r["next_threshold"])
            if found is not None:
                break
    finally:
        # A solution or a limit: the packets not started yet are dropped.
        client.cancel([g for g in futures if not g.done()])
    return found, nxt, expanded, generated, seconds, searched


# ---------------------------------------------------------------------------------------------
# Command line


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m npuzzle.distributed``: solve the boards of FILE (or standard input) on a
    Dask cluster and print one JSON line per board (those of ``npuzzle solve --format
    json``), in input order. Exit status as ``npuzzle solve``: 0 all solved, 1 some board
    proven unsolvable, 2 an error."""
    p = argparse.ArgumentParser(
        prog="python -m npuzzle.distributed",
        description="Solve sliding-tile puzzles on a Dask cluster; prints the JSON lines of "
        "`npuzzle solve --format json`.",
    )
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", metavar="ADDRESS", help="the Dask scheduler (tcp://host:8786)")
    where.add_argument("--local", metavar="N", type=int,
                       help="start a local cluster of N single-threaded worker processes")
    p.add_argument("file", nargs="?", help="the boards (default: standard input)")
    p.add_argument("--one", action="store_true",
                   help="spread the (single) board over the whole cluster (distributed IDA*)")
    p.add_argument("--goal", help="blank-last (default), blank-first or a goal board")
    p.add_argument("--engine", default="auto")
    p.add_argument("--heuristic")
    p.add_argument("--pdb", help="pattern-database partition")
    p.add_argument("--pdb-dir", help="pattern-database directory (default $NPUZZLE_PDB_DIR)")
    p.add_argument("--size", help="board shape WxH when the boards do not give it")
    p.add_argument("--optimal", action="store_true")
    p.add_argument("--timeout", type=float, help="seconds per board (with --one: in all)")
    p.add_argument("--max-nodes", type=int, help="generated nodes per board (with --one: in all)")
    p.add_argument("--chunk-size", type=int, help="boards per task")
    p.add_argument("--frontier-size", type=int, help="--one: frontier nodes per iteration")
    p.add_argument("--packet-size", type=int, default=4, help="--one: frontier nodes per task")
    args = p.parse_args(argv)
    try:
        text = open(args.file).read() if args.file else sys.stdin.read()
        boards = _npuzzle.read_boards(text, size=args.size)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    options = {k: v for k, v in {
        "goal": args.goal, "engine": args.engine, "heuristic": args.heuristic, "pdb": args.pdb,
        "pdb_dir": args.pdb_dir, "size": args.size, "optimal": args.optimal,
    }.items() if v is not None}
    cluster = None
    if args.local is not None:
        cluster = LocalCluster(n_workers=args.local, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(args.scheduler)
    status = 0
    try:
        if args.one:
            if len(boards) != 1:
                print(f"error: --one spreads one board, got {len(boards)}", file=sys.stderr)
                return 2
            try:
                s = solve(boards[0], client, timeout=args.timeout, max_nodes=args.max_nodes,
                          frontier_size=args.frontier_size, packet_size=args.packet_size,
                          **options)
            except Exception as e:
                print(f"error: {e}", file=sys.stderr)
                return 1 if type(e).__name__ == "Unsolvable" else 2
            print(s.record(), flush=True)
            return 0
        if args.timeout is not None:
            options["timeout"] = args.timeout
        if args.max_nodes is not None:
            options["max_nodes"] = args.max_nodes
        for answer in solve_many_ordered(boards, client, chunk_size=args.chunk_size, **options):
            if answer.error is not None:
                print(f"error: board {answer.index + 1}: {answer.error}", file=sys.stderr)
                status = 2
                continue
            print(answer.line, flush=True)
            if not answer.record["solvable"] and status == 0:
                status = 1
        return status
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    sys.exit(main())
