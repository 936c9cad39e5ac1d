//! End-to-end tests of the `npuzzle` binary: every input format, every output format, the three
//! optimal engines (IDA*, A*, bidirectional) with every heuristic, exit codes, every class of bad input, limits, `check` and
//! `generate`. Every solution printed as JSON is replayed with `npuzzle_core::verify`.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use assert_cmd::Command;
use npuzzle_core::{Shape, parse_board};
use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;

mod common;
use common::{A31, HARD, K31, npuzzle_with_cache, replayed, scratch};

/// A 15-puzzle instance 30 moves from the blank-last goal (seed15.txt).
const SEED30: &str = "1f3452d8a70b96ec";
/// Tiles 14 and 15 swapped: unsolvable.
const UNSOLVABLE: &str = "123456789abcdfe0";

/// The binary, with its pattern-database cache in the test's scratch directory (`--engine auto`
/// builds small tables on first use).
fn npuzzle() -> Command {
    npuzzle_with_cache(scratch("pdb-cache"))
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.output().expect("runs");
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Checks one JSON answer (solvable, proven optimal, moves replayed to its goal) and returns
/// its length.
fn verified_length(line: &str) -> usize {
    let v = replayed(line);
    assert_eq!(v["solvable"], true, "{line}");
    assert_eq!(v["optimal"], true, "{line}");
    v["length"].as_u64().unwrap() as usize
}

/// Lengths of all JSON answers on stdout, each verified.
fn json_lengths(stdout: &str) -> Vec<usize> {
    stdout.lines().map(verified_length).collect()
}

/// Runs `solve --format json` with `args` and returns the verified lengths.
fn solve_json(args: &[&str]) -> Vec<usize> {
    let out = npuzzle()
        .arg("solve")
        .args(["--format", "json"])
        .args(args)
        .assert()
        .success();
    json_lengths(&String::from_utf8_lossy(&out.get_output().stdout))
}

// ---- input formats ----

#[test]
fn hex_argument() {
    npuzzle()
        .args(["solve", "2348170c56ab9def"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "Solved in 15 moves (optimal): ",
        ));
}

#[test]
fn number_list_argument_and_several_arguments() {
    assert_eq!(solve_json(&[A31]), [31]);
    assert_eq!(
        solve_json(&[A31, "2348170c56ab9def", "1,2,3,4,5,6,7,0,8"]),
        [31, 15, 1]
    );
}

#[test]
fn stdin_one_board_per_line() {
    let out = npuzzle()
        .args(["solve", "--format", "json"])
        .write_stdin(format!("# comment\n2348170c56ab9def\n{A31}\n123456780\n"))
        .assert()
        .success();
    assert_eq!(
        json_lengths(&String::from_utf8_lossy(&out.get_output().stdout)),
        [15, 31, 0]
    );
}

#[test]
fn stdin_rows_separated_by_blank_lines() {
    let out = npuzzle()
        .args(["solve", "--format", "json"])
        .write_stdin(
            "8 6 7\n2 5 4\n3 0 1\n\n1 2 3\n4 5 6\n7 0 8\n\n 1  2  3  4\n 5  6  7  8\n 9 10 11  0\n",
        )
        .assert()
        .success();
    assert_eq!(
        json_lengths(&String::from_utf8_lossy(&out.get_output().stdout)),
        [31, 1, 0]
    );
}

#[test]
fn textbook_file() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("npuzzle-puzzle3x3-31.txt");
    std::fs::write(&path, "3\n 8  6  7\n 2  5  4\n 3  0  1\n").unwrap();
    let out = npuzzle()
        .args(["solve", "--format", "json", "--file"])
        .arg(&path)
        .assert()
        .success();
    assert_eq!(
        json_lengths(&String::from_utf8_lossy(&out.get_output().stdout)),
        [31]
    );
    npuzzle()
        .args(["solve", "--file", "/nonexistent/boards.txt"])
        .assert()
        .code(2)
        .stderr(contains("cannot read /nonexistent/boards.txt"));
}

#[test]
fn non_square_boards() {
    // 4x3, four moves from the goal, on one line with --size or as rows.
    assert_eq!(
        solve_json(&["--size", "4x3", "1 0 2 4 5 6 3 7 9 10 11 8"]),
        [4]
    );
    assert_eq!(solve_json(&["1 0 2 4\n5 6 3 7\n9 10 11 8"]), [4]);
    // 2x3 (2 columns, 3 rows), three moves from the goal.
    assert_eq!(solve_json(&["--size", "2x3", "0 2 1 3 5 4"]), [3]);
    // 3x2 with an explicit goal.
    assert_eq!(
        solve_json(&["--size", "3x2", "--goal", "0 1 2 3 4 5", "1 0 2 3 4 5"]),
        [1]
    );
}

#[test]
fn slash_rows_everywhere() {
    // As an argument (the shape from the rows: 4 wide, 3 high, no --size), from stdin (one
    // board a line, mixed with other formats), and from a file.
    assert_eq!(solve_json(&["1 0 2 4/5 6 3 7/9 10 11 8"]), [4]);
    assert_eq!(solve_json(&["8 6 7/2 5 4/3 0 1"]), [31]);
    let out = npuzzle()
        .args(["solve", "--format", "json"])
        .write_stdin("8 6 7/2 5 4/3 0 1\n867254301\n1 2 3/4 5 6/0 7 8\n")
        .assert()
        .success();
    assert_eq!(
        json_lengths(&String::from_utf8_lossy(&out.get_output().stdout)),
        [31, 31, 2]
    );
    let dir = scratch("slash-file");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("boards.txt");
    std::fs::write(&path, "# slash rows\n1 2 3/4 5 6/7 0 8\n").unwrap();
    assert_eq!(solve_json(&["--file", path.to_str().unwrap()]), [1]);
    // generate --format slash writes them, and solve reads them back.
    let slash = stdout_of(npuzzle().args([
        "generate", "--size", "4x2", "--count", "3", "--seed", "5", "--format", "slash",
    ]));
    assert_eq!(slash.lines().count(), 3, "{slash}");
    assert!(slash.lines().all(|l| l.split('/').count() == 2), "{slash}");
    let out = npuzzle()
        .args(["solve", "--format", "json"])
        .write_stdin(slash)
        .assert()
        .success();
    assert_eq!(
        json_lengths(&String::from_utf8_lossy(&out.get_output().stdout)).len(),
        3
    );
    // Ragged rows and a shape that disagrees with --size: one clear line, exit 2.
    fails(
        &["solve", "8 6 7/2 5/4 3 0 1"],
        "",
        "non-rectangular board: row 2 (line 1) has 2 numbers but the first row has 3",
    );
    fails(
        &["solve", "--size", "2x4", "1 0 2 3/4 5 6 7"],
        "",
        "--size says 2x4",
    );
}

#[test]
fn multi_tile_metric_and_counts_notation() {
    // Optimal in MTM: 20 moves (31 single-tile moves) for this 8-puzzle; JSON carries both
    // counts, the letters (replayed by `replayed`) and the counts string.
    let out = npuzzle()
        .args(["solve", "--metric", "mtm", "--format", "json", A31])
        .assert()
        .success();
    let line = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let v = replayed(line.trim());
    assert_eq!(v["metric"], "mtm");
    assert_eq!(
        (v["length"].as_u64(), v["optimal"].as_bool()),
        (Some(20), Some(true))
    );
    assert_eq!(v["length_mtm"].as_u64(), Some(20));
    let stm = v["length_stm"].as_u64().unwrap() as usize;
    assert_eq!(stm, v["moves"].as_str().unwrap().len());
    let counts = v["moves_counts"].as_str().unwrap();
    assert_eq!(
        npuzzle_core::parse_moves(counts).unwrap(),
        npuzzle_core::parse_moves(v["moves"].as_str().unwrap()).unwrap()
    );
    assert_eq!(npuzzle_core::parse_move_groups(counts).unwrap().len(), 20);
    assert_eq!(v["heuristic"], "mtm-pdb");
    // Text: MTM count and counts notation by default; --notation letters overrides.
    let text = stdout_of(npuzzle().args(["solve", "--metric", "mtm", "1 2 3/4 5 6/0 7 8"]));
    assert!(
        text.starts_with(
            "Solved in 1 MTM move (optimal in the multi-tile metric; 2 single-tile moves): L2\n"
        ),
        "{text}"
    );
    let text = stdout_of(npuzzle().args(["solve", "--notation", "counts", "1 2 3 4 5 6 0 7 8"]));
    assert!(
        text.starts_with("Solved in 2 moves (optimal): L2\n"),
        "{text}"
    );
    let text = stdout_of(npuzzle().args([
        "solve",
        "--metric",
        "mtm",
        "--notation",
        "letters",
        "1 2 3 4 5 6 0 7 8",
    ]));
    assert!(text.contains("): LL\n"), "{text}");
    // Another engine: counted in MTM, not proven optimal; refused with --optimal.
    let out = npuzzle()
        .args([
            "solve", "--metric", "mtm", "--engine", "astar", "--format", "json", A31,
        ])
        .assert()
        .success();
    let v = replayed(String::from_utf8_lossy(&out.get_output().stdout).trim());
    assert_eq!(
        (v["optimal"].as_bool(), &v["guarantee"]),
        (Some(false), &"unproven".into())
    );
    assert!(v["length"].as_u64().unwrap() >= 20);
    assert!(v["lower_bound"].as_u64().unwrap() <= 20);
    fails(
        &[
            "solve",
            "--metric",
            "mtm",
            "--engine",
            "astar",
            "--optimal",
            A31,
        ],
        "",
        "--metric mtm with --optimal: the astar engine searches in single-tile moves and cannot prove an answer optimal in the multi-tile metric",
    );
    fails(
        &["solve", "--metric", "mtm", "--heuristic", "manhattan", A31],
        "",
        "bad --heuristic \"manhattan\": not admissible in the multi-tile metric",
    );
    fails(
        &["solve", "--metric", "mtm", "--cycle-check", "fsm", A31],
        "",
        "--cycle-check fsm applies to the single-tile metric only",
    );
    fails(
        &["solve", "--metric", "xtm", A31],
        "",
        "invalid value 'xtm' for '--metric",
    );
    fails(
        &["solve", "--notation", "rle", A31],
        "",
        "invalid value 'rle' for '--notation",
    );
}

// ---- output formats ----

#[test]
fn text_output() {
    let out = stdout_of(npuzzle().args(["solve", A31]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    let moves = lines[0]
        .strip_prefix("Solved in 31 moves (optimal): ")
        .expect("solution line");
    assert_eq!(moves.len(), 31);
    assert!(moves.chars().all(|c| "UDLR".contains(c)));
    // auto: IDA* with pattern databases.
    assert!(lines[1].starts_with("idastar + pdb: "), "{out}");
    assert!(lines[1].contains(" expanded, "), "{out}");
    assert!(lines[1].contains(" generated, "), "{out}");
    assert!(lines[1].contains(" nodes/s, "), "{out}");
    assert!(lines[1].ends_with("last threshold 31"), "{out}");
    let astar = stdout_of(npuzzle().args(["solve", "--engine", "astar", A31]));
    assert!(astar.contains("astar + linear-conflict: "), "{astar}");
    assert!(astar.contains("states stored"), "{astar}");
}

#[test]
fn text_output_names_each_of_several_boards() {
    let out = stdout_of(npuzzle().args(["solve", "123456708", UNSOLVABLE]));
    assert!(
        out.starts_with("Board 1 of 2: 123456708\nSolved in 1 move (optimal): L\n"),
        "{out}"
    );
    assert!(
        out.contains("\n\nBoard 2 of 2: 123456789abcdfe0\nNo solution: "),
        "{out}"
    );
}

#[test]
fn json_output_fields() {
    let out = stdout_of(npuzzle().args(["solve", "--format", "json", A31, UNSOLVABLE]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(verified_length(lines[0]), 31);
    let v: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(v["board"], "867254301");
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(v["goal"], "123456780");
    assert_eq!(v["engine"], "idastar");
    assert_eq!(v["heuristic"], "pdb");
    let stats = &v["stats"];
    assert!(stats["expanded"].as_u64().unwrap() > 0);
    assert!(stats["generated"].as_u64().unwrap() >= stats["expanded"].as_u64().unwrap());
    assert!(stats["seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(
        stats["iterations"].as_array().unwrap().last().unwrap()["threshold"],
        31
    );
    assert_eq!(v["parity"]["solvable"], true);

    let u: Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(u["solvable"], false);
    assert!(u["length"].is_null() && u["moves"].is_null() && u["stats"].is_null());
    assert_eq!(u["parity"]["transpositions"], 1);
    assert_eq!(u["parity"]["blank_distance"], 0);
    assert!(
        u["parity"]["explanation"]
            .as_str()
            .unwrap()
            .contains("parities differ")
    );
}

#[test]
fn boards_output() {
    let out = stdout_of(npuzzle().args(["solve", "--format", "boards", A31]));
    let mut blocks = out.split("\n\n");
    let first = blocks.next().unwrap();
    assert!(
        first.starts_with("Minimum number of moves = 31\n8 6 7\n2 5 4\n3 0 1"),
        "{out}"
    );
    let boards = 1 + blocks.clone().count();
    assert_eq!(boards, 32, "start, 31 moves, goal last: {out}");
    assert_eq!(blocks.last().unwrap(), "1 2 3\n4 5 6\n7 8 0\n");
    let no = npuzzle()
        .args(["solve", "--format", "boards", UNSOLVABLE])
        .assert()
        .code(1);
    assert_eq!(
        String::from_utf8_lossy(&no.get_output().stdout),
        "No solution possible\n"
    );
}

// ---- engines and heuristics agree on the exact optimum ----

#[test]
fn every_engine_and_heuristic_finds_the_optimum() {
    for engine in ["idastar", "astar", "bidirectional"] {
        // h = 0 is brute force: uniform-cost search and bidirectional breadth-first search
        // handle the 8-puzzle, IDA* would not.
        let zero = (engine != "idastar").then_some("zero");
        for heuristic in ["manhattan", "linear-conflict", "hamming"]
            .into_iter()
            .chain(zero)
        {
            let e = ["--engine", engine, "--heuristic", heuristic];
            let mut args = e.to_vec();
            args.extend([A31, K31]);
            assert_eq!(solve_json(&args), [31, 27], "{engine} {heuristic}");
            let mut args = e.to_vec();
            args.extend(["--goal", "blank-first", K31]);
            assert_eq!(solve_json(&args), [31], "{engine} {heuristic}");
            let out = stdout_of(
                npuzzle()
                    .args(["solve", "--format", "json"])
                    .args(e)
                    .arg(A31),
            );
            let v: Value = serde_json::from_str(out.trim()).unwrap();
            assert_eq!(
                (v["engine"].as_str(), v["heuristic"].as_str()),
                (Some(engine), Some(heuristic))
            );
        }
    }
}

#[test]
fn fifteen_puzzle_seed_instance() {
    for engine in ["idastar", "astar", "bidirectional"] {
        for heuristic in ["manhattan", "linear-conflict"] {
            assert_eq!(
                solve_json(&["--engine", engine, "--heuristic", heuristic, SEED30]),
                [30],
                "{engine} {heuristic}"
            );
        }
    }
    assert_eq!(solve_json(&["--cycle-check", "path", SEED30]), [30]);
}

// ---- exit codes ----

#[test]
fn exit_codes() {
    npuzzle().args(["solve", A31]).assert().code(0);
    npuzzle()
        .args(["solve", UNSOLVABLE])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("No solution: "))
        .stdout(contains("parities differ"));
    npuzzle().args(["solve", "12345678"]).assert().code(2);
    // Several boards: 1 if any is unsolvable and none failed, 2 if any failed.
    npuzzle().args(["solve", A31, UNSOLVABLE]).assert().code(1);
    // Board 2 fails: its shape differs from the goal's.
    npuzzle()
        .args(["solve", "--goal", "123456780", A31, SEED30, "123456870"])
        .assert()
        .code(2)
        .stdout(contains("Solved in 31 moves"))
        .stdout(contains("No solution: "))
        .stderr(contains("error: board 2 of 3 ("));
    // Usage errors are clap's: also 2.
    npuzzle().args(["solve", "--no-such-flag"]).assert().code(2);
    npuzzle()
        .args(["solve", "--engine", "bfs", A31])
        .assert()
        .code(2);
    npuzzle().arg("frobnicate").assert().code(2);
}

// ---- bad input: one clear line on stderr, exit 2 ----

fn fails(args: &[&str], stdin: &str, message: &str) {
    let out = npuzzle()
        .args(args)
        .write_stdin(stdin)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with("error: "))
        .stderr(contains(message));
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bad_input_classes() {
    fails(&["solve"], "", "empty input: no board given");
    fails(&["solve"], "  \n# only a comment\n", "empty input");
    fails(
        &["solve", "--size", "4x4", "1 2 3 4 5 6 7 8 0"],
        "",
        "9 cells given, 16 expected",
    );
    fails(
        &["solve", "1 2 3 4 5 6 7 7 0"],
        "",
        "duplicate tile 7 at cells 6 and 7 (tile 8 is missing)",
    );
    fails(
        &["solve", "1 2 3 4 5 6 7 9 0"],
        "",
        "tile 9 at cell 7 is out of range",
    );
    fails(&["solve", "1 2 x 4 5 6 7 8 0"], "", "bad character 'x'");
    fails(&["solve", "12345678g"], "", "bad character 'g'");
    fails(
        &["solve"],
        "1 2 3\n4 5\n6 7 0\n",
        "non-rectangular board: row 2",
    );
    fails(
        &["solve", "1 2 3 4 5 0"],
        "",
        "do not form a square board; give the shape with --size",
    );
    fails(
        &["solve", "--size", "4by3", "123456780"],
        "",
        "bad board size \"4by3\"",
    );
    fails(&["solve", "--size", "1x9", "123456780"], "", "out of range");
    fails(
        &["solve", "--memory-limit", "12Q", A31],
        "",
        "bad memory size \"12Q\"",
    );
    fails(
        &["solve", "--timeout", "0", A31],
        "",
        "positive number of seconds",
    );
    fails(&["solve", "--goal", "upside-down", A31], "", "bad --goal");
    fails(
        &["solve", "--goal", "123456780", SEED30],
        "",
        "the goal board is 3x3 but the board to solve is 4x4",
    );
    fails(
        &["solve", "--engine", "astar", "--cycle-check", "path", A31],
        "",
        "idastar engine only",
    );
    fails(&["check", "1 2 3 4 5 6 7 7 0"], "", "duplicate tile 7");
    fails(
        &["generate", "--size", "5x5", "--format", "hex"],
        "",
        "at most 16 cells",
    );
}

#[test]
fn unsolvable_is_an_answer_not_an_error() {
    npuzzle()
        .args(["solve", UNSOLVABLE])
        .assert()
        .code(1)
        .stderr("");
    // Even for boards too large to search: parity needs no engine.
    npuzzle()
        .args([
            "solve",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 24 23 0",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("No solution: "));
}

// ---- limits: an error that says which limit and how far the search got, never "no solution" ----

#[test]
fn node_limit() {
    npuzzle()
        .args(["solve", "--max-nodes", "1000", HARD])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains(
            "error: search stopped by the node limit of 1000 generated nodes",
        ))
        .stderr(contains("f-bound"))
        .stderr(contains("No solution").not());
}

#[test]
fn memory_limit() {
    for engine in ["astar", "bidirectional"] {
        npuzzle()
            .args(["solve", "--engine", engine, "--memory-limit", "1M", HARD])
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains("error: search stopped by the memory limit"))
            .stderr(contains("No solution").not());
    }
}

#[test]
fn time_limit() {
    npuzzle()
        .args(["solve", "--timeout", "0.05", "--heuristic", "hamming", HARD])
        .assert()
        .code(2)
        .stderr(contains("time limit of 0.05 s"));
}

// ---- check ----

#[test]
fn check_solvable_and_unsolvable() {
    npuzzle()
        .args(["check", A31])
        .assert()
        .code(0)
        .stdout(contains("Board: 867254301 (3x3)"))
        .stdout(contains("Goal: 123456780 (blank-last)"))
        .stdout(contains("Solvable: the permutation"))
        .stdout(contains(
            "Lower bounds: Manhattan distance 21 moves, linear conflict 23 moves",
        ));
    npuzzle()
        .args(["check", UNSOLVABLE])
        .assert()
        .code(1)
        .stdout(contains("Unsolvable: "))
        .stdout(contains("parities differ"));
    // The goal matters: the blank-last goal is unsolvable from the blank-first one on 4x4.
    npuzzle()
        .args(["check", "--goal", "blank-first", "123456789abcdef0"])
        .assert()
        .code(1);
    npuzzle()
        .args(["check", "--size", "4x3"])
        .write_stdin("1 2 3 4 5 6 7 8 9 10 0 11\n")
        .assert()
        .code(0);
    // Larger than the bitboard: parity and Manhattan distance still work.
    npuzzle()
        .args([
            "check",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24",
        ])
        .assert()
        .code(0)
        .stdout(contains("Manhattan distance 1 move,"));
}

// ---- generate ----

#[test]
fn generate_is_reproducible() {
    let run = |seed: &str| {
        stdout_of(npuzzle().args(["generate", "--size", "4x4", "--count", "5", "--seed", seed]))
    };
    let a = run("42");
    assert_eq!(a, run("42"));
    assert_ne!(a, run("43"));
    assert_eq!(a.lines().count(), 5);
    assert!(a.lines().all(|l| l.len() == 16));
}

#[test]
fn generated_boards_are_solvable() {
    for (size, goal) in [
        ("4x4", "blank-last"),
        ("4x4", "blank-first"),
        ("3x2", "blank-last"),
        ("6x6", "blank-last"),
    ] {
        let boards = stdout_of(npuzzle().args([
            "generate", "--size", size, "--goal", goal, "--count", "4", "--seed", "7",
        ]));
        assert_eq!(boards.lines().count(), 4);
        for board in boards.lines() {
            npuzzle()
                .args(["check", "--size", size, "--goal", goal, board])
                .assert()
                .code(0);
        }
    }
}

/// A board that is not square is generated as slash rows by default, which tell its shape:
/// `solve` reads it without `--size` (a board on one line would need it).
#[test]
fn generated_boards_that_are_not_square_need_no_size() {
    for size in ["4x3", "3x2", "5x4"] {
        let boards =
            stdout_of(npuzzle().args(["generate", "--size", size, "--count", "2", "--seed", "3"]));
        for board in boards.lines() {
            assert_eq!(
                board.matches('/').count(),
                size[2..].parse::<usize>().unwrap() - 1,
                "{board}"
            );
            let answer = stdout_of(npuzzle().args(["solve", "--engine", "idastar", board]));
            assert!(answer.starts_with("Solved in "), "{size} {board}: {answer}");
        }
    }
    // Square boards keep hex (at most 16 cells) and one line above.
    let hex = stdout_of(npuzzle().args(["generate", "--size", "4x4", "--seed", "3"]));
    assert_eq!(hex.trim().len(), 16);
}

#[test]
fn random_walks_solve_within_their_length() {
    let boards = stdout_of(npuzzle().args([
        "generate", "--size", "4x4", "--walk", "10", "--count", "20", "--seed", "1",
    ]));
    let out = npuzzle()
        .args(["solve", "--format", "json"])
        .write_stdin(boards)
        .assert()
        .success();
    let lengths = json_lengths(&String::from_utf8_lossy(&out.get_output().stdout));
    assert_eq!(lengths.len(), 20);
    assert!(
        lengths.iter().all(|&n| n <= 10 && n % 2 == 0),
        "{lengths:?}"
    );
}

#[test]
fn generate_formats_and_large_boards() {
    let grid = stdout_of(npuzzle().args([
        "generate", "--size", "3x2", "--count", "2", "--seed", "1", "--format", "grid",
    ]));
    assert_eq!(grid.split("\n\n").count(), 2, "{grid}");
    let out = npuzzle()
        .args(["solve", "--format", "json"])
        .write_stdin(grid)
        .assert()
        .success();
    assert_eq!(
        json_lengths(&String::from_utf8_lossy(&out.get_output().stdout)).len(),
        2
    );
    let big = stdout_of(npuzzle().args(["generate", "--size", "127x127", "--seed", "9"]));
    let layout = parse_board(&big, None).expect("a valid 127x127 board");
    assert_eq!(layout.shape(), Shape::square(127).unwrap());
    let line = stdout_of(npuzzle().args([
        "generate", "--size", "3x3", "--format", "line", "--seed", "2",
    ]));
    assert_eq!(line.split_whitespace().count(), 9);
}

#[test]
fn broken_pipe_exits_quietly() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args([
            "generate", "--size", "4x4", "--count", "10000000", "--seed", "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first.trim().len(), 16);
    // The reader is gone now: the next write fails with a broken pipe.
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

// ---- help ----

#[test]
fn help_states_the_move_notation() {
    npuzzle()
        .args(["solve", "--help"])
        .assert()
        .success()
        .stdout(contains("the TILE slides"))
        .stdout(contains("U = the tile below the blank moves up"))
        .stdout(contains("auto picks idastar"));
    npuzzle()
        .arg("--help")
        .assert()
        .success()
        .stdout(contains("the TILE slides"));
}

/// Shell completions and the man page come from the clap definition: every shell's script
/// names the binary and its subcommands; the man page is roff with the subcommands listed.
#[test]
fn completions_and_man_page() {
    for (shell, marker) in [
        ("bash", "_npuzzle()"),
        ("zsh", "#compdef npuzzle"),
        ("fish", "complete -c npuzzle"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[npuzzle]"),
    ] {
        let text = stdout_of(npuzzle().args(["completions", shell]));
        assert!(
            text.contains(marker),
            "{shell}: {}",
            &text[..text.len().min(300)]
        );
        for sub in [
            "solve", "check", "generate", "pdb", "bench", "play", "serve",
        ] {
            assert!(text.contains(sub), "{shell}: {sub}");
        }
    }
    let man = stdout_of(npuzzle().arg("man"));
    assert!(
        man.starts_with(".ie") || man.contains(".TH npuzzle"),
        "{}",
        &man[..man.len().min(300)]
    );
    assert!(
        man.contains(".TH npuzzle 1"),
        "{}",
        &man[..man.len().min(300)]
    );
    assert!(man.contains("solve") && man.contains("completions"));
    // A shell clap does not know: a usage error, exit 2.
    npuzzle()
        .args(["completions", "tcsh"])
        .assert()
        .failure()
        .code(2);
}

// ---- partial goals ----

/// `solve --goal` with wildcards: text and JSON answers (the JSON says the goal is partial and
/// names the board reached, which `replayed` checks the moves reach), exit 1 for a board that
/// cannot reach it, exit 2 for an engine or command that needs one goal board.
#[test]
fn partial_goals() {
    let text = stdout_of(npuzzle().args(["solve", "--goal", "123xxxxxx", "867254301"]));
    assert!(text.starts_with("Solved in 21 moves (optimal)"), "{text}");
    assert!(
        text.contains("Partial goal 123xxxxxx (x: any tile) reached as 123"),
        "{text}"
    );
    let json = stdout_of(npuzzle().args([
        "solve",
        "--format",
        "json",
        "--metric",
        "mtm",
        "--goal",
        "1 2 3 x x x x x x",
        "867254301",
    ]));
    let v = replayed(json.trim());
    assert_eq!(v["partial_goal"], "123xxxxxx");
    assert_eq!(
        (v["length"].as_u64(), v["optimal"].as_bool()),
        (Some(16), Some(true))
    );
    // 2 and 1 exchanged, the blank and 8 free on two adjacent cells: parity decides.
    npuzzle()
        .args(["solve", "--goal", "1234567xx", "213456780"])
        .assert()
        .code(1)
        .stdout(contains("No solution"));
    for args in [
        &[
            "solve",
            "--engine",
            "astar",
            "--goal",
            "123xxxxxx",
            "867254301",
        ][..],
        &[
            "solve",
            "--engine",
            "bidirectional",
            "--goal",
            "123xxxxxx",
            "867254301",
        ],
        &["solve", "--all-optimal", "--goal", "123xxxxxx", "867254301"],
        &["solve", "--goal", "1 1 x x x x x x x", "867254301"],
        &["check", "--goal", "1 1 x x x x x x x", "867254301"],
    ] {
        npuzzle()
            .args(args)
            .assert()
            .code(2)
            .stderr(contains("goal"));
    }
}

/// `check --goal` with wildcards: the bounds of the tiles that matter, a given solution judged
/// against the optimum of the partial goal (in both metrics, exit 0 when it solves, 1 when
/// not), and the parity verdict when the goal is out of reach.
#[test]
fn checking_partial_goals() {
    let text = stdout_of(npuzzle().args(["check", "--goal", "first-row", "867254301"]));
    assert!(
        text.contains("Goal: 123xxxxxx (partial goal first-rows:1; x: any tile)"),
        "{text}"
    );
    // 1, 2 and 3 are 4 + 2 + 4 cells from their goal cells, in no row or column with theirs.
    assert!(
        text.contains(
            "Lower bounds (the tiles that matter): Manhattan distance 10 moves, linear conflict 10 moves"
        ),
        "{text}"
    );
    let json = stdout_of(npuzzle().args([
        "solve",
        "--format",
        "json",
        "--goal",
        "123xxxxxx",
        "867254301",
    ]));
    let best = replayed(json.trim())["moves"].as_str().unwrap().to_string();
    let judged = stdout_of(npuzzle().args([
        "check",
        "867254301",
        "--goal",
        "123xxxxxx",
        "--moves",
        &best,
        "--format",
        "json",
    ]));
    let v: serde_json::Value = serde_json::from_str(judged.trim()).unwrap();
    assert_eq!(v["goal"], "123xxxxxx");
    assert_eq!(v["partial_goal"], "123xxxxxx");
    assert_eq!(
        (v["solves"].as_bool(), v["optimal"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(v["optimum"]["length"], 21);
    // In MTM the same moves count 16 or more; the MTM optimum is 16.
    let mtm = stdout_of(npuzzle().args([
        "check",
        "867254301",
        "--goal",
        "123xxxxxx",
        "--metric",
        "mtm",
        "--moves",
        &best,
    ]));
    assert!(
        mtm.contains("Optimum: 16 moves in the multi-tile metric"),
        "{mtm}"
    );
    npuzzle()
        .args(["check", "867254301", "--goal", "123xxxxxx", "--moves", "L"])
        .assert()
        .code(1)
        .stdout(contains("Reaches the goal: no"))
        .stdout(contains("Optimum: 21 moves"));
    npuzzle()
        .args(["check", "--goal", "1234567xx", "213456780"])
        .assert()
        .code(1)
        .stdout(contains("Unsolvable: "));
}
