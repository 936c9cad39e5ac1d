"""npuzzle.distributed on a real LocalCluster of 2 worker processes: batches equal to local
answers, Korf's 24-puzzle #40 across the cluster (82 moves, optimal), a worker process killed
in the middle of both, and a cancelled distributed search that stops its tasks.

The 24-puzzle test needs the 6-6-6-6 tables in the directory ``NPUZZLE_PDB_DIR`` names when
pytest starts (``.ci/run`` passes ``target/ci-pdb24``, built by its heavy tier); without that
variable it is skipped, and with it but without the tables it fails.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Dict, List

import pytest

import npuzzle

distributed = pytest.importorskip("distributed")
from distributed import Client, LocalCluster  # noqa: E402

import npuzzle.distributed as nd  # noqa: E402

from conftest import TESTDATA, replay  # noqa: E402

#: The pattern-database directory given to the test run (the conftest fixture replaces the
#: variable with a private cache during the tests; this is read at import, before it).
PDB24 = os.environ.get("NPUZZLE_PDB_DIR")

KORF24_40 = "2 17 4 13 7 12 10 3 0 16 21 24 8 5 18 20 15 19 14 9 22 11 6 1 23"


@pytest.fixture(scope="module")
def client(pdb_cache: Path):
    """2 single-threaded worker processes (started after the private table cache is set, so
    that they inherit it, and after the 15-puzzle's 7-6-2 tables for both goals are built in it,
    as the docs say to do before starting workers)."""
    npuzzle.solve("2 7 10 4 6 12 3 1 14 15 13 5 11 0 9 8")
    npuzzle.solve(korf_easiest()[0], goal="blank-first")
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def worker_pids(client: Client) -> Dict[str, int]:
    return client.run(os.getpid)


def kill_busy_worker(client: Client) -> int:
    """SIGKILLs a worker process that is running a task (else any); returns its pid."""
    pids = worker_pids(client)
    busy = [w for w, tasks in client.processing().items() if tasks and w in pids]
    victim = (busy or sorted(pids))[0]
    os.kill(pids[victim], signal.SIGKILL)
    return pids[victim]


def batch_boards() -> List[str]:
    seed15 = [i["board"] for i in npuzzle.parse_instances((TESTDATA / "seed15.txt").read_text())]
    eights = npuzzle.generate("3x3", seed=25, count=100)
    return [flat(b) for b in seed15] + [flat(b) for b in eights]


def flat(board) -> str:
    """A board (text, or rows) as one line of numbers."""
    if isinstance(board, str):
        return board
    return " ".join(str(t) for r in board for t in r)


def korf_easiest() -> List[str]:
    korf = npuzzle.parse_instances((TESTDATA / "korf100.txt").read_text())
    korf.sort(key=lambda i: i["optimal"])
    return [" ".join(str(t) for r in i["board"] for t in r) for i in korf[:5]]


def local_answers(boards: List[str], **options) -> List[Dict]:
    out = []
    for b in boards:
        try:
            s = npuzzle.solve(b, **options)
            out.append({"length": s.length, "guarantee": s.guarantee, "solvable": True})
        except npuzzle.Unsolvable:
            out.append({"length": None, "guarantee": None, "solvable": False})
    return out


def check_batch(answers: List[nd.BoardAnswer], boards: List[str], local: List[Dict]) -> None:
    indices = sorted(a.index for a in answers)
    assert indices == list(range(len(boards))), "every board answered exactly once"
    for a in answers:
        assert a.error is None, f"board {a.index}: {a.error!r}"
        r = a.record
        want = local[a.index]
        assert r["solvable"] == want["solvable"], a.board
        assert r["length"] == want["length"], a.board
        assert r["guarantee"] == want["guarantee"], a.board
        if r["solvable"]:
            rows = [[int(t) for t in a.board.split()][i : i + r["width"]]
                    for i in range(0, r["width"] * r["height"], r["width"])]
            goal = [[int(t, 36) for t in r["goal"]][i : i + r["width"]]
                    for i in range(0, r["width"] * r["height"], r["width"])]
            assert replay(rows, r["moves"]) == goal


def test_batch_equals_local_answers(client: Client) -> None:
    boards = batch_boards()
    local = local_answers(boards)  # also builds the 15-puzzle's tables once, before the workers
    answers = list(nd.solve_many(boards, client))
    check_batch(answers, boards, local)
    ordered = list(nd.solve_many_ordered(boards, client, chunk_size=7))
    assert [a.index for a in ordered] == list(range(len(boards)))
    check_batch(ordered, boards, local)
    korf = korf_easiest()
    check_batch(list(nd.solve_many(korf, client, goal="blank-first")), korf,
                local_answers(korf, goal="blank-first"))


def test_errors_come_back_as_values(client: Client) -> None:
    boards = ["8 6 7 2 5 4 3 0 1", "1 2 3", "1 2 3 4 5 6 8 7 0", KORF24_40]
    answers = sorted(nd.solve_many(boards, client, max_nodes=200_000, heuristic="manhattan",
                                   engine="idastar"), key=lambda a: a.index)
    assert answers[0].error is None and answers[0].length == 31
    assert isinstance(answers[1].error, ValueError)
    assert answers[2].error is None and answers[2].record["solvable"] is False
    assert isinstance(answers[3].error, npuzzle.LimitReached)
    assert answers[3].error.limit == "nodes"
    with pytest.raises(TypeError):
        list(nd.solve_many(boards, client, no_such_option=1))


def test_batch_survives_a_killed_worker(client: Client) -> None:
    boards = batch_boards() * 3
    local = local_answers(boards[: len(boards) // 3]) * 3
    answers = []
    killed = None
    for a in nd.solve_many(boards, client, chunk_size=1):
        answers.append(a)
        if killed is None:
            killed = kill_busy_worker(client)
    check_batch(answers, boards, local)
    client.wait_for_workers(2, timeout=60)
    assert killed not in worker_pids(client).values()


def test_one_board_across_the_cluster_small(client: Client) -> None:
    """15-puzzles with Manhattan distance: every iteration spread (tiny frontiers and packets),
    the optimal length, IDA*'s guarantee and thresholds."""
    for inst in npuzzle.parse_instances((TESTDATA / "seed15.txt").read_text())[:4]:
        board = inst["board"]
        seen = []
        s = nd.solve(board, client, heuristic="manhattan", frontier_size=20, packet_size=3,
                     on_iteration=seen.append)
        assert s.length == inst["optimal"] and s.optimal and s.engine == "idastar"
        assert s.lower_bound == inst["optimal"]
        local = npuzzle.solve(board, engine="idastar", heuristic="manhattan", threads=1)
        assert [i["threshold"] for i in s.stats["iterations"]] == [
            i["threshold"] for i in local.stats["iterations"]]
        assert [i["threshold"] for i in seen] == [i["threshold"] for i in local.stats["iterations"]]
        assert replay(board, s.moves) == [list(r) for r in s.goal]


def test_cancelled_search_stops_its_tasks(client: Client) -> None:
    """A 24-puzzle with linear conflict runs for hours: cancel it after 3 s; LimitReached
    says "cancelled" with the threshold exhausted, and no task is left running."""
    cancel = threading.Event()
    threading.Timer(3.0, cancel.set).start()
    started = time.monotonic()
    with pytest.raises(npuzzle.LimitReached) as e:
        nd.solve(KORF24_40, client, goal="blank-first", heuristic="linear-conflict",
                 cancel=cancel, packet_size=2)
    assert e.value.limit == "cancelled"
    h0 = npuzzle.check(KORF24_40, goal="blank-first")["linear_conflict"]
    assert e.value.lower_bound >= h0
    assert time.monotonic() - started < 10
    deadline = time.monotonic() + 5
    while any(client.processing().values()):
        assert time.monotonic() < deadline, f"tasks still running: {client.processing()}"
        time.sleep(0.1)
    # The timeout stops it the same way.
    with pytest.raises(npuzzle.LimitReached) as e:
        nd.solve(KORF24_40, client, goal="blank-first", heuristic="linear-conflict", timeout=2)
    assert e.value.limit == "time" and e.value.lower_bound >= h0


def pdb24_dir() -> str:
    if PDB24 is None:
        pytest.skip("NPUZZLE_PDB_DIR (the 6-6-6-6 tables) not given")
    tables = list(Path(PDB24).glob("*5x5*.pdb"))
    assert len(tables) >= 4, f"no 6-6-6-6 tables in NPUZZLE_PDB_DIR={PDB24}"
    return PDB24


def test_korf24_40_across_the_cluster_with_a_killed_worker(client: Client) -> None:
    """Korf's 24-puzzle #40: 82 moves, optimal, on the 2 workers; one worker process is killed
    during an iteration spread over the cluster, and the search still ends optimal."""
    pdb_dir = pdb24_dir()
    killed = []

    def on_iteration(it: Dict) -> None:
        if not killed and it["packets"]:
            threading.Timer(0.3, lambda: killed.append(kill_busy_worker(client))).start()

    s = nd.solve(KORF24_40, client, goal="blank-first", pdb_dir=pdb_dir, optimal=True,
                 on_iteration=on_iteration)
    assert s.length == 82 and s.optimal and s.guarantee == "optimal"
    assert killed, "a worker was killed during the search"
    assert replay([[int(t) for t in KORF24_40.split()][i : i + 5] for i in range(0, 25, 5)],
                  s.moves) == [list(r) for r in s.goal]
    client.wait_for_workers(2, timeout=120)


def test_two_workers_search_at_once(client: Client) -> None:
    """Korf's 24-puzzle #40 on the 2 workers: in its largest iteration the packets' search
    seconds add up to well over the iteration's wall time (both workers searching at once,
    whatever else the machine runs: each packet's seconds are its own wall time), and the
    packets after the first spread iteration are sized by predicted work (far fewer than the
    frontier's nodes)."""
    pdb_dir = pdb24_dir()
    nd.solve(KORF24_40, client, goal="blank-first", pdb_dir=pdb_dir)  # both workers warm
    seen: List[Dict] = []
    s = nd.solve(KORF24_40, client, goal="blank-first", pdb_dir=pdb_dir, on_iteration=seen.append)
    assert s.length == 82 and s.optimal
    spread = [i for i in seen if len(i["packets"]) >= 2]
    assert spread, f"no iteration was spread: {seen}"
    largest = max(spread, key=lambda i: sum(i["packets"]))
    work, wall = sum(largest["packets"]), largest["seconds"]
    assert work >= 1.5 * wall, f"packets {work:.2f} s of search in {wall:.2f} s: not 2 at once"


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "boards.txt"
    f.write_text("8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 8 7 0\n")
    status = nd.main(["--local", "1", str(f)])
    out = capsys.readouterr().out.splitlines()
    assert status == 1  # the second board is unsolvable, as `npuzzle solve` says with exit 1
    import json

    records = [json.loads(line) for line in out]
    assert records[0]["length"] == 31 and records[1]["solvable"] is False
    assert records[0].keys() == records[1].keys()
    status = nd.main(["--local", "2", "--one", "--heuristic", "manhattan", str(f)])
    assert status == 2  # --one takes exactly one board
    f.write_text("8 6 7 2 5 4 3 0 1\n")
    assert nd.main(["--local", "2", "--one", str(f)]) == 0
    assert json.loads(capsys.readouterr().out)["length"] == 31
