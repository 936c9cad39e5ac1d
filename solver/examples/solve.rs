//! The smallest use of the `npuzzle` library, as an external crate would write it, and a
//! configured solver with a progress observer.
//!
//! `cargo run --release -p npuzzle --example solve -- "8 6 7 2 5 4 3 0 1"`

use std::sync::Arc;
use std::time::Duration;

use npuzzle::{Config, Engine, HeuristicKind, Observer, Progress};

/// Prints each IDA* iteration's threshold as the search goes.
struct Thresholds;

impl Observer for Thresholds {
    fn search_progress(&self, engine: Engine, p: &Progress) {
        eprintln!(
            "{}: f-bound {}, {} nodes generated",
            engine.name(),
            p.bound,
            p.generated
        );
    }
    fn note(&self, text: &str) {
        eprintln!("note: {text}");
    }
}

fn main() -> Result<(), npuzzle::Error> {
    let board = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "8 6 7 2 5 4 3 0 1".to_string());

    // One call: the auto policy, blank-last goal.
    let answer = npuzzle::solve(&board)?;
    println!(
        "{} moves ({}): {}",
        answer.len(),
        answer
            .guarantee()
            .map_or("unsolvable".into(), |g| g.to_string()),
        answer.moves()
    );

    // Every option on the builder.
    let solver = Config::new()
        .goal("blank-last")?
        .engine(Engine::IdaStar)
        .heuristic(HeuristicKind::LinearConflict)
        .timeout(Duration::from_secs(30))
        .optimal(true)
        .observer(Arc::new(Thresholds))
        .build()?;
    let again = solver.solve_str(&board)?;
    assert_eq!(again.len(), answer.len());
    println!(
        "linear conflict agrees: {} moves, lower bound {}",
        again.len(),
        again.lower_bound
    );
    Ok(())
}
