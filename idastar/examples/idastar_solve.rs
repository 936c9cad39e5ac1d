//! Solves one board with IDA* and prints the statistics.
//!
//! `cargo run --release -p npuzzle-idastar --example idastar_solve -- <board> [manhattan|linear-conflict|hamming] [blank-last|blank-first] [parent|path]`

use npuzzle_core::{
    BitBoard, Board, Goal, Hamming, LinearConflict, Manhattan, Outcome, Solver, moves_to_string,
    parse_board,
};
use npuzzle_idastar::{CycleCheck, IdaStar};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let board = args
        .first()
        .ok_or("usage: idastar_solve BOARD [HEURISTIC] [GOAL] [CYCLE-CHECK]")?;
    let layout = parse_board(board, None)?;
    let goal = match args.get(2).map(String::as_str) {
        Some("blank-first") => Goal::blank_first(layout.shape()),
        _ => Goal::blank_last(layout.shape()),
    };
    let check = if args.get(3).map(String::as_str) == Some("path") {
        CycleCheck::Path
    } else {
        CycleCheck::Parent
    };
    let b = BitBoard::from_layout(&layout)?;
    let mut e = IdaStar::new().cycle_check(check);
    let limits = npuzzle_core::Limits::default();
    let out = match args.get(1).map(String::as_str) {
        Some("linear-conflict") => e.solve(&b, &goal, &LinearConflict::new(&goal), &limits)?,
        Some("hamming") => e.solve(&b, &goal, &Hamming::new(&goal), &limits)?,
        _ => e.solve(&b, &goal, &Manhattan::new(&goal), &limits)?,
    };
    match out {
        Outcome::Solved(s) => println!(
            "{} moves {} | expanded {} generated {} | {:.3} s | {:.1} M generated/s",
            s.moves.len(),
            moves_to_string(&s.moves),
            s.stats.expanded,
            s.stats.generated,
            s.stats.seconds,
            s.stats.nodes_per_second() / 1e6
        ),
        Outcome::Unsolvable(p) => println!("unsolvable: {}", p.explain()),
    }
    Ok(())
}
