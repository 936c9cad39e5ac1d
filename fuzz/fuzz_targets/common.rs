//! Helpers shared by the fuzz targets (included with `#[path]`).

use npuzzle_core::{Layout, Shape, parse_board};

/// Splits a fuzz input into a `--size`-style shape (from the first byte: `None` for 0, else
/// columns = low nibble, rows = high nibble, `None` where that shape is invalid) and the rest as
/// text (lossy UTF-8, so that invalid bytes still reach the parser as U+FFFD).
pub fn split(data: &[u8]) -> (Option<Shape>, String) {
    match data.split_first() {
        None => (None, String::new()),
        Some((&b, rest)) => {
            let size = (b != 0)
                .then(|| Shape::new(usize::from(b & 0x0f), usize::from(b >> 4)).ok())
                .flatten();
            (size, String::from_utf8_lossy(rest).into_owned())
        }
    }
}

/// Every printed form of a parsed board reads back as the same board.
pub fn assert_round_trip(board: &Layout) {
    let shape = Some(board.shape());
    let forms = [
        Some(board.to_line()),
        Some(board.to_grid()),
        board.to_hex(),
        Some(board.to_line().replace(' ', ",")),
    ];
    for text in forms.into_iter().flatten() {
        let back = parse_board(&text, shape)
            .unwrap_or_else(|e| panic!("{text:?} printed from {board:?} does not parse: {e}"));
        assert_eq!(&back, board, "{text:?} read back as another board");
    }
}
