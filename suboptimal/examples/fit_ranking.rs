//! Fits the learned beam ranking of a board shape and prints the model file
//! (`npuzzle_suboptimal::fit`, seeded: the same options give the same file).
//!
//! ```text
//! cargo run --release -p npuzzle-suboptimal --features fit --example fit_ranking -- 7x7 \
//!     [BOARDS WIDTH SEED ROUNDS] > suboptimal/models/7x7.txt
//! ```

use npuzzle_core::Shape;
use npuzzle_suboptimal::fit::{FitOptions, fit};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: fit_ranking WxH [BOARDS WIDTH SEED ROUNDS]";
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
        features: match std::env::var("FIT_FEATURES").as_deref() {
            Ok("tile-cells") => npuzzle_suboptimal::fit::Features::TileCells,
            _ => npuzzle_suboptimal::fit::Features::Offsets,
        },
        ridge: std::env::var("FIT_RIDGE").map_or(d.ridge, |v| v.parse().expect("a ridge")),
        ..d
    };
    let weights = fit(shape, &options, &mut |line| eprintln!("{line}"));
    let header = vec![
        format!(
            "Learned beam ranking for {}x{} (npuzzle_suboptimal::LearnedRanking), blank-last goal.",
            shape.width(),
            shape.height()
        ),
        "Fitted by: cargo run --release -p npuzzle-suboptimal --features fit --example fit_ranking --".to_owned(),
        format!(
            "  {}x{} {} {} {} {}  (boards a round, beam width, seed, rounds; ridge {})",
            shape.width(),
            shape.height(),
            options.boards,
            options.width,
            options.seed,
            options.rounds,
            options.ridge
        ),
        "Data: uniformly random solvable boards (ChaCha8, the seed), never DeepCubeA's states;".to_owned(),
        "  targets: moves left along the project's own shortened beam answers.".to_owned(),
    ];
    print!("{}", weights.to_text(&header));
}
