//! Fits the learned beam ranking of a board shape and prints its model file
//! (`npuzzle_suboptimal::fit`, seeded: the same options give the same file on any machine
//! with IEEE-754 doubles). The shipped models (`suboptimal/models/`) are the defaults:
//!
//! ```text
//! cargo run --release -p npuzzle-suboptimal --features fit --example fit_ranking -- 7x7 \
//!     > suboptimal/models/7x7.txt
//! ```
//!
//! Optional arguments after the shape: BOARDS WIDTH SEED ROUNDS OBJECTIVE STAGES (`FitOptions`'
//! fields; the objective `siblings`, `layer` or `both`; the stages as a comma-separated list
//! of fractions, such as `0.45,0.9`).

use npuzzle_core::Shape;
use npuzzle_suboptimal::fit::{FitOptions, Objective, fit};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: fit_ranking WxH [BOARDS WIDTH SEED ROUNDS [siblings|layer|both [STAGES]]]";
    let shape = args
        .first()
        .and_then(|s| s.split_once('x'))
        .and_then(|(w, h)| Shape::new(w.parse().ok()?, h.parse().ok()?).ok())
        .expect(usage);
    let d = FitOptions::default();
    let num = |i: usize, default: u64| args.get(i).map_or(default, |v| v.parse().expect(usage));
    let options = FitOptions {
        boards: num(1, d.boards as u64) as usize,
        width: num(2, d.width as u64) as usize,
        seed: num(3, d.seed),
        rounds: num(4, d.rounds as u64) as usize,
        objective: args
            .get(5)
            .map_or(d.objective, |o| Objective::from_name(o).expect(usage)),
        stages: args.get(6).map_or(Vec::new(), |v| {
            v.split(',').map(|f| f.parse().expect(usage)).collect()
        }),
        ..d
    };
    let weights = fit(shape, &options, &mut |round, r| {
        eprintln!(
            "round {round}: {} of {} boards answered, mean {:.2} moves, {} pairs",
            r.answered, options.boards, r.mean_length, r.pairs
        );
    });
    print!(
        "{}",
        weights.to_text(&npuzzle_suboptimal::fit::header(shape, &options))
    );
}
