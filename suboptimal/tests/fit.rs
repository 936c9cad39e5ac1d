//! The shipped learned rankings are what their seeded fit gives (`fit_ranking`'s defaults):
//! re-fitting reproduces `models/6x6.txt` and `models/7x7.txt` byte for byte. Heavy tier
//! (both together 3 min 59 s on two cores in the release profile, 2026-12-01, the fit by stages):
//! `cargo test -p npuzzle-suboptimal --features fit --test fit -- --ignored`; in the
//! workspace's tests the benches crate turns the feature on.
#![cfg(feature = "fit")]

use npuzzle_core::Shape;
use npuzzle_suboptimal::fit::{FitOptions, fit, header};

fn refit(side: usize, shipped: &str) {
    let shape = Shape::square(side).unwrap();
    let options = FitOptions::default();
    let weights = fit(shape, &options, &mut |_, _| {});
    assert_eq!(
        weights.to_text(&header(shape, &options)),
        shipped,
        "re-fitting {side}x{side} gives another model: refit with the fit_ranking example"
    );
}

/// The shipped files are what `to_text` writes for their own weights under the default
/// options' header (fast: the format and the header, not the fit), so that a change of
/// either is caught without the heavy re-fit.
#[test]
fn the_shipped_files_are_in_the_written_format() {
    for (side, text) in [
        (6, include_str!("../models/6x6.txt")),
        (7, include_str!("../models/7x7.txt")),
    ] {
        let shape = Shape::square(side).unwrap();
        let weights = npuzzle_suboptimal::RankingWeights::parse(text).unwrap();
        assert_eq!(weights.stages.len(), FitOptions::default().stages.len());
        assert_eq!(
            weights.to_text(&header(shape, &FitOptions::default())),
            text
        );
    }
}

#[test]
#[ignore = "heavy: a few minutes; run with --ignored"]
fn refitting_reproduces_the_6x6_model() {
    refit(6, include_str!("../models/6x6.txt"));
}

#[test]
#[ignore = "heavy: a few minutes; run with --ignored"]
fn refitting_reproduces_the_7x7_model() {
    refit(7, include_str!("../models/7x7.txt"));
}

/// The objectives' pairs: the layer's and the siblings' are different pairs from the same
/// answers (the first round's beams rank by linear conflict whatever the objective), and
/// `Both` fits exactly their union; every fit answers the same boards. Small: 4×4, 20 boards,
/// width 64, one round.
#[test]
fn both_objectives_fit_the_union_of_the_pairs() {
    use npuzzle_suboptimal::fit::{LAYER_SAMPLES, Objective, RoundReport};
    let shape = Shape::square(4).unwrap();
    let report = |objective| {
        let options = FitOptions {
            boards: 20,
            width: 64,
            rounds: 1,
            objective,
            ..FitOptions::default()
        };
        let mut got: Option<RoundReport> = None;
        let w = fit(shape, &options, &mut |_, r| got = Some(r.clone()));
        assert!(
            w.first
                .tile
                .iter()
                .chain(&w.first.blank)
                .all(|x| x.is_finite())
        );
        got.unwrap()
    };
    let (s, l, b) = (
        report(Objective::Siblings),
        report(Objective::Layer),
        report(Objective::Both),
    );
    assert!(s.answered > 0 && s.answered == l.answered && l.answered == b.answered);
    assert_eq!(
        s.mean_length.to_bits(),
        l.mean_length.to_bits(),
        "the same answers"
    );
    assert!(s.pairs > 0 && l.pairs > 0);
    assert_eq!(b.pairs, s.pairs + l.pairs);
    // At most LAYER_SAMPLES a move of each answer.
    let moves = (l.mean_length * l.answered as f64).round() as usize;
    assert!(
        l.pairs <= LAYER_SAMPLES * moves,
        "{} pairs, {moves} moves",
        l.pairs
    );
}
