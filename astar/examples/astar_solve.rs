//! Solves one board with A* and prints the statistics and the memory footprint.
//!
//! `cargo run --release -p npuzzle-astar --example astar_solve -- <board> [manhattan|linear-conflict|hamming] [blank-last|blank-first] [memory limit in MiB]`
//!
//! Progress (every 2^16 expansions) goes to stderr when the environment variable
//! `ASTAR_PROGRESS` is set.

use npuzzle_astar::AStar;
use npuzzle_core::{
    BitBoard, Board, Goal, Hamming, Heuristic, Limits, LinearConflict, Manhattan, Outcome,
    Progress, SearchError, Solver, human_bytes, moves_to_string, parse_board,
};

fn run<H: Heuristic<BitBoard>>(
    board: &BitBoard,
    goal: &Goal,
    h: &H,
    limits: &Limits,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut astar = AStar::new();
    let verbose = std::env::var_os("ASTAR_PROGRESS").is_some();
    let observer = |p: &Progress| {
        if verbose {
            eprintln!("{p}");
        }
    };
    let outcome = astar.solve_observed(board, goal, h, limits, observer);
    let r = *astar.last_report();
    match outcome {
        Ok(Outcome::Solved(s)) => println!(
            "{} moves {} | {} | expanded {} generated {} | {:.3} s | {:.2} M generated/s | stored {} | peak {}",
            s.moves.len(),
            moves_to_string(&s.moves),
            h.name(),
            s.stats.expanded,
            s.stats.generated,
            s.stats.seconds,
            s.stats.nodes_per_second() / 1e6,
            s.stats.stored_states,
            human_bytes(s.stats.peak_memory_bytes),
        ),
        Ok(Outcome::Unsolvable(p)) => println!("unsolvable: {}", p.explain()),
        Err(SearchError::LimitReached { limit, progress }) => {
            println!("{} | stopped by the {limit}: {progress}", h.name());
        }
        Err(e) => return Err(e.into()),
    }
    println!(
        "memory: {} states, {} open entries, {} reopened | arena {} + map {} + heap {} = {} | {:.2} bytes/state | peak {} ({} bytes)",
        r.stored_states,
        r.open_entries,
        r.reopened,
        human_bytes(r.arena_bytes),
        human_bytes(r.map_bytes),
        human_bytes(r.heap_bytes),
        human_bytes(r.total_bytes()),
        r.bytes_per_state(),
        human_bytes(r.peak_bytes),
        r.peak_bytes,
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let board = args
        .first()
        .ok_or("usage: astar_solve BOARD [HEURISTIC] [GOAL] [MEMORY-MIB]")?;
    let layout = parse_board(board, None)?;
    let goal = match args.get(2).map(String::as_str) {
        Some("blank-first") => Goal::blank_first(layout.shape()),
        _ => Goal::blank_last(layout.shape()),
    };
    let limits = Limits {
        memory_bytes: args
            .get(3)
            .map(|m| m.parse::<u64>().map(|m| m << 20))
            .transpose()?,
        ..Limits::default()
    };
    let b = BitBoard::from_layout(&layout)?;
    match args.get(1).map(String::as_str) {
        Some("linear-conflict") => run(&b, &goal, &LinearConflict::new(&goal), &limits),
        Some("hamming") => run(&b, &goal, &Hamming::new(&goal), &limits),
        _ => run(&b, &goal, &Manhattan::new(&goal), &limits),
    }
}
