//! End-to-end tests of `npuzzle bench` (and of `npuzzle solve --file` on instance files): JSON
//! records on the repository's instance files, exact lengths, MISMATCH reporting, limits as
//! failures, `--jobs`, bad files, exit codes.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::str::contains;
use serde_json::Value;

mod common;
use common::{npuzzle_with_cache, scratch};

/// The binary, with its pattern-database cache in the test's scratch directory.
fn npuzzle() -> Command {
    npuzzle_with_cache(scratch("bench-pdb-cache"))
}

/// A file of the repository's `testdata/`.
fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata")
        .join(name)
}

/// Writes `text` to a file named `name` in the test's temporary folder.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let path = scratch(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The first `n` instance lines of a testdata file (comment lines kept), as a temporary file.
fn first_instances(name: &str, n: usize) -> PathBuf {
    let text = std::fs::read_to_string(testdata(name)).unwrap();
    let mut kept = 0;
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| {
            if l.starts_with('#') || l.trim().is_empty() {
                return true;
            }
            kept += 1;
            kept <= n
        })
        .collect();
    temp_file(&format!("first{n}-{name}"), &(lines.join("\n") + "\n"))
}

/// The JSON records on `stdout`, one a line.
fn records(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Runs `bench` with `args`, expecting exit 0; its records, each checked to be solved with the
/// file's length.
fn bench_ok(args: &[&str], file: &Path) -> Vec<Value> {
    let out = npuzzle()
        .arg("bench")
        .arg(file)
        .args(args)
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(!stderr.contains("MISMATCH"), "{stderr}");
    assert!(stderr.contains("| engine | heuristic |"), "{stderr}");
    let v = records(&out.get_output().stdout);
    for r in &v {
        assert_eq!(r["status"], "solved", "{r}");
        assert_eq!(r["match"], true, "{r}");
        assert_eq!(r["length"], r["known_optimal"], "{r}");
        assert_eq!(r["proven_optimal"], true, "{r}");
        assert!(r["generated"].as_u64().unwrap() >= r["expanded"].as_u64().unwrap());
        assert!(r["error"].is_null() && r["limit"].is_null(), "{r}");
    }
    v
}

/// (id, engine, heuristic, length) of each record.
fn summary(v: &[Value]) -> Vec<(String, String, String, u64)> {
    v.iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["engine"].as_str().unwrap().to_string(),
                r["heuristic"].as_str().unwrap().to_string(),
                r["length"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn eight_puzzle_31_moves_with_each_goal() {
    // eight31.txt mixes goal conventions by ID prefix: A31_* blank-last, K31_* blank-first.
    let text = std::fs::read_to_string(testdata("eight31.txt")).unwrap();
    let only = |prefix: &str| {
        text.lines()
            .filter(|l| l.starts_with('#') || l.starts_with(prefix))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let a = temp_file("a31.txt", &only("A31"));
    let k = temp_file("k31.txt", &only("K31"));
    let engines = [
        "--engine",
        "idastar",
        "--engine",
        "astar",
        "--engine",
        "bidirectional",
        "-H",
        "manhattan",
        "-H",
        "linear-conflict",
    ];
    let v = bench_ok(&engines, &a);
    assert_eq!(v.len(), 2 * 3 * 2);
    assert!(v.iter().all(|r| r["length"] == 31));
    // Configurations in command-line order, instances in file order within each.
    assert_eq!(
        summary(&v)[..3],
        [
            ("A31_1".into(), "idastar".into(), "manhattan".into(), 31),
            ("A31_2".into(), "idastar".into(), "manhattan".into(), 31),
            (
                "A31_1".into(),
                "idastar".into(),
                "linear-conflict".into(),
                31
            ),
        ]
    );
    let astar = v.iter().find(|r| r["engine"] == "astar").unwrap();
    assert!(astar["stored_states"].as_u64().unwrap() > 0);
    assert!(astar["peak_memory_bytes"].as_u64().unwrap() > 0);
    let v = bench_ok(&["--goal", "blank-first"], &k);
    assert_eq!(summary(&v).len(), 2);
    assert!(
        v.iter()
            .all(|r| r["engine"] == "auto" && r["solver"] == "idastar")
    );
}

#[test]
fn the_wrong_goal_is_a_loud_mismatch() {
    // K31_1 is 31 moves from the blank-first goal but 27 from the blank-last one.
    npuzzle()
        .args(["bench", "--jobs", "1"])
        .arg(testdata("eight31.txt"))
        .assert()
        .code(2)
        .stderr(contains(
            "MISMATCH: instance K31_1 (line 7): auto + linear-conflict found 27, file says 31",
        ))
        .stderr(contains("is --goal the file's goal?"));
    // Korf's instances against the blank-last goal: unsolvable, and the file gives lengths.
    let out = npuzzle()
        .args(["bench", "--goal", "blank-last"])
        .arg(first_instances("korf100.txt", 2))
        .assert()
        .code(2)
        .stderr(contains("MISMATCH: instance 1 (line"))
        .stderr(contains("unsolvable for this goal"));
    let v = records(&out.get_output().stdout);
    assert!(
        v.iter()
            .all(|r| r["status"] == "mismatch" && r["length"].is_null())
    );
}

#[test]
fn a_wrong_known_length_is_a_mismatch() {
    let f = temp_file(
        "wrong-length.txt",
        "# seed15 with one length off by two\n2348170c56ab9def 15\n51309af4d7b826ec 27\n",
    );
    let out = npuzzle()
        .args(["bench", "--engine", "idastar", "--engine", "astar"])
        .arg(&f)
        .assert()
        .code(2)
        .stderr(contains(
            "MISMATCH: instance 51309af4d7b826ec (line 3): idastar + linear-conflict found 25, file says 27",
        ))
        .stderr(contains(
            "MISMATCH: instance 51309af4d7b826ec (line 3): astar + linear-conflict found 25, file says 27",
        ));
    let v = records(&out.get_output().stdout);
    assert_eq!(v.len(), 4);
    assert_eq!(v[0]["status"], "solved");
    assert_eq!(v[1]["status"], "mismatch");
    assert_eq!(v[1]["match"], false);
    assert_eq!(v[1]["length"], 25);
    assert_eq!(v[1]["known_optimal"], 27);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("| idastar | linear-conflict | stm | 2 | 1 | 1 | 0 |"),
        "{stderr}"
    );
}

#[test]
fn seed15_easy_instances_every_optimal_engine() {
    // The instances of at most 33 moves: fast with every optimal engine and both heuristics.
    let f = first_instances("seed15.txt", 4);
    let v = bench_ok(
        &[
            "-e",
            "idastar",
            "-e",
            "astar",
            "-e",
            "bidirectional",
            "-H",
            "manhattan",
            "-H",
            "linear-conflict",
        ],
        &f,
    );
    assert_eq!(v.len(), 4 * 3 * 2);
    let lengths: Vec<u64> = v[..4]
        .iter()
        .map(|r| r["length"].as_u64().unwrap())
        .collect();
    assert_eq!(lengths, [15, 25, 30, 33]);
}

#[test]
fn korf100_first_instances_and_jobs_agree() {
    let f = first_instances("korf100.txt", 2);
    let one = bench_ok(&["--goal", "blank-first", "--jobs", "1"], &f);
    let two = bench_ok(&["--goal", "blank-first", "--jobs", "2"], &f);
    assert_eq!(summary(&one), summary(&two));
    let lengths: Vec<u64> = one.iter().map(|r| r["length"].as_u64().unwrap()).collect();
    assert_eq!(lengths, [57, 55]);
    // IDA* is deterministic: the same node counts whatever the thread count.
    for (a, b) in one.iter().zip(&two) {
        assert_eq!(a["generated"], b["generated"]);
    }
}

#[test]
fn a_node_limit_is_a_failure_that_names_the_limit() {
    let f = first_instances("seed15.txt", 5);
    let out = npuzzle()
        .args(["bench", "--max-nodes", "100000"])
        .arg(&f)
        .assert()
        .code(2)
        .stderr(contains(
            "error: instance 1f345dc8796eab20 (line 10): auto + linear-conflict: search stopped by the node limit of 100000 generated nodes",
        ))
        .stderr(contains("1 board not solved (limit reached or error"));
    let v = records(&out.get_output().stdout);
    assert_eq!(v.len(), 5);
    let failed = &v[4];
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["length"], Value::Null);
    assert_eq!(failed["limit"]["nodes"], 100_000);
    // How far the search got: at the limit (an engine may finish the node it is expanding).
    assert!(failed["generated"].as_u64().unwrap() >= 100_000);
    assert!(failed["error"].as_str().unwrap().contains("node limit"));
    assert!(v[..4].iter().all(|r| r["status"] == "solved"));
    // A time limit, on A*: also a failure, never "no solution". (A* looks at the clock every
    // few thousand expansions, so an easy instance may still finish.)
    let out = npuzzle()
        .args(["bench", "-e", "astar", "--timeout-per-board", "0.001"])
        .arg(first_instances("korf100.txt", 4))
        .args(["--goal", "blank-first", "--jobs", "2"])
        .assert()
        .code(2)
        .stderr(contains("search stopped by the time limit of 0.001 s"))
        .stderr(contains("boards not solved"));
    let v = records(&out.get_output().stdout);
    assert!(v.iter().any(|r| r["limit"]["time"] == 0.001));
    assert!(v.iter().all(|r| r["status"] != "mismatch"));
}

#[test]
fn weighted_astar_and_constructive_may_be_longer_never_shorter() {
    let f = first_instances("seed15.txt", 4);
    let out = npuzzle()
        .args([
            "bench",
            "-e",
            "weighted-astar",
            "-e",
            "constructive",
            "--weight",
            "1.5",
        ])
        .arg(&f)
        .assert()
        .success();
    let v = records(&out.get_output().stdout);
    assert_eq!(v.len(), 8);
    for r in &v {
        assert_eq!(r["status"], "solved", "{r}");
        assert_eq!(r["proven_optimal"], false, "{r}");
        let (n, opt) = (
            r["length"].as_u64().unwrap(),
            r["known_optimal"].as_u64().unwrap(),
        );
        assert!(n >= opt, "{r}");
        if r["engine"] == "weighted-astar" {
            assert!(n as f64 <= 1.5 * opt as f64, "{r}");
        }
        assert_eq!(r["match"], n == opt);
    }
}

#[test]
fn json_file_and_summary_on_stdout() {
    let f = first_instances("seed15.txt", 3);
    let json = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-out.jsonl");
    let out = npuzzle()
        .args(["bench", "-H", "manhattan", "--json"])
        .arg(&json)
        .arg(&f)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        stdout.contains("| auto | manhattan | stm | 3 | 3 | 0 | 0 |"),
        "{stdout}"
    );
    let v = records(&std::fs::read(&json).unwrap());
    assert_eq!(v.len(), 3);
    assert_eq!(v[2]["length"], 30);
    assert_eq!(v[2]["line"], 8);
}

#[test]
fn bad_files_are_clear_errors() {
    let fail = |file: &Path, args: &[&str], message: &str| {
        npuzzle()
            .arg("bench")
            .arg(file)
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains(message));
    };
    fail(
        Path::new("/nonexistent/korf.txt"),
        &[],
        "error: cannot read /nonexistent/korf.txt",
    );
    let f = temp_file("not-instances.txt", "2348170c56ab9def 15\nhello world\n");
    fail(
        &f,
        &[],
        "is not a benchmark instance file: line 2 is not a benchmark instance",
    );
    let f = temp_file("duplicate-tile.txt", "2348170c56ab9dee 15\n");
    fail(&f, &[], "is not a benchmark instance file: ");
    let f = temp_file("empty.txt", "# nothing here\n");
    fail(&f, &[], "is not a benchmark instance file");
    // A goal of another shape than the instances.
    fail(
        &testdata("seed15.txt"),
        &["--goal", "123456780"],
        "does not fit --goal 123456780",
    );
    fail(
        &testdata("seed15.txt"),
        &["--weight", "3"],
        "--weight applies to the weighted-astar engine only",
    );
    fail(
        &testdata("seed15.txt"),
        &["-e", "weighted-astar", "--weight", "0.5"],
        "weight",
    );
    npuzzle()
        .args(["bench", "--jobs", "0"])
        .arg(testdata("seed15.txt"))
        .assert()
        .code(2);
}

#[test]
fn solve_reads_instance_files() {
    let f = first_instances("korf100.txt", 2);
    let out = npuzzle()
        .args([
            "solve",
            "--format",
            "json",
            "--goal",
            "blank-first",
            "--file",
        ])
        .arg(&f)
        .assert()
        .success();
    let lengths: Vec<u64> = records(&out.get_output().stdout)
        .iter()
        .map(|r| r["length"].as_u64().unwrap())
        .collect();
    assert_eq!(lengths, [57, 55]);
    let out = npuzzle()
        .args(["solve", "--format", "json", "--file"])
        .arg(first_instances("seed15.txt", 3))
        .assert()
        .success();
    let lengths: Vec<u64> = records(&out.get_output().stdout)
        .iter()
        .map(|r| r["length"].as_u64().unwrap())
        .collect();
    assert_eq!(lengths, [15, 25, 30]);
}

/// The pattern-database heuristic in a batch: Korf's first five with IDA*, A* and the
/// bidirectional engine (6-6-3 for the blank-first goal, built once for the run and cached).
#[test]
fn pattern_databases_in_a_batch() {
    let file = first_instances("korf100.txt", 5);
    let v = bench_ok(
        &[
            "--goal",
            "blank-first",
            "--heuristic",
            "pdb",
            "--engine",
            "idastar",
            "--engine",
            "astar",
            "--engine",
            "bidirectional",
            "--memory-limit",
            "2G",
        ],
        &file,
    );
    assert_eq!(v.len(), 15);
    assert!(v.iter().all(|r| r["heuristic"] == "pdb"), "{v:?}");
}

/// `--metric mtm`: every board solved in the multi-tile metric and judged in it. The expected
/// lengths are the exact MTM optima of a breadth-first search over all 181,440 8-puzzle states
/// (`npuzzle_testsuite::BfsOracle::in_metric`), one board at each of several distances up to
/// the MTM diameter 24, and the hardest STM board (31 STM, 20 MTM).
#[test]
fn mtm_lengths_against_breadth_first_search() {
    use npuzzle_core::{Goal, Metric, Shape};
    use npuzzle_testsuite::BfsOracle;
    let goal = Goal::blank_last(Shape::square(3).unwrap());
    let oracle = BfsOracle::in_metric(&goal, Metric::Mtm);
    assert_eq!(oracle.diameter(), 24);
    // The first board found at each chosen MTM distance, in BFS order (deterministic).
    let all = oracle.sample(1);
    let mut boards: Vec<(String, u32)> = [1, 5, 12, 18, 24]
        .iter()
        .map(|&d| {
            let (l, _) = all.iter().find(|(_, e)| *e == d).unwrap();
            (l.to_compact(), d)
        })
        .collect();
    let a31 = npuzzle_core::parse_board(common::A31, None).unwrap();
    assert_eq!(oracle.distance(&a31), Some(20));
    boards.push((a31.to_compact(), 20));
    let lines: Vec<String> = boards
        .iter()
        .enumerate()
        .map(|(i, (b, d))| format!("m{i} {b} {d}"))
        .collect();
    let text = lines.join("\n") + "\n";
    let file = temp_file("mtm8.txt", &format!("# MTM optima by BFS\n{text}"));
    // Auto (the multi-tile tables) and IDA* with walking distance and mtm-manhattan.
    let out = npuzzle()
        .args(["bench", "--metric", "mtm", "--jobs", "2"])
        .arg(&file)
        .args(["-e", "auto", "-e", "idastar", "-H", "mtm-pdb"])
        .args(["-H", "walking-distance", "-H", "mtm-manhattan"])
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(!stderr.contains("MISMATCH"), "{stderr}");
    assert!(
        stderr.contains("| auto | mtm-pdb | mtm | 6 | 6 | 0 | 0 |"),
        "{stderr}"
    );
    assert!(
        stderr.contains("| idastar | mtm-manhattan | mtm | 6 | 6 | 0 | 0 |"),
        "{stderr}"
    );
    let v = records(&out.get_output().stdout);
    assert_eq!(v.len(), 6 * 6);
    for (i, r) in v.iter().enumerate() {
        let (board, d) = &boards[i % 6];
        assert_eq!(r["board"], board.as_str(), "{r}");
        assert_eq!(r["metric"], "mtm", "{r}");
        assert_eq!(r["status"], "solved", "{r}");
        assert_eq!(r["length"].as_u64(), Some(u64::from(*d)), "{r}");
        assert_eq!(r["proven_optimal"], true, "{r}");
        assert_eq!(r["solver"], "idastar", "{r}");
    }
    // Single-tile engines answer unproven in MTM: never shorter than the optimum.
    let out = npuzzle()
        .args(["bench", "--metric", "mtm", "-e", "astar", "-H", "manhattan"])
        .arg(&file)
        .assert()
        .success();
    for (r, (_, d)) in records(&out.get_output().stdout).iter().zip(&boards) {
        assert_eq!(r["proven_optimal"], false, "{r}");
        assert!(r["length"].as_u64().unwrap() >= u64::from(*d), "{r}");
    }
    // STM lengths in an MTM run are loud mismatches (the hardest board: 20, file says 31).
    let stm = temp_file("stm8.txt", &format!("a31 {} 31\n", a31.to_compact()));
    npuzzle()
        .args(["bench", "--metric", "mtm", "-H", "walking-distance"])
        .arg(&stm)
        .assert()
        .code(2)
        .stderr(contains(
            "MISMATCH: instance a31 (line 1): auto + walking-distance found 20, file says 31",
        ));
    // A heuristic that is not admissible in MTM is refused before any board.
    npuzzle()
        .args(["bench", "--metric", "mtm", "-H", "linear-conflict"])
        .arg(&stm)
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("not admissible in the multi-tile metric"));
}
