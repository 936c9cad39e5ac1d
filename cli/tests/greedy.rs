//! `--engine greedy` end to end: answers on every board type (bitboard, packed board, Vec
//! board) replayed to the goal, never shorter than the optimum, labelled not optimal in text and
//! JSON; `--optimal` refuses it; its memory and node limits; `bench -e greedy`.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

mod common;
use common::{A31, HARD, npuzzle_with_cache, replayed, scratch};

fn npuzzle() -> Command {
    npuzzle_with_cache(scratch("pdb-cache-greedy"))
}

/// The JSON answer of `npuzzle solve --engine greedy --format json ARGS`, replayed.
fn greedy_json(args: &[&str]) -> serde_json::Value {
    let out = npuzzle()
        .args(["solve", "--engine", "greedy", "--format", "json"])
        .args(args)
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let v = replayed(text.trim());
    assert_eq!(v["engine"], "greedy", "{v}");
    assert_eq!(v["optimal"], false, "{v}");
    assert_eq!(v["guarantee"], "unproven", "{v}");
    v
}

#[test]
fn every_board_type_and_heuristic() {
    // 8-puzzle (bitboard): 31 moves at best.
    for h in ["manhattan", "linear-conflict", "hamming", "zero"] {
        let v = greedy_json(&["--heuristic", h, A31]);
        assert!(v["length"].as_u64().unwrap() >= 31, "{v}");
    }
    // 15-puzzle (bitboard): seed15's 50-move instance.
    let v = greedy_json(&[HARD]);
    assert!(v["length"].as_u64().unwrap() >= 50, "{v}");
    // 5x5 (packed board) and 7x7 (Vec board), a few moves from the goal.
    let five = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 0 23 24";
    let v = greedy_json(&[five]);
    assert!(v["length"].as_u64().unwrap() >= 2, "{v}");
    let seven: Vec<String> = (1..=47)
        .chain([0, 48])
        .map(|t: u32| t.to_string())
        .collect();
    let v = greedy_json(&[&seven.join(" ")]);
    assert_eq!(v["length"], 1, "{v}");
}

#[test]
fn text_output_says_not_optimal() {
    npuzzle()
        .args(["solve", "--engine", "greedy", A31])
        .assert()
        .success()
        .stdout(contains("not proven optimal"))
        .stdout(contains("greedy + linear-conflict"));
}

#[test]
fn optimal_refuses_greedy_with_a_reason() {
    npuzzle()
        .args(["solve", "--engine", "greedy", "--optimal", A31])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains(
            "--optimal: the greedy engine does not prove its answers optimal",
        ))
        .stderr(contains("ignores the path length"));
}

#[test]
fn memory_and_node_limits() {
    // With h = 0 greedy search is a depth-first search over 10^13 states.
    npuzzle()
        .args([
            "solve",
            "--engine",
            "greedy",
            "--heuristic",
            "zero",
            "--memory-limit",
            "1M",
            HARD,
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("error: search stopped by the memory limit"))
        .stderr(contains("states stored"))
        .stderr(contains("No solution").not());
    npuzzle()
        .args([
            "solve",
            "--engine",
            "greedy",
            "--heuristic",
            "zero",
            "--max-nodes",
            "1000",
            HARD,
        ])
        .assert()
        .code(2)
        .stderr(contains(
            "error: search stopped by the node limit of 1000 generated nodes: start estimate 0,",
        ))
        // Greedy search orders by h alone: it reaches no f-bound, and says so.
        .stderr(contains("f-bound").not());
}
