//! End-to-end tests of the pattern databases in the CLI: `--heuristic pdb` with every optimal
//! engine, `--pdb` partitions and goals, auto's default, `npuzzle pdb build|list|verify|clear`,
//! corruption detection, and bad options. Every test uses its own cache directory.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;

mod common;
use common::{A31, HARD, K31, npuzzle_with_cache, replayed};

fn npuzzle(dir: &tempfile::TempDir) -> Command {
    npuzzle_with_cache(dir.path())
}

/// The JSON answers of `solve --format json ARGS`, each replayed to its goal.
fn solve_json(dir: &tempfile::TempDir, args: &[&str]) -> Vec<Value> {
    let out = npuzzle(dir)
        .args(["solve", "--format", "json"])
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(replayed)
        .collect()
}

fn lengths(v: &[Value]) -> Vec<u64> {
    v.iter().map(|a| a["length"].as_u64().unwrap()).collect()
}

#[test]
fn every_optimal_engine_with_pattern_databases() {
    let dir = tempfile::tempdir().unwrap();
    for engine in ["idastar", "astar", "bidirectional"] {
        let v = solve_json(&dir, &["--engine", engine, "--heuristic", "pdb", A31]);
        assert_eq!(lengths(&v), [31], "{engine}");
        assert_eq!(v[0]["heuristic"], "pdb");
        // Blank-first goal and an explicit partition: tables are built for that goal.
        let v = solve_json(
            &dir,
            &[
                "--engine",
                engine,
                "--goal",
                "blank-first",
                "--pdb",
                "1,2,3/4,5,6,7,8",
                K31,
            ],
        );
        assert_eq!(lengths(&v), [31], "{engine}");
    }
    // The 15-puzzle with the default partition (6-6-3, built on first use), with and without the
    // reflected lookup.
    for extra in [None, Some("--no-reflect")] {
        let mut args = vec!["--heuristic", "pdb", HARD];
        args.extend(extra);
        assert_eq!(lengths(&solve_json(&dir, &args)), [50]);
    }
}

#[test]
fn auto_uses_pattern_databases_and_linear_conflict_above_16_cells() {
    let dir = tempfile::tempdir().unwrap();
    let v = solve_json(&dir, &[A31]);
    assert_eq!(
        (v[0]["engine"].as_str(), v[0]["heuristic"].as_str()),
        (Some("idastar"), Some("pdb"))
    );
    assert_eq!(lengths(&v), [31]);
    // An explicit engine keeps linear conflict.
    let v = solve_json(&dir, &["--engine", "idastar", A31]);
    assert_eq!(v[0]["heuristic"], "linear-conflict");
    // 5×5, 30 moves from the goal: auto searches it with linear conflict.
    let b5 = "1 2 8 4 9 6 7 5 13 10 0 18 17 3 14 11 16 12 20 15 21 22 23 19 24";
    let v = solve_json(&dir, &[b5]);
    assert_eq!(
        (v[0]["heuristic"].as_str(), v[0]["length"].as_u64()),
        (Some("linear-conflict"), Some(30))
    );
}

#[test]
fn cache_build_list_verify_corrupt_clear() {
    let dir = tempfile::tempdir().unwrap();
    npuzzle(&dir)
        .args(["pdb", "build", "--size", "3x3", "--pdb", "1,2,3,4/5,6,7,8"])
        .assert()
        .success()
        .stdout(contains("1,2,3,4/5,6,7,8"));
    npuzzle(&dir)
        .args(["pdb", "list"])
        .assert()
        .success()
        .stdout(contains("tiles 1,2,3,4"))
        .stdout(contains("tiles 5,6,7,8"))
        .stdout(contains(format!("format {}", npuzzle_pdb::FORMAT_VERSION)))
        .stdout(contains("next use").not());
    npuzzle(&dir)
        .args(["pdb", "verify"])
        .assert()
        .success()
        .stdout(contains("2 of 2 tables"));
    // Flip one byte of a table's contents: verify reports it (exit 2), and solve treats it as
    // missing (rebuilds it, as it builds a missing one) rather than use it, still answering
    // optimally.
    let file = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("1.2.3.4"))
        .unwrap();
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01;
    std::fs::write(&file, &bytes).unwrap();
    npuzzle(&dir)
        .args(["pdb", "verify"])
        .assert()
        .code(2)
        .stdout(contains("BAD"));
    npuzzle(&dir)
        .args([
            "solve",
            "--heuristic",
            "pdb",
            "--pdb",
            "1,2,3,4/5,6,7,8",
            A31,
        ])
        .assert()
        .success()
        .stdout(contains("Solved in 31 moves (optimal)"))
        .stderr(contains("treated as not cached"))
        .stderr(contains("building the table of tiles 1,2,3,4"));
    npuzzle(&dir).args(["pdb", "verify"]).assert().success();
    // A truncated file is caught too.
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    npuzzle(&dir)
        .args(["pdb", "verify"])
        .assert()
        .code(2)
        .stdout(contains("BAD"));
    npuzzle(&dir)
        .args(["pdb", "clear"])
        .assert()
        .success()
        .stdout(contains("removed 2 files"));
    npuzzle(&dir)
        .args(["pdb", "list"])
        .assert()
        .success()
        .stdout(contains("no tables"));
}

/// The duplicate-pruning automaton that `--cycle-check fsm` keeps in the cache directory is a
/// cache entry like a table: listed, verified (a damaged one reported, exit 2) and cleared with
/// the tables; `clear` also removes the automaton files of earlier versions (`*.fsm`).
#[test]
fn automata_are_listed_verified_and_cleared() {
    let dir = tempfile::tempdir().unwrap();
    npuzzle(&dir)
        .args(["solve", "--engine", "idastar", "--cycle-check", "fsm", A31])
        .assert()
        .success()
        .stdout(contains("Solved in 31 moves (optimal)"));
    let file = dir.path().join("3x3-fsm-14.pdb");
    assert!(file.is_file());
    npuzzle(&dir)
        .args(["pdb", "list"])
        .assert()
        .success()
        .stdout(contains(
            "3x3-fsm-14.pdb  3x3  duplicate-pruning automaton of depth 14  ",
        ))
        .stdout(contains("no tables").not());
    npuzzle(&dir)
        .args(["pdb", "verify"])
        .assert()
        .success()
        .stdout(contains("ok   3x3-fsm-14.pdb"))
        .stdout(contains("1 of 1 tables in "));
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01;
    std::fs::write(&file, &bytes).unwrap();
    npuzzle(&dir)
        .args(["pdb", "verify"])
        .assert()
        .code(2)
        .stdout(contains("BAD  3x3-fsm-14.pdb"))
        .stdout(contains("0 of 1 tables in "));
    // Earlier versions' automaton files, and a dead writer's temporary one: cleared too.
    std::fs::write(dir.path().join("3x3-fsm-14.fsm"), b"old").unwrap();
    std::fs::write(dir.path().join(".3x3-fsm-14.fsm.tmp-1-ThreadId(1)"), b"x").unwrap();
    npuzzle(&dir)
        .args(["pdb", "clear"])
        .assert()
        .success()
        .stdout(contains("removed 3 files"));
    assert!(!file.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    npuzzle(&dir)
        .args(["pdb", "list"])
        .assert()
        .success()
        .stdout(contains("no tables"));
    // `pdb build` of plain tables for a 17–25-cell board makes the automaton that auto's
    // optimal search there uses, too.
    npuzzle(&dir)
        .args([
            "pdb",
            "build",
            "--size",
            "4x5",
            "--pdb",
            "1,2,3,4,5/6,7,8,9,10/11,12,13,14,15/16,17,18,19",
        ])
        .assert()
        .success()
        .stdout(contains(
            "duplicate-pruning automaton of depth 14 for 4x5: 123709 states",
        ));
    assert!(dir.path().join("4x5-fsm-14.pdb").is_file());
}

#[test]
fn bad_pattern_database_options() {
    let dir = tempfile::tempdir().unwrap();
    let fails = |args: &[&str], message: &str| {
        npuzzle(&dir)
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains(message));
    };
    fails(&["solve", "--pdb", "7x8", A31], "bad --pdb");
    fails(
        &["solve", "--heuristic", "manhattan", "--pdb", "78", A31],
        "--pdb applies to the pdb, zpdb and mtm-pdb heuristics only, not to manhattan",
    );
    fails(
        &["solve", "--heuristic", "hamming", "--no-reflect", A31],
        "--no-reflect applies to the pdb, zpdb and mtm-pdb heuristics only, not to hamming",
    );
    // Groups that do not partition the tiles: a tile twice, a tile that does not exist.
    fails(
        &["solve", "--pdb", "1,2,3,4/4,5,6,7,8", A31],
        "pattern database",
    );
    fails(
        &["solve", "--pdb", "1,2,3,4/5,6,7,9", A31],
        "pattern database",
    );
    fails(
        &["pdb", "build", "--size", "3x3", "--pdb", "78"],
        "pattern database",
    );
    // The built-in 6-6-6-6 is Korf & Felner's 5x5 partition: refused on other shapes, by name.
    fails(
        &["pdb", "build", "--size", "4x4", "--pdb", "6666"],
        "the 6666 partition is defined for 5x5 boards, not 4x4",
    );
    fails(
        &["solve", "--pdb", "6-6-6-6", A31],
        "the 6666 partition is defined for 5x5 boards, not 3x3",
    );
    fails(
        &["solve", "--pdb", "66666", A31],
        "expected 762, 663, 555, 78, 6666",
    );
    // Its tables are never built implicitly: listing the empty cache shows none.
    npuzzle(&dir)
        .args(["pdb", "list"])
        .assert()
        .success()
        .stdout(contains("no tables"));
}

/// A table file in the older format 1 (whole-table XXH3 checksum) is listed as such, used, and
/// rewritten once in the current format, which `solve` says on stderr.
#[test]
fn format_1_files_are_used_and_rewritten() {
    use xxhash_rust::xxh3::xxh3_64;
    let dir = tempfile::tempdir().unwrap();
    let solve = [
        "solve",
        "--heuristic",
        "pdb",
        "--pdb",
        "1,2,3,4/5,6,7,8",
        A31,
    ];
    npuzzle(&dir).args(solve).assert().success();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "pdb") {
            continue; // the tables' (empty) build lock files
        }
        let mut f = std::fs::read(&path).unwrap();
        f[8..12].copy_from_slice(&1u32.to_le_bytes());
        let sum = xxh3_64(&f[128..]);
        f[32..40].copy_from_slice(&sum.to_le_bytes());
        let sum = xxh3_64(&f[..120]);
        f[120..128].copy_from_slice(&sum.to_le_bytes());
        std::fs::write(&path, f).unwrap();
    }
    npuzzle(&dir)
        .args(["pdb", "list"])
        .assert()
        .success()
        .stdout(contains(
            "format 1 (rewritten in the current format on next use)",
        ));
    npuzzle(&dir)
        .args(["pdb", "verify"])
        .assert()
        .success()
        .stdout(contains("2 of 2 tables"));
    npuzzle(&dir)
        .args(solve)
        .assert()
        .success()
        .stdout(contains("Solved in 31 moves (optimal)"))
        .stderr(contains("from format 1 to format 2").count(2));
    npuzzle(&dir)
        .args(solve)
        .assert()
        .success()
        .stderr(contains("format 1").not());
    npuzzle(&dir)
        .args(["pdb", "list"])
        .assert()
        .success()
        .stdout(contains("format 1").not())
        .stdout(contains("format 2").count(2));
}

#[test]
fn zero_aware_tables_with_every_optimal_engine_and_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    // `pdb build --zero-aware` states size and memory first, stores '-z-' files and their
    // region-coded forms ('-c-'), and `pdb list` marks them.
    npuzzle(&dir)
        .args(["pdb", "build", "--size", "3x3", "--zero-aware"])
        .assert()
        .success()
        .stdout(contains("zero-aware 1,2,3,4/5,6,7,8"))
        .stderr(contains("peak memory"))
        .stderr(
            contains("deriving the region-coded form of the zero-aware table of tiles 1,2,3,4")
                .count(1),
        );
    npuzzle(&dir)
        .args(["pdb", "list"])
        .assert()
        .success()
        .stdout(contains("-z-1.2.3.4.pdb").and(contains("(zero-aware)")))
        .stdout(contains("-c-5.6.7.8.pdb").and(contains("(zero-aware, region-coded)")));
    npuzzle(&dir).args(["pdb", "verify"]).assert().success();
    for engine in ["idastar", "astar", "bidirectional", "weighted-astar"] {
        let mut args = vec!["--engine", engine, "--heuristic", "zpdb"];
        if engine == "weighted-astar" {
            // Consistent: weighted A* at W = 1 proves optimality with it (it does not with
            // the plain tables).
            args.extend(["--weight", "1", "--optimal"]);
        }
        args.push(A31);
        let v = solve_json(&dir, &args);
        assert_eq!(lengths(&v), [31], "{engine}");
        assert_eq!(v[0]["heuristic"], "zpdb");
        assert_eq!(v[0]["optimal"], true, "{engine}");
    }
    // Another goal and partition: built on demand like the plain tables.
    let v = solve_json(
        &dir,
        &[
            "--engine",
            "idastar",
            "--heuristic",
            "zpdb",
            "--goal",
            "blank-first",
            "--pdb",
            "1,2,3/4,5,6,7,8",
            K31,
        ],
    );
    assert_eq!(lengths(&v), [31]);
}
