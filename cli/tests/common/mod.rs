//! Helpers shared by the CLI test binaries (each uses a subset, hence `dead_code` allowed).
#![allow(dead_code)]

use std::path::Path;

use assert_cmd::Command;
use npuzzle_core::{Shape, parse_board, parse_moves, verify};
use serde_json::Value;

/// The 8-puzzle position 31 moves from the blank-last goal (one of the two hardest).
pub const A31: &str = "8 6 7 2 5 4 3 0 1";
/// 31 moves from the blank-first goal, 27 from the blank-last one.
pub const K31: &str = "8 0 6 5 4 7 2 3 1";
/// A seed15 instance 50 moves from the blank-last goal.
pub const HARD: &str = "0bd45c329671af8e";

/// The `npuzzle` binary with its pattern-database cache in `cache_dir`.
pub fn npuzzle_with_cache(cache_dir: impl AsRef<Path>) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_npuzzle"));
    c.env("NPUZZLE_PDB_DIR", cache_dir.as_ref());
    c
}

/// A folder `name` in the test binaries' scratch directory (`CARGO_TARGET_TMPDIR`).
pub fn scratch(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// One JSON answer of `solve --format json`, after replaying its moves from its board to its
/// goal with `npuzzle_core::verify` and checking that `length` counts them (in the record's
/// metric; `length_stm` and `length_mtm` in both).
///
/// # Panics
/// If the line is not such an answer, or the moves do not lead to the goal.
pub fn replayed(line: &str) -> Value {
    let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    let shape = Shape::new(
        v["width"].as_u64().unwrap() as usize,
        v["height"].as_u64().unwrap() as usize,
    )
    .unwrap();
    let board = parse_board(v["board"].as_str().unwrap(), Some(shape)).unwrap();
    let goal = parse_board(v["goal"].as_str().unwrap(), Some(shape)).unwrap();
    let moves = parse_moves(v["moves"].as_str().unwrap()).unwrap();
    verify(&board, &moves, &goal).unwrap_or_else(|e| panic!("{e}: {line}"));
    // `length` counts in the record's metric; both counts are always there.
    let mtm = npuzzle_core::mtm_length(&moves);
    let length = if v["metric"] == "mtm" {
        mtm
    } else {
        moves.len()
    };
    assert_eq!(v["length"].as_u64().unwrap() as usize, length, "{line}");
    assert_eq!(
        v["length_stm"].as_u64().unwrap() as usize,
        moves.len(),
        "{line}"
    );
    assert_eq!(v["length_mtm"].as_u64().unwrap() as usize, mtm, "{line}");
    v
}
