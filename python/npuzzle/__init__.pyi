"""Type stubs of the npuzzle package (see npuzzle/__init__.py for the full docstrings)."""

import os
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, TypedDict, Union

__version__: str

#: A board: a string in any format the CLI reads, a flat sequence of ints, a sequence of rows
#: of ints, or anything with ``.tolist()`` returning one of those (a numpy array).
Board = Union[str, Sequence[int], Sequence[Sequence[int]], Any]
#: A board shape: ``"WxH"`` (W columns by H rows), ``n`` (n x n) or ``(W, H)``.
Size = Union[str, int, Tuple[int, int]]
#: A board as a list of rows, row-major; 0 is the blank.
Rows = List[List[int]]
PathLike = Union[str, os.PathLike[str]]

ENGINES: Tuple[str, ...]
HEURISTICS: Tuple[str, ...]

class Iteration(TypedDict):
    threshold: int  # the IDA* f-threshold, in moves
    expanded: int
    generated: int

class Stats(TypedDict):
    expanded: int  # nodes expanded (successors generated), all iterations
    generated: int  # nodes generated, all iterations
    seconds: float  # wall-clock seconds of the search
    initial_h: int  # the heuristic's value of the start board, in moves
    stored_states: int  # distinct states stored (A*-family engines), 0 for IDA*
    peak_memory_bytes: int  # peak bytes of the engine's state storage, 0 for IDA*
    iterations: List[Iteration]  # IDA* only

class Progress(TypedDict):
    expanded: int
    generated: int
    seconds: float
    bound: int  # the f-bound reached, in moves
    stored_states: int

class CheckResult(TypedDict):
    solvable: bool
    explanation: str  # the parity argument in words
    transpositions: int  # minimum swaps sorting the board into the goal
    blank_distance: int  # moves from the blank to its goal cell
    manhattan: int  # lower bound, moves (0 when unsolvable)
    linear_conflict: int  # lower bound, moves (0 when unsolvable)
    size: str  # "WxH"
    goal: Rows

class PdbInfo(TypedDict):
    partition: str
    groups: str
    size: str
    goal: str
    bytes: int  # the tables' size in bytes
    dir: str  # the cache directory
    seconds: float

class Instance(TypedDict):
    id: str
    board: Rows
    optimal: int  # the known optimal length, in moves
    line: int  # 1-based line number

class Solution:
    """A solution replayed to the goal, what is proven about it, and search statistics."""

    @property
    def length(self) -> int:
        """Number of moves, in the metric solved in (``metric``)."""
    @property
    def length_stm(self) -> int:
        """Number of single-tile moves (the letters of ``moves``), whatever the metric."""
    @property
    def length_mtm(self) -> int:
        """Number of multi-tile-metric moves (runs of one direction), whatever the metric."""
    @property
    def metric(self) -> Literal["stm", "mtm"]:
        """The metric ``length``, ``optimal`` and ``lower_bound`` are in."""
    @property
    def moves(self) -> str:
        """Letters U D L R: the direction each tile slides into the blank."""
    @property
    def moves_counts(self) -> str:
        """The moves with counts, the speedsolving notation: ``"R2U2LDLD"``."""
    @property
    def optimal(self) -> bool:
        """Whether the length is proven optimal."""
    @property
    def guarantee(self) -> str:
        """``"optimal"``, ``"at most W times the optimum"`` or ``"not proven optimal"``."""
    @property
    def factor(self) -> Optional[float]:
        """Proven bound on length / optimal length: 1.0 when optimal, W, or None."""
    @property
    def lower_bound(self) -> int:
        """The best proven lower bound on the optimal length, in moves."""
    @property
    def optimal_count(self) -> Optional[int]:
        """With ``all_optimal=True``, ``count=True`` or ``within``: how many optimal solutions
        exist (distinct move sequences; with ``metric="mtm"``, distinct sequences of MTM moves
        alternating axes)."""
    @property
    def optimal_solutions(self) -> List[str]:
        """With ``all_optimal=True`` or ``within``: the optimal ones among the listed
        solutions (letters)."""
    @property
    def within(self) -> Optional[int]:
        """With ``within=k``: k."""
    @property
    def within_count(self) -> Optional[int]:
        """With ``within=k``: how many solutions have at most the optimum + k moves (no move
        followed by its inverse, in MTM no two moves in a row along one axis; the goal
        reached at the end only)."""
    @property
    def counts_by_length(self) -> List[Tuple[int, int]]:
        """With ``all_optimal=True``, ``count=True`` or ``within``: ``(length, count)`` from
        the optimum to the optimum + k, lengths in ``metric`` (MTM moves with
        ``metric="mtm"``, where every length can occur; in STM only the optimum's parity)."""
    @property
    def solutions(self) -> List[str]:
        """With ``all_optimal=True`` or ``within``: the first ``limit`` solutions, shortest
        first (letters; in MTM each run of one letter is one move)."""
    @property
    def engine(self) -> str:
        """The engine that found the solution (one of ENGINES)."""
    @property
    def heuristic(self) -> str:
        """The heuristic it searched with (one of HEURISTICS)."""
    @property
    def notes(self) -> List[str]:
        """The auto policy's decisions, in words (a fallback and why)."""
    @property
    def board(self) -> Rows:
        """The start board."""
    @property
    def goal(self) -> Rows:
        """The goal board; for a partial goal, the full board the solution reaches."""
    @property
    def partial_goal(self) -> Optional[str]:
        """The partial goal solved for (``goal="first-row"``, ``"123xxxxxx"``, ...) as its board
        text with ``x`` for the cells that do not matter; ``None`` for a full goal."""
    @property
    def stats(self) -> Stats:
        """Search statistics."""
    def boards(self) -> List[Rows]:
        """Every board along the solution, the start first and the goal last."""
    def record(self) -> str:
        """The answer as the JSON line ``npuzzle solve --format json`` prints."""
    def __len__(self) -> int: ...

class Error(Exception): ...

class Unsolvable(Error):
    message: str
    transpositions: int
    blank_distance: int
    def __init__(self, message: str, transpositions: int, blank_distance: int) -> None: ...

class LimitReached(Error):
    message: str
    limit: Literal["nodes", "time", "memory", "cancelled"]
    value: Optional[float]  # generated nodes (int), seconds (float) or bytes (int)
    progress: Progress
    def __init__(
        self, message: str, limit: str, value: Optional[float], progress: Dict[str, Any]
    ) -> None: ...
    @property
    def lower_bound(self) -> int: ...

class PdbError(Error): ...

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
    cycle_check: Literal["parent", "path"] = "parent",
    metric: Literal["stm", "mtm"] = "stm",
    max_depth: Optional[int] = None,
    seed: Optional[int] = None,
    max_steps: Optional[int] = None,
    all_optimal: bool = False,
    count: bool = False,
    limit: Optional[int] = None,
    within: Optional[int] = None,
) -> Solution:
    """Solve one board (seconds for ``timeout``/``anytime``, bytes for ``memory_limit``).

    ``all_optimal=True`` lists the first ``limit`` (default 1000) optimal solutions and counts
    them all, ``count=True`` only counts; ``within=k`` (at most 1000) does so for every solution
    of at most the optimum + k moves. Engine idastar or auto, either metric; raises
    ``ValueError`` for a ``limit`` without them, ``within`` above 1000, ``max_depth`` with
    ``within`` or in MTM. Costs the whole last IDA* iteration (at threshold optimum + k).

    ``goal`` also takes a partial goal, the cells that do not matter written ``x``:
    ``"123xxxxxx"``, ``"first-row"``, ``"first-rows:2"``, ``"fringe"`` (solved by IDA* with
    tables over the tiles that matter, either metric; ``Solution.partial_goal`` names it)."""

def check(
    board: Board,
    *,
    goal: Optional[Board] = None,
    size: Optional[Size] = None,
    moves: Optional[str] = None,
    max_nodes: Optional[int] = None,
) -> Dict[str, Any]:
    """Solvability (parity) and lower bounds, without search; with ``moves``, the judgement
    of that solution (legal, reaches the goal, length against the optimum). A partial goal
    (``goal="first-row"``, ``"123xxxxxx"``) is judged by the tiles that matter; the dict's
    ``partial_goal`` then names it (``None`` for a full goal)."""

def generate(
    size: Size,
    *,
    seed: Optional[int] = None,
    count: int = 1,
    walk: Optional[int] = None,
    goal: Optional[Board] = None,
) -> List[Rows]:
    """Reproducible random solvable boards (the CLI's ``generate``)."""

def pdb_build(
    size: Size,
    *,
    partition: str = "default",
    goal: Optional[Board] = None,
    pdb_dir: Optional[PathLike] = None,
) -> PdbInfo:
    """Build pattern databases into the cache (the CLI's ``pdb build``)."""

def parse_instances(text: str, *, size: Optional[Size] = None) -> List[Instance]:
    """Read a benchmark instance file's text."""
