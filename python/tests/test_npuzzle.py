"""Tests of the npuzzle Python package: exact optimal lengths, every move list replayed."""

from __future__ import annotations

import _thread
import importlib
import pickle
import signal
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Tuple

import pytest
from conftest import TESTDATA, replay

import npuzzle

BLANK_LAST_3 = [[1, 2, 3], [4, 5, 6], [7, 8, 0]]
BLANK_FIRST_3 = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
# The hardest seed15 board (64 moves): minutes for IDA* with Manhattan distance.
HARD = "cbfed67a13248095"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def instances(name: str) -> List[Dict]:
    return npuzzle.parse_instances((TESTDATA / name).read_text())


def assert_solves(s: npuzzle.Solution, board, goal, length: int) -> None:
    """An optimal answer of the known length whose moves and boards replay to the goal."""
    assert s.length == len(s) == len(s.moves) == length
    assert s.optimal and s.guarantee == "optimal" and s.factor == 1.0
    assert s.lower_bound == length
    assert replay(board, s.moves) == goal == s.goal
    boards = s.boards()
    assert len(boards) == length + 1
    assert boards[0] == board == s.board and boards[-1] == goal
    for i, m in enumerate(s.moves):
        assert replay(boards[i], m) == boards[i + 1]


# --- 8-puzzle antipodes ----------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["auto", "idastar", "astar", "bidirectional"])
def test_eight_puzzle_antipodes(engine: str) -> None:
    cases = instances("eight31.txt")
    assert len(cases) == 4
    for case in cases:
        goal_name, goal = (
            ("blank-last", BLANK_LAST_3)
            if case["id"].startswith("A")
            else ("blank-first", BLANK_FIRST_3)
        )
        s = npuzzle.solve(case["board"], goal=goal_name, engine=engine)
        assert case["optimal"] == 31
        assert_solves(s, case["board"], goal, 31)
        assert s.engine == ("idastar" if engine == "auto" else engine)


def test_the_readme_snippet() -> None:
    s = npuzzle.solve("8 6 7 2 5 4 3 0 1")
    assert (s.length, s.optimal, s.engine, s.heuristic) == (31, True, "idastar", "pdb")
    assert {"expanded", "generated", "seconds", "initial_h", "iterations"} <= set(s.stats)
    assert s.stats["generated"] >= s.stats["expanded"] > 0
    assert s.stats["initial_h"] <= 31 and s.stats["seconds"] >= 0
    assert s.stats["iterations"][-1]["threshold"] == 31
    assert repr(s).startswith("Solution(length=31, moves=") and "optimal=True" in repr(s)
    # The same board in every input form gives the same answer.
    for board in (
        [8, 6, 7, 2, 5, 4, 3, 0, 1],
        [[8, 6, 7], [2, 5, 4], [3, 0, 1]],
        ((8, 6, 7), (2, 5, 4), (3, 0, 1)),
        "867254301",
        "8 6 7\n2 5 4\n3 0 1\n",
        "8,6,7,2,5,4,3,0,1",
    ):
        assert npuzzle.solve(board).length == 31


def test_numpy_arrays() -> None:
    np = pytest.importorskip("numpy")
    board = np.array([[8, 6, 7], [2, 5, 4], [3, 0, 1]], dtype=np.int64)
    assert npuzzle.solve(board).length == 31
    assert npuzzle.solve(board.ravel()).length == 31
    assert npuzzle.solve(board.astype(np.uint8), goal=np.array(BLANK_LAST_3)).length == 31


def test_notation_and_goal_forms() -> None:
    # Blank-first goal: the blank two cells right of its goal cell; two tiles slide right.
    s = npuzzle.solve(
        "1 2 0 3 4 5 6 7 8", goal="blank-first", engine="idastar", heuristic="manhattan"
    )
    assert (s.moves, s.optimal) == ("RR", True)
    # The tile below the blank slides up.
    assert npuzzle.solve([[1, 2, 3], [4, 5, 0], [7, 8, 6]]).moves == "U"
    assert npuzzle.solve(BLANK_LAST_3).length == 0 and npuzzle.solve(BLANK_LAST_3).boards() == [
        BLANK_LAST_3
    ]
    # A goal board, as rows, as text, as a flat list.
    custom = [[8, 7, 6], [5, 4, 3], [2, 1, 0]]
    for goal in (custom, "8 7 6 5 4 3 2 1 0", [8, 7, 6, 5, 4, 3, 2, 1, 0]):
        s = npuzzle.solve([[8, 7, 6], [5, 4, 3], [2, 0, 1]], goal=goal, engine="idastar")
        assert (s.moves, s.goal) == ("L", custom)
    # The multi-tile metric: one move slides 1..k tiles; moves with counts.
    m = npuzzle.solve("8 6 7 2 5 4 3 0 1", metric="mtm")
    assert (m.metric, m.length, m.length_stm, m.optimal) == ("mtm", 20, 31, True)
    assert m.length_mtm == 20 and replay(m.board, m.moves) == m.goal
    assert m.moves_counts.replace("2", "") != m.moves_counts  # some runs of two
    s = npuzzle.solve("1 2 3 4 5 6 0 7 8")
    assert (s.metric, s.length, s.length_mtm, s.moves_counts) == ("stm", 2, 1, "L2")
    with pytest.raises(ValueError, match="metric mtm with optimal=True: the astar engine"):
        npuzzle.solve("8 6 7 2 5 4 3 0 1", metric="mtm", engine="astar", optimal=True)
    with pytest.raises(ValueError, match="unknown metric"):
        npuzzle.solve("8 6 7 2 5 4 3 0 1", metric="xtm")
    # Slash rows, the speedsolving notation: the shape comes from the rows.
    assert npuzzle.solve("1 2 3/4 5 0/7 8 6").moves == "U"
    assert npuzzle.solve("1 0 2 4/5 6 3 7/9 10 11 8").length == 4


# --- 15-puzzle: seed15 -----------------------------------------------------------------------

SEED15 = instances("seed15.txt")


@pytest.mark.parametrize("case", SEED15, ids=[c["id"] for c in SEED15])
def test_seed15_exact_lengths(case: Dict) -> None:
    # The 5-5-5 tables build in seconds into the test cache; the default 7-6-2 in 20-100 s.
    s = npuzzle.solve(case["board"], engine="idastar", pdb="555")
    assert s.heuristic == "pdb"
    goal = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 0]]
    assert_solves(s, case["board"], goal, case["optimal"])


# --- rectangular boards ----------------------------------------------------------------------


def neighbours(board: Tuple[int, ...], width: int) -> List[Tuple[int, ...]]:
    """The boards one move from ``board`` (cells row by row, 0 the blank)."""
    height = len(board) // width
    b = board.index(0)
    r, c = divmod(b, width)
    out = []
    for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= nr < height and 0 <= nc < width:
            cells = list(board)
            n = nr * width + nc
            cells[b], cells[n] = cells[n], 0
            out.append(tuple(cells))
    return out


def bfs_distances(width: int, height: int) -> Dict[Tuple[int, ...], int]:
    """Exact distances to the blank-last goal of every reachable board (breadth-first)."""
    goal = tuple(list(range(1, width * height)) + [0])
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        board = queue.popleft()
        for nxt in neighbours(board, width):
            if nxt not in dist:
                dist[nxt] = dist[board] + 1
                queue.append(nxt)
    return dist


def test_rectangular_boards_match_breadth_first_search() -> None:
    dist = bfs_distances(4, 2)  # 4 columns, 2 rows: 20,160 reachable boards
    assert len(dist) == 20160 and max(dist.values()) == 36
    farthest = [b for b, d in dist.items() if d == 36]
    boards = farthest[:2] + [
        tuple(c for row in b for c in row) for b in npuzzle.generate("4x2", seed=3, count=6)
    ]
    for flat in boards:
        rows = [list(flat[:4]), list(flat[4:])]
        for engine in ("auto", "idastar", "astar", "bidirectional"):
            s = npuzzle.solve(list(flat), size="4x2", engine=engine)
            assert_solves(s, rows, [[1, 2, 3, 4], [5, 6, 7, 0]], dist[flat])
            assert npuzzle.solve(rows, engine=engine).length == dist[flat]
    # The transposed shape, 2 columns by 4 rows, given as rows.
    for board in npuzzle.generate((2, 4), seed=9, count=3, goal="blank-first"):
        tall = npuzzle.solve(board, goal="blank-first")
        wide = [[board[r][c] for r in range(4)] for c in range(2)]  # transposed: 4 columns, 2 rows
        assert tall.optimal and replay(board, tall.moves) == [[0, 1], [2, 3], [4, 5], [6, 7]]
        assert tall.length == npuzzle.solve(wide, goal=[[0, 2, 4, 6], [1, 3, 5, 7]]).length


def test_a_4x3_board() -> None:
    board = npuzzle.generate((4, 3), seed=5)[0]
    a = npuzzle.solve(board, engine="idastar", heuristic="linear-conflict")
    b = npuzzle.solve(board, engine="astar", heuristic="manhattan")
    goal = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 0]]
    assert_solves(a, board, goal, a.length)
    assert_solves(b, board, goal, a.length)


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "board, message",
    [
        ("1 2 3 4 5 6 7 7 0", "duplicate tile 7 at cells 6 and 7"),
        ("1 2 3 4 5 6 7 8", "8 cells"),
        ("1 2 3 4 5 x 7 8 0", "bad character 'x'"),
        ("1,2,,3", "empty field"),
        ("", "empty input"),
        ([1, 2, 3, 4, 5, 6, 7, 9, 0], "9"),
        ([[1, 2, 3], [4, 5, 6], [7, 0]], "row 3 of the board has 2 numbers, row 1 has 3"),
        ([], "empty input"),
    ],
)
def test_bad_boards_raise_value_error_with_the_cli_message(board, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        npuzzle.solve(board)
    with pytest.raises(ValueError, match=message):
        npuzzle.check(board)


@pytest.mark.parametrize("board", [None, 3, [1.5, 2, 3, 4], [[1, 2], "ab"], {"a": 1}])
def test_wrong_types_raise_type_error(board) -> None:
    with pytest.raises(TypeError):
        npuzzle.solve(board)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"engine": "dfs"}, 'unknown engine "dfs"'),
        ({"heuristic": "euclid"}, "unknown heuristic"),
        ({"engine": "weighted-astar", "optimal": True}, "optimal"),
        ({"engine": "constructive", "optimal": True}, "optimal"),
        (
            {"engine": "idastar", "weight": 2.0},
            "weight applies to the weighted-astar engine only, not to idastar",
        ),
        ({"weight": 0.5}, "weight"),
        (
            {"heuristic": "manhattan", "pdb": "555"},
            "pdb applies to the pdb, zpdb and mtm-pdb heuristics only",
        ),
        ({"pdb": "9x"}, 'bad pdb "9x"'),
        ({"goal": "blank-middle"}, 'bad goal "blank-middle"'),
        ({"goal": "1 2 3 4 0 5 6 7 8 9 10 11 12 13 14 15"}, "goal"),
        ({"timeout": -1.0}, "timeout must be a non-negative number of seconds"),
        ({"cycle_check": "none"}, "cycle_check"),
        (
            {"engine": "astar", "cycle_check": "path"},
            'cycle_check="path" applies to the idastar engine only, not to astar',
        ),
        ({"size": "3x"}, "3x"),
        ({"size": "4x2"}, "but size=4x2 was given"),
    ],
)
def test_bad_options_raise_value_error(options: Dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        npuzzle.solve([[8, 6, 7], [2, 5, 4], [3, 0, 1]], **options)


def test_unsolvable_carries_the_parity_proof() -> None:
    with pytest.raises(npuzzle.Unsolvable) as info:
        npuzzle.solve("1 2 3 4 5 6 8 7 0")
    e = info.value
    assert isinstance(e, npuzzle.Error)
    assert (e.transpositions, e.blank_distance) == (1, 0)
    assert "odd (1 transposition)" in str(e) and "the parities differ" in str(e)
    again = pickle.loads(pickle.dumps(e))
    assert (type(again), str(again), again.transpositions) == (npuzzle.Unsolvable, str(e), 1)
    # Solvable for another goal: parity is relative to the goal.
    assert npuzzle.solve("1 2 3 4 5 6 8 7 0", goal="1 2 3 4 5 6 8 7 0").length == 0
    c = npuzzle.check("1 2 3 4 5 6 8 7 0")
    assert (c["solvable"], c["manhattan"], c["linear_conflict"]) == (False, 0, 0)
    assert c["explanation"] in str(e)


def test_check_lower_bounds() -> None:
    c = npuzzle.check("8 6 7 2 5 4 3 0 1")
    assert c["solvable"] and (c["manhattan"], c["linear_conflict"]) == (21, 23)
    assert (c["size"], c["goal"]) == ("3x3", BLANK_LAST_3)
    assert npuzzle.check("8 6 7 2 5 4 3 0 1", goal="blank-first")["goal"] == BLANK_FIRST_3


def test_max_nodes_raises_limit_reached_with_progress() -> None:
    with pytest.raises(npuzzle.LimitReached) as info:
        npuzzle.solve(HARD, engine="idastar", heuristic="manhattan", max_nodes=100_000)
    e = info.value
    assert (e.limit, e.value) == ("nodes", 100_000) and isinstance(e.value, int)
    assert e.progress["generated"] == 100_000 and e.progress["expanded"] > 0
    # Manhattan distance of the start (the first threshold) <= the bound reached <= 64.
    assert 0 < e.lower_bound == e.progress["bound"] <= 64
    assert "node limit of 100000 generated nodes" in str(e)
    again = pickle.loads(pickle.dumps(e))
    assert (again.limit, again.value, again.progress) == (e.limit, e.value, e.progress)


def test_timeout_raises_limit_reached_in_time() -> None:
    start = time.monotonic()
    with pytest.raises(npuzzle.LimitReached) as info:
        npuzzle.solve(HARD, engine="idastar", heuristic="manhattan", timeout=0.3, threads=1)
    assert time.monotonic() - start < 5
    e = info.value
    assert (e.limit, e.value) == ("time", 0.3)
    assert e.progress["seconds"] >= 0.3 and e.progress["generated"] > 0
    assert "time limit of 0.3 s" in str(e)


def test_memory_limit_raises_limit_reached() -> None:
    with pytest.raises(npuzzle.LimitReached) as info:
        npuzzle.solve(HARD, engine="astar", heuristic="manhattan", memory_limit=1 << 20)
    assert (info.value.limit, info.value.value) == ("memory", 1 << 20)
    assert info.value.progress["stored_states"] > 0


def test_a_bad_cache_directory(tmp_path: Path) -> None:
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x")
    # A search builds its tables in memory when the cache cannot be written (as the CLI does).
    board = [[8, 6, 7], [2, 5, 4], [3, 0, 1]]
    s = npuzzle.solve(board, pdb="default", pdb_dir=not_a_dir / "pdb")
    assert_solves(s, board, BLANK_LAST_3, 31)
    # A build into the cache that cannot store its tables is an error.
    with pytest.raises(npuzzle.PdbError):
        npuzzle.pdb_build("3x3", pdb_dir=not_a_dir / "pdb")


# --- threads and cancellation ----------------------------------------------------------------


def test_a_thread_pool_solves_boards_in_parallel() -> None:
    boards = [c["board"] for c in instances("eight31.txt") if c["id"].startswith("A")]
    boards += npuzzle.generate(3, seed=11, count=14)
    expected = [npuzzle.solve(b, engine="idastar", threads=1).length for b in boards]
    with ThreadPoolExecutor(max_workers=4) as pool:
        solutions = list(pool.map(lambda b: npuzzle.solve(b, engine="idastar", threads=1), boards))
    for board, s, length in zip(boards, solutions, expected):
        assert_solves(s, board, BLANK_LAST_3, length)


def test_the_search_releases_the_gil() -> None:
    # A search of about a second on another thread leaves this one free to count.
    ticks = 0
    done = threading.Event()

    def search() -> None:
        try:
            npuzzle.solve(HARD, engine="idastar", heuristic="manhattan", timeout=1.0, threads=1)
        except npuzzle.LimitReached:
            pass
        done.set()

    t = threading.Thread(target=search)
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.01)
    t.join()
    assert ticks > 10  # with the GIL held during the search: 1 or 2


def test_ctrl_c_cancels_the_search() -> None:
    # Ctrl-C raises KeyboardInterrupt under Python's default SIGINT handler, which Python does
    # not install when it starts with SIGINT ignored (as in a background job of a
    # non-interactive shell; `interrupt_main` then does nothing): install it for this test.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            npuzzle.solve(HARD, engine="idastar", heuristic="manhattan", threads=1)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - start < 3
    # The package stays usable.
    assert npuzzle.solve("8 6 7 2 5 4 3 0 1").length == 31


# --- generate, pdb_build, parse_instances ----------------------------------------------------


def test_generate_matches_the_cli() -> None:
    # `npuzzle generate --size 4x4 --seed 7 --count 3 --format line`
    cli = [
        "12 11 5 2 9 13 15 10 3 4 8 7 14 1 0 6",
        "2 14 11 6 1 3 7 5 13 0 8 15 10 4 9 12",
        "1 0 6 2 12 8 7 3 13 9 14 4 10 11 15 5",
    ]
    boards = npuzzle.generate("4x4", seed=7, count=3)
    assert [" ".join(str(t) for row in b for t in row) for b in boards] == cli
    assert (
        npuzzle.generate(4, seed=7, count=3) == boards == npuzzle.generate((4, 4), seed=7, count=3)
    )
    # `npuzzle generate --size 5x3 --seed 11 --count 2 --walk 30 --goal blank-first`
    walk = npuzzle.generate("5x3", seed=11, count=2, walk=30, goal="blank-first")
    assert walk[1] == [[5, 1, 3, 4, 9], [10, 0, 6, 7, 8], [11, 2, 12, 13, 14]]
    for b in npuzzle.generate("6x5", seed=1, count=5) + walk:
        goal = "blank-first" if b in walk else "blank-last"
        assert npuzzle.check(b, goal=goal)["solvable"]
    assert len({str(npuzzle.generate(3)) for _ in range(5)}) > 1  # unseeded: random
    with pytest.raises(ValueError):
        npuzzle.generate("0x4")


def test_pdb_build_then_solve(tmp_path: Path) -> None:
    info = npuzzle.pdb_build("3x3", partition="default", pdb_dir=tmp_path)
    assert (info["size"], info["goal"], info["dir"]) == ("3x3", "blank-last", str(tmp_path))
    assert info["bytes"] > 0 and info["seconds"] >= 0 and info["groups"]
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files
    s = npuzzle.solve("8 6 7 2 5 4 3 0 1", engine="idastar", pdb="default", pdb_dir=tmp_path)
    assert (s.length, s.heuristic, s.optimal) == (31, "pdb", True)
    # Built already: found, not rebuilt.
    npuzzle.pdb_build(3, pdb_dir=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == files
    with pytest.raises(ValueError, match="bad partition"):
        npuzzle.pdb_build("3x3", partition="nope", pdb_dir=tmp_path)


def test_parse_instances() -> None:
    korf = instances("korf100.txt")
    assert len(korf) == 100 and korf[0]["id"] == "1" and len(korf[0]["board"]) == 4
    assert [c["optimal"] for c in SEED15] == [15, 25, 30, 33, 44, 50, 56, 58, 64]
    with pytest.raises(ValueError, match="not a benchmark instance"):
        npuzzle.parse_instances("1 2 3\n")


def test_names() -> None:
    assert npuzzle.ENGINES == (
        "idastar",
        "astar",
        "bidirectional",
        "weighted-astar",
        "constructive",
        "greedy",
        "astar-idastar",
        "beam",
        "hill-climbing",
    )
    g = npuzzle.solve(HARD, engine="greedy", heuristic="linear-conflict")
    assert (g.optimal, g.factor, g.guarantee) == (False, None, "not proven optimal")
    assert replay(g.board, g.moves) == g.goal
    assert npuzzle.HEURISTICS == (
        "manhattan",
        "linear-conflict",
        "hamming",
        "zero",
        "pdb",
        "zpdb",
        "mtm-manhattan",
        "walking-distance",
        "mtm-pdb",
    )
    w = npuzzle.solve(HARD, engine="weighted-astar", weight=2.0, heuristic="linear-conflict")
    assert (
        not w.optimal and w.factor == 2.0 and w.length >= 64 and w.guarantee.startswith("at most 2")
    )
    assert replay(w.board, w.moves) == w.goal
    c = npuzzle.solve(HARD, engine="constructive")
    assert (c.optimal, c.factor, c.guarantee) == (False, None, "not proven optimal")
    assert replay(c.board, c.moves) == c.goal and c.length >= 64


def test_the_process_pool_example(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Importable by name, so that the spawned worker processes find solve_one too.
    monkeypatch.syspath_prepend(str(EXAMPLES))
    example = importlib.import_module("solve_file")
    lines = (TESTDATA / "eight31.txt").read_text().splitlines()
    path = tmp_path / "k31.txt"
    path.write_text("\n".join(x for x in lines if x.startswith("K31")) + "\n")
    assert example.run(path, goal="blank-first", workers=2) == 0
    out = capsys.readouterr().out
    assert out.count(" 31 moves  ok ") == 2 and "2 boards, 0 mismatches" in out
    # A wrong goal is caught as a mismatch, not passed over.
    assert example.run(path, goal="blank-last", workers=1) == 2


EIGHT31 = "8 6 7 2 5 4 3 0 1"


def test_issue_27_check_all_optimal_depth_and_hill_climbing() -> None:
    best = npuzzle.solve(EIGHT31, engine="idastar")
    c = npuzzle.check(EIGHT31, moves=best.moves)
    assert (c["solves"], c["optimal"], c["extra_moves"]) == (True, True, 0)
    assert c["optimum"]["length"] == 31
    c = npuzzle.check(EIGHT31, moves="DDD")
    assert c["illegal"]["index"] == 2 and not c["solves"] and c["optimal"] is False
    c = npuzzle.check(EIGHT31, moves=best.moves[:-1])
    assert not c["solves"] and len(c["wrong_cells"]) == 2
    with pytest.raises(ValueError, match="moves"):
        npuzzle.check(EIGHT31, moves="DX")

    s = npuzzle.solve(EIGHT31, engine="idastar", all_optimal=True, limit=5)
    assert s.optimal_count == 40 and len(s.optimal_solutions) == 5
    for m in s.optimal_solutions:
        assert len(m) == 31 and replay(s.board, m) == s.goal
    assert npuzzle.solve(EIGHT31, count=True).optimal_count == 40
    assert npuzzle.solve(EIGHT31).optimal_count is None
    with pytest.raises(ValueError, match="limit"):
        npuzzle.solve(EIGHT31, limit=3)

    # Issue 51: within k moves of the optimum, in both metrics.
    w = npuzzle.solve(EIGHT31, within=2, limit=45)
    assert (w.within, w.optimal_count, len(w.solutions)) == (2, 40, 45)
    assert w.counts_by_length[:2] == [(31, 40), (32, 0)]
    assert w.within_count == sum(n for _, n in w.counts_by_length)
    assert len(w.optimal_solutions) == 40 and all(len(m) == 33 for m in w.solutions[40:])
    m = npuzzle.solve(EIGHT31, metric="mtm", heuristic="walking-distance", within=1)
    assert m.length == 20 and [n for n, _ in m.counts_by_length] == [20, 21]
    assert len(m.solutions) == m.within_count
    for mv in m.solutions:
        assert replay(m.board, mv) == m.goal
    c = npuzzle.solve(EIGHT31, metric="mtm", heuristic="walking-distance", count=True)
    assert c.optimal_count == m.optimal_count and c.solutions == [] and c.within is None
    with pytest.raises(ValueError, match="within"):
        npuzzle.solve(EIGHT31, within=1001)

    with pytest.raises(npuzzle.LimitReached) as e:
        npuzzle.solve(EIGHT31, engine="idastar", max_depth=29)
    assert e.value.limit == "depth" and e.value.progress["bound"] == 31
    with pytest.raises(ValueError, match="max_depth"):
        npuzzle.solve(EIGHT31, engine="astar", max_depth=29)

    h = npuzzle.solve(EIGHT31, engine="hill-climbing", seed=3)
    assert not h.optimal and replay(h.board, h.moves) == h.goal
    assert h.moves == npuzzle.solve(EIGHT31, engine="hill-climbing", seed=3).moves
    with pytest.raises(npuzzle.LimitReached) as e:
        npuzzle.solve(EIGHT31, engine="hill-climbing", max_steps=5)
    assert e.value.limit == "steps"


def bfs_until(flat: Tuple[int, ...], width: int, reached) -> int:
    """Exact moves from ``flat`` (a board, row by row) to the first board ``reached`` accepts."""
    dist = {flat: 0}
    queue = deque([flat])
    while queue:
        board = queue.popleft()
        if reached(board):
            return dist[board]
        for nxt in neighbours(board, width):
            if nxt not in dist:
                dist[nxt] = dist[board] + 1
                queue.append(nxt)
    raise AssertionError("the partial goal is unreachable")


def test_partial_goals_match_breadth_first_search() -> None:
    """Issue 51: partial goals (cells that do not matter) as the CLI's --goal takes them."""
    boards = [[[8, 6, 7], [2, 5, 4], [3, 0, 1]]] + npuzzle.generate("3x3", seed=5, count=2)
    goals = {
        "first-row": lambda b: b[:3] == (1, 2, 3),
        "123xxxxxx": lambda b: b[:3] == (1, 2, 3),
        "1x3x5x7x0": lambda b: (b[0], b[2], b[4], b[6], b[8]) == (1, 3, 5, 7, 0),
        "x x x\nx x 6\nx 8 x": lambda b: (b[5], b[7]) == (6, 8),
    }
    for board in boards:
        flat = tuple(c for row in board for c in row)
        for goal, reached in goals.items():
            s = npuzzle.solve(board, goal=goal)
            assert s.optimal and s.length == bfs_until(flat, 3, reached), (board, goal)
            end = replay(board, s.moves)
            assert end == s.goal and reached(tuple(c for row in end for c in row))
            assert s.partial_goal is not None and "x" in s.partial_goal
    assert npuzzle.solve(EIGHT31).partial_goal is None
    # check: the bounds of the tiles that matter, and a solution judged against the optimum.
    board = boards[0]
    c = npuzzle.check(board, goal="first-row")
    assert c["solvable"] and c["partial_goal"] == "123xxxxxx"
    assert c["manhattan"] == c["linear_conflict"] == 10
    s = npuzzle.solve(board, goal="first-row")
    j = npuzzle.check(board, goal="first-row", moves=s.moves)
    assert (j["solves"], j["optimal"], j["extra_moves"]) == (True, True, 0)
    assert j["partial_goal"] == "first-rows:1" and j["goal"] == "123xxxxxx"
    j = npuzzle.check(board, goal="first-row", moves=s.moves[:-1])
    assert not j["solves"] and j["optimum"]["length"] == s.length
    assert npuzzle.check("2 1 3 4 5 6 7 8 0", goal="1234567xx")["solvable"] is False
    assert npuzzle.check(board)["partial_goal"] is None
    with pytest.raises(ValueError, match="partial goal"):
        npuzzle.solve(EIGHT31, goal="first-rows:x")
    with pytest.raises(ValueError):
        npuzzle.solve(EIGHT31, goal="first-rows:3")
