//! End-to-end tests of boards of more than 16 cells (up to 127×127) and of the engines that do
//! not prove optimality: auto's choice, `--optimal`, `--weight`, `--engine constructive`/`nxn`,
//! sizes of 128 and more. Every printed solution is replayed with `npuzzle_core::verify`.

use assert_cmd::Command;

mod common;
use common::{npuzzle_with_cache, replayed as checked, scratch};

/// A 5×5 board 30 random moves from the blank-last goal (`generate --size 5x5 --walk 30
/// --seed 1`); its optimum is 30 moves.
const B5: &str = "1 2 8 4 9 6 7 5 13 10 0 18 17 3 14 11 16 12 20 15 21 22 23 19 24";

/// The binary, with its pattern-database cache in the test's scratch directory (`--engine auto`
/// builds small tables on first use).
fn npuzzle() -> Command {
    npuzzle_with_cache(scratch("pdb-cache"))
}

/// Runs `npuzzle` with `args` and `stdin`, expecting exit status `code`; returns stdout and
/// stderr.
fn run(args: &[&str], stdin: &str, code: i32) -> (String, String) {
    let out = npuzzle().args(args).write_stdin(stdin).output().unwrap();
    let (o, e) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert_eq!(out.status.code(), Some(code), "{args:?}: {e}");
    (o, e)
}

#[test]
fn five_by_five_close_to_solved_is_solved_optimally() {
    let (o, e) = run(&["solve", "--format", "json", B5], "", 0);
    let v = checked(o.trim());
    assert_eq!(
        (v["engine"].as_str(), v["optimal"].as_bool()),
        (Some("idastar"), Some(true))
    );
    assert_eq!(v["length"], 30);
    // Auto without the 5x5 tables cached says, once, how to build them and what that costs.
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(
        e.contains("`npuzzle pdb build --size 5x5 --goal blank-last`"),
        "{e}"
    );
    assert!(e.contains("486.4 MiB on disk"), "{e}");
    let (o, _) = run(
        &["solve", "--format", "json", "--engine", "astar", B5],
        "",
        0,
    );
    assert_eq!(checked(o.trim())["length"], 30);
    let (o, _) = run(
        &["solve", "--format", "json", "--engine", "bidirectional", B5],
        "",
        0,
    );
    let v = checked(o.trim());
    assert_eq!(
        (v["engine"].as_str(), v["length"].as_u64()),
        (Some("bidirectional"), Some(30))
    );
    let (o, _) = run(&["solve", B5], "", 0);
    assert!(o.starts_with("Solved in 30 moves (optimal): "), "{o}");
}

#[test]
fn large_random_boards_get_beam_search_then_the_constructive_solver() {
    let (board, _) = run(
        &[
            "generate", "--size", "12x9", "--seed", "4", "--format", "grid",
        ],
        "",
        0,
    );
    // 108 cells: the anytime beam search improves the constructive answer.
    let (o, e) = run(&["solve", "--format", "json"], &board, 0);
    let v = checked(o.trim());
    assert_eq!(v["engine"], "beam", "{e}");
    assert_eq!(v["optimal"], false);
    assert!(v["length"].as_u64() >= v["stats"]["initial_h"].as_u64());
    let (c, _) = run(
        &["solve", "--format", "json", "--engine", "constructive"],
        &board,
        0,
    );
    assert!(v["length"].as_u64() < checked(c.trim())["length"].as_u64());
    // Above 400 cells: the constructive answer at once.
    let (big, _) = run(&["generate", "--size", "21x21", "--seed", "4"], "", 0);
    let (o, e) = run(&["solve", "--format", "json"], &big, 0);
    let v = checked(o.trim());
    assert_eq!(v["engine"], "constructive");
    assert_eq!(v["optimal"], false);
    assert!(v["length"].as_u64() >= v["stats"]["initial_h"].as_u64());
    assert!(e.contains("using the constructive solver"), "{e}");
    // --engine nxn is the same solver, named constructive; text output says it is not optimal.
    let (o, e) = run(&["solve", "--engine", "nxn"], &board, 0);
    assert!(o.contains("(not proven optimal: at least"), "{o}");
    assert!(o.contains("constructive + linear-conflict"), "{o}");
    assert!(e.is_empty(), "{e}");
}

#[test]
fn the_largest_board_in_both_goal_conventions() {
    for goal in ["blank-last", "blank-first"] {
        let (board, _) = run(
            &[
                "generate", "--size", "127x127", "--seed", "9", "--goal", goal,
            ],
            "",
            0,
        );
        let (o, _) = run(&["solve", "--format", "json", "--goal", goal], &board, 0);
        let v = checked(o.trim());
        assert_eq!(
            (v["width"].as_u64(), v["height"].as_u64()),
            (Some(127), Some(127))
        );
        assert_eq!(v["optimal"], false);
    }
    // Textbook format (a line with n, then n rows), non-square via rows.
    let (board, _) = run(
        &[
            "generate", "--size", "30x7", "--seed", "2", "--format", "grid",
        ],
        "",
        0,
    );
    let (o, _) = run(
        &["solve", "--format", "json", "--engine", "constructive"],
        &board,
        0,
    );
    assert_eq!(checked(o.trim())["width"], 30);
}

#[test]
fn weighted_astar_and_its_bound() {
    let (o, _) = run(&["solve", "--format", "json", "--weight", "1.5", B5], "", 0);
    let v = checked(o.trim());
    assert_eq!(v["engine"], "weighted-astar");
    assert_eq!(v["optimal"], false);
    assert_eq!(v["weight"], 1.5);
    assert!(v["length"].as_u64().unwrap() <= 45);
    let (o, _) = run(&["solve", "--format", "json", "--weight", "1", B5], "", 0);
    let v = checked(o.trim());
    assert_eq!(
        (v["optimal"].as_bool(), v["length"].as_u64()),
        (Some(true), Some(30))
    );
    // On a bitboard-sized board too, and with --engine weighted-astar's default weight.
    let (o, _) = run(
        &[
            "solve",
            "--format",
            "json",
            "--engine",
            "weighted-astar",
            "8 6 7 2 5 4 3 0 1",
        ],
        "",
        0,
    );
    let v = checked(o.trim());
    assert!(v["length"].as_u64().unwrap() <= 62 && v["weight"] == 2.0);
}

#[test]
fn optimal_and_weight_errors() {
    let (_, e) = run(
        &["solve", "--optimal", "--engine", "constructive", B5],
        "",
        2,
    );
    assert!(
        e.contains("--optimal: the constructive engine does not prove"),
        "{e}"
    );
    let (_, e) = run(&["solve", "--optimal", "--weight", "2", B5], "", 2);
    assert!(e.contains("weighted-astar engine with weight 2"), "{e}");
    let (_, e) = run(&["solve", "--weight", "0.5", B5], "", 2);
    assert!(e.contains("bad weight 0.5"), "{e}");
    let (_, e) = run(
        &["solve", "--weight", "2", "--engine", "idastar", B5],
        "",
        2,
    );
    assert!(
        e.contains("--weight applies to the weighted-astar engine only"),
        "{e}"
    );
    // --optimal with auto keeps IDA* (here stopped by a node limit: an error, not a fallback).
    let (board, _) = run(&["generate", "--size", "6x6", "--seed", "1"], "", 0);
    let (_, e) = run(&["solve", "--optimal", "--max-nodes", "10000"], &board, 2);
    assert!(e.contains("node limit of 10000"), "{e}");
}

#[test]
fn sizes_and_bad_input() {
    let (_, e) = run(&["solve", "--size", "128x2", "1 2 3"], "", 2);
    assert!(e.contains("out of range"), "{e}");
    let big: Vec<String> = (1..128 * 128).map(|t| t.to_string()).collect();
    let (_, e) = run(&["solve"], &format!("{} 0", big.join(" ")), 2);
    assert!(e.contains("too large to be a tile"), "{e}");
    // Unsolvable boards of any size are answered by parity (exit 1).
    let mut cells: Vec<usize> = (1..36).collect();
    cells.swap(0, 1);
    cells.push(0);
    let text: Vec<String> = cells.iter().map(ToString::to_string).collect();
    let (o, _) = run(&["solve", &text.join(" ")], "", 1);
    assert!(o.starts_with("No solution: "), "{o}");
    // Printing millions of 127x127 boards is refused with a clear message.
    let (board, _) = run(&["generate", "--size", "127x127", "--seed", "1"], "", 0);
    let (_, e) = run(&["solve", "--format", "boards"], &board, 2);
    assert!(e.contains("too many boards to print"), "{e}");
    // A 5x5 with --format boards says the count is minimal only when it is proven.
    let (o, _) = run(&["solve", "--format", "boards", B5], "", 0);
    assert!(o.starts_with("Minimum number of moves = 30\n"), "{o}");
    let (o, _) = run(
        &["solve", "--format", "boards", "--engine", "nxn", B5],
        "",
        0,
    );
    assert!(o.contains("(not proven minimal)"), "{o}");
}

/// Auto on a random 5×5 board: an anytime answer from beam search, shorter than the constructive
/// solver's, that says its lower bound (text and JSON).
#[test]
fn anytime_answers_say_their_bound() {
    let (board, _) = run(&["generate", "--size", "5x5", "--seed", "3"], "", 0);
    let (o, e) = run(&["solve", "--format", "json"], &board, 0);
    let v = checked(o.trim());
    assert_eq!(v["engine"], "beam", "{e}");
    assert_eq!(v["optimal"], false);
    assert_eq!(v["guarantee"], "unproven", "{v}");
    assert_eq!(
        v["lower_bound"], 80,
        "the linear-conflict bound of this board"
    );
    assert!(e.contains("out of reach of optimal search"), "{e}");
    let (c, _) = run(
        &["solve", "--format", "json", "--engine", "constructive"],
        &board,
        0,
    );
    assert!(v["length"].as_u64() < checked(c.trim())["length"].as_u64());
    let (o, _) = run(&["solve", "--anytime", "0.5"], &board, 0);
    assert!(
        o.contains("(not proven optimal: at least 80 by the heuristic)"),
        "{o}"
    );
}

/// `--optimal` refuses weighted A* with weight 1 and the pattern databases: weighted A* never
/// reopens states, and the pattern databases are admissible but not consistent.
#[test]
fn optimal_needs_a_proof_from_engine_and_heuristic() {
    let (_, e) = run(
        &[
            "solve",
            "--optimal",
            "--engine",
            "weighted-astar",
            "--weight",
            "1",
            "--heuristic",
            "pdb",
            "8 6 7 2 5 4 3 0 1",
        ],
        "",
        2,
    );
    assert!(e.contains("never reopens states"), "{e}");
    let (o, _) = run(
        &[
            "solve",
            "--optimal",
            "--engine",
            "weighted-astar",
            "--weight",
            "1",
            "8 6 7 2 5 4 3 0 1",
        ],
        "",
        0,
    );
    assert!(o.starts_with("Solved in 31 moves (optimal)"), "{o}");
}
