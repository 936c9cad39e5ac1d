//! Benchmark instance files (`ID T0 .. T(N-1) LENGTH`, `HEX LENGTH`, `ID HEX LENGTH`), with and
//! without a shape: never a panic; every instance read has a board of the given shape that
//! round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;
use npuzzle_core::{is_instance_file, parse_instances};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let (size, text) = common::split(data);
    let _ = is_instance_file(&text, size);
    match parse_instances(&text, size) {
        Ok(v) => {
            for inst in &v {
                if let Some(s) = size {
                    assert_eq!(inst.board.shape(), s);
                }
                assert!(inst.line >= 1);
                assert!(!inst.id.is_empty());
                common::assert_round_trip(&inst.board);
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
