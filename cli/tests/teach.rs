//! Issue 27's teaching and research features end to end: `check BOARD --moves` (exit 0 / 1 /
//! 2, text and JSON), `solve --all-optimal / --count` (listed sequences replayed, the count),
//! `--max-depth` (a proven bound, exit 2, never "no solution"), and `--engine hill-climbing`
//! with `--seed` and `--max-steps`; every bad value one line and exit 2.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

mod common;
use common::{A31, npuzzle_with_cache, replayed, scratch};

fn npuzzle() -> Command {
    npuzzle_with_cache(scratch("pdb-cache-teach"))
}

/// An optimal solution of A31 (31 moves).
const BEST: &str = "DDRUULLDDRURULLDDRURULLDDRRUULL";

fn fails(args: &[&str], message: &str) {
    let out = npuzzle()
        .args(args)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with("error: "))
        .stderr(contains(message));
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn check_moves_judges_a_solution() {
    npuzzle()
        .args(["check", A31, "--moves", BEST])
        .assert()
        .code(0)
        .stdout(contains("Legal: every move is legal"))
        .stdout(contains("Reaches the goal: yes"))
        .stdout(contains("Verdict: solves the board in 31 moves: optimal"));
    // Two moves of detour: solves, 2 more than the optimum.
    let detour = format!("LR{BEST}");
    npuzzle()
        .args(["check", A31, "--moves", &detour])
        .assert()
        .code(0)
        .stdout(contains("2 more than the optimum (31)"));
    // One move short: exit 1, the wrong cells named.
    npuzzle()
        .args(["check", A31, "--moves", &BEST[..30]])
        .assert()
        .code(1)
        .stdout(contains("Reaches the goal: no"))
        .stdout(contains("Wrong cells (2)"));
    // An illegal move: its number and why.
    npuzzle()
        .args(["check", A31, "--moves", "DDD"])
        .assert()
        .code(1)
        .stdout(contains("move 3 (D) is illegal"))
        .stdout(contains("top row"));
    // JSON.
    let out = npuzzle()
        .args(["check", A31, "--moves", "d d,r", "--format", "json"])
        .assert()
        .code(1);
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(
        (v["moves"].as_str(), v["legal"].as_bool()),
        (Some("DDR"), Some(true))
    );
    assert_eq!(v["optimum"]["length"], 31);
    // Out of the node budget: judged against the lower bound, saying so.
    npuzzle()
        .args([
            "check",
            "38abfe7951024c6d",
            "--moves",
            "L",
            "--max-nodes",
            "1000",
        ])
        .assert()
        .code(1)
        .stdout(contains("Optimum: not computed; at least"))
        .stdout(contains("node limit"));
    fails(
        &["check", A31, "--moves", "DX"],
        "bad --moves \"DX\": bad move character 'X'",
    );
    fails(&["check", "--moves", "DD"], "");
    fails(&["check", A31, "--format", "json"], "--moves");
}

/// `--within K`: every solution within K moves of the optimum, counted by length as an
/// enumeration over every move sequence says (`npuzzle_testsuite::solutions_by_length`),
/// listed shortest first, each replayed; `--count --within`; the refusals.
#[test]
fn solutions_within_k_moves() {
    let board = npuzzle_core::parse_board(A31, None).unwrap();
    let goal = npuzzle_core::Goal::blank_last(board.shape());
    let expected = npuzzle_testsuite::solutions_by_length(&board, &goal, 33);
    let out = npuzzle()
        .args([
            "solve", A31, "--within", "2", "--format", "json", "--limit", "50",
        ])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let v = replayed(text.trim());
    assert_eq!(v["optimal_count"], 40, "{v}");
    assert_eq!(v["within"], 2);
    assert_eq!(v["within_count"], expected.iter().sum::<u64>());
    assert_eq!(
        v["counts_by_length"],
        serde_json::json!([
            {"length": 31, "count": 40},
            {"length": 32, "count": 0},
            {"length": 33, "count": expected[33]}
        ])
    );
    let list = v["solutions"].as_array().unwrap();
    assert_eq!(list.len(), 50);
    for (i, m) in list.iter().enumerate() {
        let m = m.as_str().unwrap();
        assert_eq!(m.len(), if i < 40 { 31 } else { 33 }, "shortest first");
        let mut b = board.clone();
        for mv in npuzzle_core::parse_moves(m).unwrap() {
            assert!(b.apply(mv));
        }
        assert_eq!(&b, goal.layout());
    }
    npuzzle()
        .args(["solve", A31, "--within", "2", "--count"])
        .assert()
        .success()
        .stdout(contains(format!(
            "Solutions within 2 moves of the optimum: {} (31 moves: 40, 33 moves: {})\n",
            expected.iter().sum::<u64>(),
            expected[33]
        )));
    npuzzle()
        .args(["solve", A31, "--within", "1", "--limit", "2"])
        .assert()
        .success()
        .stdout(contains(
            "Solutions within 1 move of the optimum: 40 (31 moves: 40) (the first 2 listed, shortest first",
        ));
    fails(
        &["solve", A31, "--within", "2", "--max-depth", "40"],
        "--max-depth applies to the search for optimal solutions only, not to --within 2",
    );
    fails(
        &[
            "solve",
            A31,
            "--within",
            "1",
            "--metric",
            "mtm",
            "--max-depth",
            "25",
        ],
        "--max-depth",
    );
    fails(
        &["solve", A31, "--within", "2", "--format", "boards"],
        "--within",
    );
}

/// `--metric mtm` with `--within` in JSON: the counts by MTM length equal the MTM
/// enumeration's (`npuzzle_testsuite::mtm_solutions_by_length`), every listed solution is
/// replayed (letters and counts the same moves, one count group a move), with the default
/// heuristic (the multi-tile tables) and walking distance.
#[test]
fn multi_tile_metric_within_all_optimal_and_count() {
    let board = npuzzle_core::parse_board(A31, None).unwrap();
    let goal = npuzzle_core::Goal::blank_last(board.shape());
    let expected = npuzzle_testsuite::mtm_solutions_by_length(&board, &goal, 21);
    assert!(expected[..20].iter().all(|&n| n == 0));
    let (optimal, next) = (expected[20], expected[21]);
    for heuristic in ["auto", "walking-distance"] {
        let mut args = vec![
            "solve", A31, "--metric", "mtm", "--within", "1", "--format", "json", "--limit",
            "100000",
        ];
        if heuristic != "auto" {
            args.extend(["-H", heuristic]);
        }
        let out = npuzzle().args(&args).assert().success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
        assert_eq!(
            (v["metric"].as_str(), v["length"].as_u64()),
            (Some("mtm"), Some(20))
        );
        assert_eq!(v["optimal_count"], optimal, "{heuristic}");
        assert_eq!(v["within_count"], optimal + next);
        assert_eq!(
            v["counts_by_length"],
            serde_json::json!([
                {"length": 20, "count": optimal},
                {"length": 21, "count": next}
            ])
        );
        let letters = v["solutions"].as_array().unwrap();
        let counts = v["solutions_counts"].as_array().unwrap();
        assert_eq!(letters.len() as u64, optimal + next);
        let mut distinct = std::collections::HashSet::new();
        for (i, (l, c)) in letters.iter().zip(counts).enumerate() {
            let moves = npuzzle_core::parse_moves(l.as_str().unwrap()).unwrap();
            assert_eq!(
                npuzzle_core::parse_moves(c.as_str().unwrap()).unwrap(),
                moves
            );
            let groups = npuzzle_core::parse_move_groups(c.as_str().unwrap()).unwrap();
            let n = if (i as u64) < optimal { 20 } else { 21 };
            assert_eq!(groups.len(), n, "shortest first");
            npuzzle_core::verify(&board, &moves, goal.layout()).unwrap();
            assert!(distinct.insert(moves));
        }
    }
}

/// `--metric mtm` in text: lengths in MTM moves, solutions in counts notation by default,
/// letters with `--notation letters`, counts from the enumeration.
#[test]
fn multi_tile_metric_within_in_text() {
    let board = npuzzle_core::parse_board(A31, None).unwrap();
    let goal = npuzzle_core::Goal::blank_last(board.shape());
    let expected = npuzzle_testsuite::mtm_solutions_by_length(&board, &goal, 21);
    let (optimal, next) = (expected[20], expected[21]);
    npuzzle()
        .args([
            "solve", A31, "--metric", "mtm", "--within", "1", "--count", "-H", "walking-distance",
        ])
        .assert()
        .success()
        .stdout(contains("Solved in 20 MTM moves"))
        .stdout(contains(format!(
            "Solutions within 1 move of the optimum: {} (20 MTM moves: {optimal}, 21 MTM moves: {next})\n",
            optimal + next
        )));
    // All optimal, listed in counts notation by default, letters on request.
    for (notation, letters) in [(None, false), (Some("letters"), true)] {
        let mut args = vec![
            "solve",
            A31,
            "--metric",
            "mtm",
            "--all-optimal",
            "--limit",
            "1",
            "-H",
            "walking-distance",
        ];
        if let Some(n) = notation {
            args.extend(["--notation", n]);
        }
        let out = npuzzle().args(&args).assert().success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert!(
            text.contains(&format!("Optimal solutions: {optimal} (the first 1 listed")),
            "{text}"
        );
        let listed: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix(|c: char| c.is_ascii_digit()))
            .filter_map(|l| l.strip_prefix(". "))
            .collect();
        assert_eq!(listed.len(), 1, "{text}");
        for m in listed {
            assert_eq!(m.chars().any(|c| c.is_ascii_digit()), !letters, "{m}");
            let moves = npuzzle_core::parse_moves(m).unwrap();
            assert_eq!(npuzzle_core::mtm_length(&moves), 20);
            npuzzle_core::verify(&board, &moves, goal.layout()).unwrap();
        }
    }
    npuzzle()
        .args([
            "solve",
            A31,
            "--metric",
            "mtm",
            "--count",
            "-H",
            "walking-distance",
        ])
        .assert()
        .success()
        .stdout(contains(format!("Optimal solutions: {optimal}\n")));
}

#[test]
fn all_optimal_lists_and_counts() {
    let out = npuzzle()
        .args([
            "solve",
            A31,
            "--all-optimal",
            "--format",
            "json",
            "-e",
            "idastar",
        ])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let v = replayed(text.trim());
    assert_eq!(v["optimal_count"], 40, "{v}");
    let list = v["optimal_solutions"].as_array().unwrap();
    assert_eq!(list.len(), 40);
    let mut distinct = std::collections::HashSet::new();
    for m in list {
        let m = m.as_str().unwrap();
        assert_eq!(m.len(), 31);
        // Each listed sequence replayed as the record's own moves (with its MTM count).
        let mut r = v.clone();
        r["moves"] = m.into();
        r["length_mtm"] = npuzzle_core::mtm_length(&npuzzle_core::parse_moves(m).unwrap()).into();
        replayed(&r.to_string());
        assert!(distinct.insert(m.to_string()));
    }
    npuzzle()
        .args(["solve", A31, "--all-optimal", "--limit", "2"])
        .assert()
        .success()
        .stdout(contains("Optimal solutions: 40 (the first 2 listed"))
        .stdout(contains("     2. "));
    npuzzle()
        .args(["solve", A31, "--count"])
        .assert()
        .success()
        .stdout(contains("Optimal solutions: 40"));
    fails(&["solve", A31, "--limit", "3"], "--all-optimal");
    fails(
        &["solve", A31, "--all-optimal", "--limit", "0"],
        "0 is not in 1..",
    );
    fails(
        &["solve", A31, "--all-optimal", "-e", "astar"],
        "--all-optimal applies to the idastar engine",
    );
    fails(
        &["solve", A31, "--count", "--format", "boards"],
        "--format boards",
    );
}

#[test]
fn max_depth_is_a_limit_with_a_proven_bound() {
    fails(
        // Linear conflict: no table build (and its note on stderr) on a fresh cache.
        &["solve", A31, "--max-depth", "29", "-H", "linear-conflict"],
        "depth limit of 29 moves (proven: no solution of at most 29 moves, so every solution has at least 30 moves): f-bound 31",
    );
    npuzzle()
        .args(["solve", A31, "--max-depth", "31", "-e", "idastar"])
        .assert()
        .success()
        .stdout(contains("Solved in 31 moves (optimal)"));
    fails(
        &["solve", A31, "--max-depth", "20", "-e", "greedy"],
        "--max-depth applies to the idastar engine",
    );
    fails(
        &["solve", A31, "--max-depth", "x"],
        "invalid value 'x' for '--max-depth <D>'",
    );
}

#[test]
fn hill_climbing_seeded_and_capped() {
    let run = |seed: &str| {
        let out = npuzzle()
            .args([
                "solve",
                A31,
                "-e",
                "hill-climbing",
                "--seed",
                seed,
                "--format",
                "json",
            ])
            .assert()
            .success();
        let v = replayed(
            String::from_utf8(out.get_output().stdout.clone())
                .unwrap()
                .trim(),
        );
        assert_eq!(
            (v["optimal"].as_bool(), v["engine"].as_str()),
            (Some(false), Some("hill-climbing"))
        );
        assert!(v["length"].as_u64().unwrap() >= 31);
        v["moves"].as_str().unwrap().to_string()
    };
    assert_eq!(run("5"), run("5"), "same seed, same answer");
    fails(
        &["solve", A31, "-e", "hill-climbing", "--max-steps", "5"],
        "step limit of 5 steps",
    );
    fails(
        &["solve", A31, "-e", "hill-climbing", "--max-steps", "0"],
        "bad --max-steps \"0\": at least 1 step",
    );
    fails(
        &["solve", A31, "--seed", "1"],
        "--seed applies to the hill-climbing engine only",
    );
    fails(
        &["solve", A31, "-e", "hill-climbing", "--optimal"],
        "--optimal: the hill-climbing engine does not prove",
    );
}
