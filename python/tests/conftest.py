"""Shared fixtures: the repository's instance files and a private pattern-database cache."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator, List, Sequence

import pytest

TESTDATA = Path(__file__).resolve().parents[2] / "testdata"


@pytest.fixture(scope="session", autouse=True)
def pdb_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every test uses a fresh pattern-database cache, never the user's (``NPUZZLE_PDB_DIR``)."""
    path = tmp_path_factory.mktemp("pdb")
    old = os.environ.get("NPUZZLE_PDB_DIR")
    os.environ["NPUZZLE_PDB_DIR"] = str(path)
    yield path
    if old is None:
        del os.environ["NPUZZLE_PDB_DIR"]
    else:
        os.environ["NPUZZLE_PDB_DIR"] = old


def replay(board: Sequence[Sequence[int]], moves: str) -> List[List[int]]:
    """Apply moves in the tile-slide notation to a board given as rows; return the end board.

    ``U`` is the tile below the blank sliding up (the blank moves down), ``D`` the tile above
    sliding down, ``L`` the tile right of the blank sliding left, ``R`` the tile left of it
    sliding right. An illegal move fails the test.
    """
    rows = [list(r) for r in board]
    height, width = len(rows), len(rows[0])
    (r, c) = next((i, j) for i in range(height) for j in range(width) if rows[i][j] == 0)
    step = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}
    for i, m in enumerate(moves):
        dr, dc = step[m]
        nr, nc = r + dr, c + dc
        assert 0 <= nr < height and 0 <= nc < width, f"move {i} ({m}) leaves the board"
        rows[r][c], rows[nr][nc] = rows[nr][nc], 0
        r, c = nr, nc
    return rows
