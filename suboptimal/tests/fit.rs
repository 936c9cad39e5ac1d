//! The shipped learned rankings are what their seeded fit gives (`fit_ranking`'s defaults):
//! re-fitting reproduces `models/6x6.txt` and `models/7x7.txt` byte for byte. Heavy tier
//! (both together 3 min 25 s on two cores in the test profile, 2026-11-30):
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
