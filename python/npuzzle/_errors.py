"""The exceptions of the npuzzle package.

Bad input (a malformed board or goal, unknown or conflicting options) raises the built-in
``ValueError`` with the same message as the ``npuzzle`` command line; a wrong argument type
raises ``TypeError``. Everything else npuzzle raises derives from :class:`Error`.
"""

from __future__ import annotations

from typing import Any, Dict, Optional


class Error(Exception):
    """Base class of npuzzle's own exceptions."""


class Unsolvable(Error):
    """The board cannot reach the goal: a proof by parity, found before any search.

    The permutation taking the board to the goal is even or odd (``transpositions``, its
    minimum number of swaps) and the blank is ``blank_distance`` moves (Manhattan distance)
    from its goal cell; every move changes both parities, so a board is solvable exactly when
    the two numbers have the same parity (Johnson & Story 1879). ``str(e)`` says it in words.
    """

    def __init__(self, message: str, transpositions: int, blank_distance: int) -> None:
        super().__init__(message)
        self.message = message
        #: Minimum number of transpositions (swaps) that sort the board into the goal.
        self.transpositions = transpositions
        #: Manhattan distance, in moves, from the blank's cell to its goal cell.
        self.blank_distance = blank_distance

    def __reduce__(self) -> Any:  # picklable, e.g. across a ProcessPoolExecutor
        return (type(self), (self.message, self.transpositions, self.blank_distance))


class LimitReached(Error):
    """A limit stopped the search before it finished. It never means "no solution".

    Attributes:
        limit: which limit: ``"nodes"`` (``max_nodes``), ``"time"`` (``timeout``),
            ``"memory"`` (``memory_limit``), ``"depth"`` (``max_depth``: no solution of at
            most that many moves exists, proven), ``"steps"`` (hill climbing's ``max_steps``)
            or ``"cancelled"``.
        value: the limit's value: generated nodes, seconds or bytes (``None`` for
            ``"cancelled"``).
        progress: how far the search got: ``expanded`` and ``generated`` nodes, ``seconds``
            of wall-clock time, ``bound`` (the f-bound reached, in moves: the IDA* threshold
            being searched or the A* f of the node being expanded) and ``stored_states``
            (A*-family engines; 0 for IDA*).
    """

    def __init__(
        self,
        message: str,
        limit: str,
        value: Optional[float],
        progress: Dict[str, Any],
    ) -> None:
        super().__init__(message)
        self.message = message
        self.limit = limit
        self.value = value
        self.progress = progress

    @property
    def lower_bound(self) -> int:
        """The f-bound the search reached, in moves (``progress["bound"]``).

        With IDA*, A* and bidirectional search and an admissible heuristic, no solution
        shorter than this exists. Greedy search and hill climbing reach no f-bound: for them it
        is the start board's estimate (``progress["bound_kind"] == "start-estimate"``).
        """
        return int(self.progress.get("bound", 0))

    def __reduce__(self) -> Any:
        return (type(self), (self.message, self.limit, self.value, self.progress))


class PdbError(Error):
    """The pattern databases could not be opened or built (cache directory, disk, memory)."""
