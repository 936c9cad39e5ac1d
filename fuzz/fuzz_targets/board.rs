//! Board parsing in every format (hex, numbers on a line, rows over lines, textbook, commas),
//! with and without a `--size` shape: never a panic; every board read prints and reads back
//! equal; `parse_board` agrees with `parse_boards`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use npuzzle_core::{parse_board, parse_boards};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let (size, text) = common::split(data);
    let many = parse_boards(&text, size);
    let one = parse_board(&text, size);
    match &many {
        Ok(boards) => {
            assert!(!boards.is_empty());
            for b in boards {
                if let Some(s) = size {
                    assert_eq!(b.shape(), s);
                }
                common::assert_round_trip(b);
            }
            match (&one, boards.len()) {
                (Ok(b), 1) => assert_eq!(b, &boards[0]),
                (Err(e), n) => assert!(n > 1 && !e.to_string().is_empty(), "{e}"),
                (Ok(_), n) => panic!("parse_board accepted {n} boards"),
            }
        }
        Err(e) => {
            assert!(!e.to_string().is_empty());
            assert!(one.is_err());
        }
    }
});
