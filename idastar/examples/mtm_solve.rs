//! Solves 4×4 boards optimally in the multi-tile metric with IDA\* and the multi-tile pattern
//! databases (`npuzzle_pdb::MtmDb`, the default group, reflected lookup), one board a line on
//! stdin (16 hex digits or 16 numbers, blank-last goal); prints the MTM length, generated nodes
//! and the search's seconds. The tables are opened from (or built into) the cache
//! (`NPUZZLE_PDB_DIR`), and the build's or the load's seconds are printed first.
//!
//! ```text
//! NPUZZLE_PDB_DIR=/tmp/pdbm cargo run --release -p npuzzle-idastar --example mtm_solve < boards.txt
//! ```

use std::io::BufRead;
use std::process::ExitCode;
use std::time::Instant;

use npuzzle_core::{
    BitBoard, Board, Goal, Limits, Outcome, Shape, Solver, mtm_length, parse_board, verify,
};
use npuzzle_idastar::MtmIdaStar;
use npuzzle_pdb::{BuildPolicy, Cache, MtmDb, PartitionSpec, mtm_default_groups};

fn main() -> ExitCode {
    let goal = Goal::blank_last(Shape::square(4).expect("4x4"));
    let t = Instant::now();
    let db = Cache::locate(None).and_then(|cache| {
        let groups = mtm_default_groups(&goal, 300_000_000)?;
        MtmDb::open(
            &goal,
            &PartitionSpec::Custom(groups),
            true,
            &cache,
            BuildPolicy::Always,
            &mut |_| {},
            &|_| {},
        )
    });
    let db = match db {
        Ok(db) => db,
        Err(e) => {
            eprintln!("mtm_solve: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "tables {} ready in {:.2} s",
        db.partition(),
        t.elapsed().as_secs_f64()
    );
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap_or_default();
        let text = line.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        let text = text.split_whitespace().next().unwrap_or("");
        let layout = match parse_board(text, None) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("mtm_solve: {text}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let board = BitBoard::from_layout(&layout).expect("a 4x4 board");
        let t = Instant::now();
        match MtmIdaStar::new().solve(&board, &goal, &db, &Limits::default()) {
            Ok(Outcome::Solved(s)) => {
                verify(&layout, &s.moves, goal.layout()).expect("replays");
                println!(
                    "{text} {} MTM moves, {} generated, {:.3} s",
                    mtm_length(&s.moves),
                    s.stats.generated,
                    t.elapsed().as_secs_f64()
                );
            }
            other => println!("{text} {other:?}"),
        }
    }
    ExitCode::SUCCESS
}
