"""npuzzle: optimal sliding-tile puzzle solving (8-, 15-, 24-puzzle, any W x H up to 127 x 127).

A thin binding of the Rust ``npuzzle`` library (the same engines, auto policy, board formats,
goals, move notation and pattern-database cache as the ``npuzzle`` command line)::

    >>> import npuzzle
    >>> s = npuzzle.solve("8 6 7 2 5 4 3 0 1")
    >>> s.length, s.optimal
    (31, True)

Conventions:

* Cells are row-major; tile ``0`` is the blank. A board is a string in any format the CLI
  reads (``"8 6 7 2 5 4 3 0 1"``, ``"867254301"``, rows on lines, ``1,2,3``), a flat sequence
  of ints, a sequence of rows, or anything with ``.tolist()`` (a numpy array).
* Goals: ``"blank-last"`` (default, ``1 2 ... N-1 0``), ``"blank-first"`` (``0 1 ... N-1``,
  Korf's convention) or a goal board in any of the forms above.
* Moves are letters ``U D L R`` naming the direction **the tile slides** into the blank
  (``U``: the tile below the blank moves up, so the blank moves down).
* Lengths and bounds are in moves, times in seconds, memory in bytes.

Searches release the GIL, so threads solve boards in parallel; Ctrl-C (``KeyboardInterrupt``)
cancels a search within about 50 ms.

Errors: ``ValueError`` (bad board, goal or options, with the CLI's message), ``TypeError``
(an argument of the wrong type), :class:`Unsolvable` (a parity proof, before any search),
:class:`LimitReached` (a limit stopped the search; never "no solution"), :class:`PdbError`.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _npuzzle
from ._errors import Error, LimitReached, PdbError, Unsolvable
from ._npuzzle import Solution

__all__ = [
    "ENGINES",
    "HEURISTICS",
    "Error",
    "LimitReached",
    "PdbError",
    "Solution",
    "Unsolvable",
    "check",
    "generate",
    "parse_instances",
    "pdb_build",
    "solve",
]

__version__ = "0.1.0"

#: The engines ``solve(engine=...)`` accepts besides ``"auto"`` (the CLI's ``--engine``).
ENGINES: Tuple[str, ...] = tuple(_npuzzle.ENGINE_NAMES)
#: The heuristics ``solve(heuristic=...)`` accepts (the CLI's ``--heuristic``).
HEURISTICS: Tuple[str, ...] = tuple(_npuzzle.HEURISTIC_NAMES)

Board = Union[str, Sequence[int], Sequence[Sequence[int]], Any]
Size = Union[str, int, Tuple[int, int]]
PathLike = Union[str, "os.PathLike[str]"]


def solve(
    board: Board,
    *,
    goal: Optional[Board] = None,
    engine: str = "auto",
    heuristic: Optional[str] = None,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    memory_limit: Optional[int] = None,
    optimal: bool = False,
    weight: Optional[float] = None,
    pdb: Optional[str] = None,
    pdb_dir: Optional[PathLike] = None,
    size: Optional[Size] = None,
    threads: int = 0,
    deterministic: bool = False,
    anytime: float = 1.0,
    reflect: bool = True,
    cycle_check: str = "parent",
    metric: str = "stm",
    max_depth: Optional[int] = None,
    seed: Optional[int] = None,
    max_steps: Optional[int] = None,
    all_optimal: bool = False,
    count: bool = False,
    limit: Optional[int] = None,
    within: Optional[int] = None,
) -> Solution:
    """Solve one board: the shortest solution when it can be proven, else the best found.

    Same defaults as ``npuzzle solve``: goal blank-last and the **auto policy** -- IDA* with
    additive pattern databases on boards of at most 16 cells (the 15-puzzle's 7-6-2 tables
    are built once on first use, about 20-30 s, and cached), the 24-puzzle's 6-6-6-6 tables
    when cached, else IDA* with linear conflict or, on boards too far from the goal, an
    anytime answer that says it is not proven optimal (``optimal=True`` forbids that).
    Every answer is replayed to the goal before it is returned.

    Args:
        board: the start board (see the module docs for the forms).
        goal: ``"blank-last"`` (default), ``"blank-first"`` or a goal board.
        engine: ``"auto"`` or one of :data:`ENGINES` (``idastar``, ``astar``,
            ``bidirectional``, ``weighted-astar``, ``constructive``, ``greedy``,
            ``astar-idastar``, ``beam``, ``hill-climbing``; the Rust registry's names).
        heuristic: one of :data:`HEURISTICS` (``manhattan``, ``linear-conflict``,
            ``hamming``, ``zero``, ``pdb``, ``zpdb``, ``mtm-manhattan``, ``walking-distance``);
            default: ``pdb`` under auto where tables pay, else ``linear-conflict``
            (``walking-distance`` under ``metric="mtm"`` on boards of at most 16 cells).
        timeout: stop each search after this many seconds of wall-clock time.
        max_nodes: stop each search after generating this many nodes.
        memory_limit: stop A*, bidirectional and weighted A* when their stored states would
            take more than this many bytes.
        optimal: accept only proven-optimal answers (refuses engine/heuristic combinations
            that do not prove optimality, and auto's anytime fallback).
        weight: weighted A*'s weight W >= 1 (answers at most W times the optimum).
        pdb: pattern-database partition (``"663"``, ``"555"``, ``"78"``, ``"default"`` or
            groups ``"1,2,3/4,5,6"``); implies ``heuristic="pdb"``.
        pdb_dir: the pattern-database cache directory (default: ``$NPUZZLE_PDB_DIR``, else
            the platform cache directory, ``~/.cache/npuzzle/pdb`` on Linux) -- the CLI's.
        size: the board shape when the board does not give it (a non-square flat board):
            ``"4x3"`` (W columns by H rows), ``4`` or ``(4, 3)``.
        threads: IDA*'s threads: 0 one per core, 1 the sequential engine, n a pool of n.
        deterministic: with threads, return the same moves on every run.
        anytime: the auto policy's time budget, in seconds, for anytime answers.
        reflect: use the pattern databases' reflected lookup.
        cycle_check: IDA*'s cycle check, ``"parent"`` or ``"path"`` (IDA* only).
        metric: ``"stm"`` (a move slides one tile) or ``"mtm"`` (a move slides 1..k tiles of
            the blank's row or column; idastar and auto search and prove MTM optimality).
        max_depth: IDA*'s depth limit in moves (``engine="idastar"`` or auto): past it the
            search raises :class:`LimitReached` with limit ``"depth"``, proving that no
            solution of at most ``max_depth`` moves exists (``progress["bound"]`` is the
            proven lower bound).
        seed: the seed of hill climbing's random moves (``engine="hill-climbing"``).
        max_steps: hill climbing's cap on steps (limit ``"steps"``; default 1,000,000).
        all_optimal: also count every optimal solution and list the first ``limit`` of them
            (default 1000): :attr:`Solution.optimal_count`, :attr:`Solution.optimal_solutions`
            (IDA*'s last iteration searched to the end with parent pruning; idastar or auto;
            either metric: with ``metric="mtm"`` distinct sequences of MTM moves, no two in a
            row along one axis, lengths in MTM moves).
        count: count the optimal solutions (with ``within``, those within k moves) without
            listing them.
        limit: with ``all_optimal`` or ``within``, how many solutions to list (at least 1).
        within: count (and list) every solution of at most the optimum + ``within`` moves,
            at most 1000 (no move followed by its inverse; in MTM no two moves in a row along
            one axis; the goal reached at the end only): :attr:`Solution.within_count`,
            :attr:`Solution.counts_by_length`, :attr:`Solution.solutions`, shortest first.
            One more IDA* iteration at threshold optimum + k, searched to the end; not with
            ``max_depth``.

    Returns:
        A :class:`Solution`.

    Raises:
        ValueError: a malformed board or goal, a goal of another shape, unknown or
            conflicting options (the CLI's messages).
        TypeError: a board that is not a string, a sequence or an array.
        Unsolvable: parity proves the board cannot reach the goal.
        LimitReached: ``timeout``, ``max_nodes`` or ``memory_limit`` stopped the search.
        PdbError: the pattern databases cannot be opened or built.
        KeyboardInterrupt: Ctrl-C during the search (the search is cancelled).
    """
    return _npuzzle.solve(
        board,
        goal=goal,
        engine=engine,
        heuristic=heuristic,
        timeout=timeout,
        max_nodes=max_nodes,
        memory_limit=memory_limit,
        optimal=optimal,
        weight=weight,
        pdb=pdb,
        pdb_dir=None if pdb_dir is None else os.fspath(pdb_dir),
        size=size,
        threads=threads,
        deterministic=deterministic,
        anytime=anytime,
        reflect=reflect,
        cycle_check=cycle_check,
        metric=metric,
        max_depth=max_depth,
        seed=seed,
        max_steps=max_steps,
        all_optimal=all_optimal,
        count=count,
        limit=limit,
        within=within,
    )


def check(
    board: Board,
    *,
    goal: Optional[Board] = None,
    size: Optional[Size] = None,
    moves: Optional[str] = None,
    max_nodes: Optional[int] = None,
) -> Dict[str, Any]:
    """Whether a board is solvable for the goal, why, and lower bounds (``npuzzle check``).

    No search: O(W*H*(W+H)). Never raises for an unsolvable board.

    With ``moves`` (letters U D L R, the tile-slide notation), judges them as a solution
    instead (``npuzzle check BOARD --moves ...``) and returns the JSON object of
    ``--format json`` as a dict: ``legal``, ``illegal`` (the first illegal move: ``index``,
    ``move``, ``blank_cell``, ``reason``; or None), ``reached`` and ``wrong_cells`` (the cells
    that differ from the goal), ``solves``, ``optimum`` (``{"kind": "known", "length",
    "moves", "how"}``, ``{"kind": "at-least", "lower_bound", "how"}`` when the optimal search
    (IDA* + linear conflict) hits ``max_nodes``, default 20,000,000, or ``{"kind":
    "unsolvable"}``), ``optimal`` (True, False or None when undecided), ``extra_moves`` and
    ``verdict`` (one line).

    Returns:
        A dict: ``solvable`` (bool), ``explanation`` (the parity argument in words),
        ``transpositions`` (minimum swaps sorting the board into the goal),
        ``blank_distance`` (moves from the blank to its goal cell), ``manhattan`` and
        ``linear_conflict`` (lower bounds in moves; Hansson, Mayer & Yung 1992; 0 when
        unsolvable), ``size`` (``"WxH"``) and ``goal`` (the goal board as rows).

    Raises:
        ValueError: a malformed board or goal, or a goal of another shape.
    """
    return _npuzzle.check(board, goal=goal, size=size, moves=moves, max_nodes=max_nodes)


def generate(
    size: Size,
    *,
    seed: Optional[int] = None,
    count: int = 1,
    walk: Optional[int] = None,
    goal: Optional[Board] = None,
) -> List[List[List[int]]]:
    """Reproducible random boards, solvable for the goal (``npuzzle generate``).

    Uniformly random among the solvable boards, or ``walk`` random moves from the goal
    (never undoing the previous move), drawn from ChaCha8 seeded with ``seed``: the same
    seed gives the same boards as ``npuzzle generate --seed``. O(count * (W*H + walk)).

    Args:
        size: ``"4x4"`` (W columns by H rows), ``4`` or ``(4, 4)``; up to 127 x 127.
        seed: the random seed (a u64); default: a random one.
        count: how many boards.
        walk: draw boards ``walk`` moves from the goal instead of uniformly.
        goal: ``"blank-last"`` (default), ``"blank-first"`` or a goal board.

    Returns:
        ``count`` boards, each a list of rows.

    Raises:
        ValueError: a bad size or goal.
    """
    return _npuzzle.generate(size, seed=seed, count=count, walk=walk, goal=goal)


def pdb_build(
    size: Size,
    *,
    partition: str = "default",
    goal: Optional[Board] = None,
    pdb_dir: Optional[PathLike] = None,
) -> Dict[str, Any]:
    """Build the pattern databases for a board shape into the cache (``npuzzle pdb build``).

    Tables already cached are checked and kept. Costs on 2 cores (BENCHMARKS.md): 4x4
    ``"default"`` (7-6-2) 20-30 s, about 60 MB; 4x4 ``"78"`` 4-8 minutes, 550 MiB on disk and
    1.5 GiB peak memory; 5x5 ``"default"`` (6-6-6-6) about 5 minutes and 486 MB. Additive
    disjoint pattern databases: Korf & Felner (2002).
    The build runs without the GIL; Ctrl-C returns at once while the build finishes in the
    background.

    Args:
        size: ``"4x4"``, ``4`` or ``(4, 4)``.
        partition: ``"default"``, ``"663"``, ``"555"``, ``"78"`` or groups ``"1,2,3/4,5,6"``.
        goal: ``"blank-last"`` (default), ``"blank-first"`` or a goal board.
        pdb_dir: the cache directory (default: ``$NPUZZLE_PDB_DIR``, else the platform cache
            directory).

    Returns:
        A dict: ``partition``, ``groups`` (the tile groups), ``size``, ``goal``, ``bytes``
        (the tables' size), ``dir`` (the cache directory) and ``seconds``.

    Raises:
        ValueError: a bad size, goal or partition.
        PdbError: the cache directory is unusable or the build failed.
    """
    return _npuzzle.pdb_build(
        size,
        partition=partition,
        goal=goal,
        pdb_dir=None if pdb_dir is None else os.fspath(pdb_dir),
    )


def parse_instances(text: str, *, size: Optional[Size] = None) -> List[Dict[str, Any]]:
    """Read a benchmark instance file's text (``testdata/korf100.txt``, ``seed15.txt``, ...).

    One instance a line: ``ID T0 .. T(N-1) LENGTH``, ``HEX LENGTH`` or ``ID HEX LENGTH``;
    ``#`` starts a comment line. The file's header says which goal the lengths are for.

    Returns:
        A list of dicts: ``id`` (str), ``board`` (rows), ``optimal`` (the known optimal
        length, in moves) and ``line`` (1-based line number).

    Raises:
        ValueError: the first bad line, or no instance at all.
    """
    return _npuzzle.parse_instances(text, size=size)
