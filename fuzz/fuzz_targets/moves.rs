//! Move strings: never a panic; an accepted string reads back from its printed form, and an
//! error names a character that is in the input at the position given.
#![no_main]

use libfuzzer_sys::fuzz_target;
use npuzzle_core::{moves_to_string, parse_moves};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match parse_moves(&text) {
        Ok(moves) => assert_eq!(parse_moves(&moves_to_string(&moves)).unwrap(), moves),
        Err(e) => assert_eq!(text.chars().nth(e.position), Some(e.ch)),
    }
});
