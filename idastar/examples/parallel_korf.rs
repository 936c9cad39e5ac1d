//! Solves a range of Korf's 100 (blank-first goal) with IDA* and Manhattan distance on a given
//! number of threads, checks every length, and prints per-instance and total wall seconds and
//! generated nodes.
//!
//! `cargo run --profile heavy -p npuzzle-idastar --example parallel_korf -- THREADS [FIRST [LAST]] [deterministic]`
//!
//! `THREADS` as in `IdaStar::threads` (0 = all cores, 1 = sequential); `FIRST..=LAST` are
//! Korf's instance numbers (default 1..=100).

use std::time::Instant;

use npuzzle_core::{BitBoard, Board, Limits, Manhattan, Outcome, Solver, verify};
use npuzzle_idastar::IdaStar;
use npuzzle_testsuite::korf100;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: parallel_korf THREADS [FIRST [LAST]] [deterministic]";
    let threads: usize = args.first().ok_or(usage)?.parse()?;
    let first: usize = args.get(1).map_or(Ok(1), |a| a.parse())?;
    let last: usize = args.get(2).map_or(Ok(100), |a| a.parse())?;
    let deterministic = args.iter().any(|a| a == "deterministic");
    let mut engine = IdaStar::new().threads(threads).deterministic(deterministic);
    let (mut seconds, mut generated) = (0.0, 0u64);
    for inst in &korf100()[first - 1..last] {
        let board = BitBoard::from_layout(&inst.board)?;
        let md = Manhattan::new(&inst.goal);
        let t0 = Instant::now();
        let out = engine.solve(&board, &inst.goal, &md, &Limits::default())?;
        let wall = t0.elapsed().as_secs_f64();
        let Outcome::Solved(s) = out else {
            return Err(format!("#{} reported unsolvable", inst.id).into());
        };
        verify(&inst.board, &s.moves, inst.goal.layout())?;
        if s.moves.len() as u32 != inst.optimal {
            return Err(format!(
                "#{}: {} moves, not {}",
                inst.id,
                s.moves.len(),
                inst.optimal
            )
            .into());
        }
        let last_iteration = s.stats.iterations.last().map_or(0, |i| i.generated);
        println!(
            "#{:<3} {} moves  {:>8.3} s  {:>13} generated  (last iteration {:>13})",
            inst.id,
            s.moves.len(),
            wall,
            s.stats.generated,
            last_iteration
        );
        seconds += wall;
        generated += s.stats.generated;
    }
    println!(
        "total: Korf #{first}..#{last}, {threads} threads{}: {seconds:.3} s wall, {generated} generated, {:.1} M generated/s",
        if deterministic { ", deterministic" } else { "" },
        generated as f64 / seconds / 1e6
    );
    Ok(())
}
