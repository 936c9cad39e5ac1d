//! Goal strings (`blank-last`, `blank-first` or a board), with and without a shape, through
//! the facade's `parse_goal` and on to `Goal::new`: never a panic, errors say something.
#![no_main]

use libfuzzer_sys::fuzz_target;
use npuzzle::parse_goal;
use npuzzle_core::{Goal, GoalKind, Shape};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let (size, text) = common::split(data);
    match parse_goal(&text, size) {
        Ok(kind) => {
            if let GoalKind::Custom(layout) = &kind {
                common::assert_round_trip(layout);
            }
            let shape = size.unwrap_or_else(|| Shape::square(3).expect("3x3"));
            match Goal::new(&kind, shape) {
                Ok(g) => assert_eq!(g.shape(), shape),
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
        Err(e) => assert!(e.to_string().contains("bad --goal")),
    }
});
