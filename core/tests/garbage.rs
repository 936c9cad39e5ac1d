//! Garbage input (issue 13): random byte strings and token soups (digits, separators, commas,
//! newlines, `#`, hex letters, huge numbers, Unicode look-alikes) fed to every text parser of
//! the core: `parse_board`, `parse_boards`, `parse_instances`, `is_instance_file` and
//! `parse_moves`, with and without a shape. Never a panic; every error is specific (its line
//! exists, its offending character is in the input, its counts are the input's); and every
//! valid board, printed in each format, reads back equal. The cargo-fuzz targets under
//! `fuzz/` run the same checks for millions of inputs (RELIABILITY.md).

use npuzzle_core::{
    Layout, LayoutError, Move, ParseError, Shape, is_instance_file, moves_to_string, parse_board,
    parse_boards, parse_instances, parse_moves,
};
use std::fmt::Write as _;

use proptest::prelude::*;

/// Pieces of text that parsers treat specially, and a few that merely look like them.
const TOKENS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "8",
    "9",
    "10",
    "15",
    "16",
    "24",
    "099",
    "127",
    "16128",
    "16129",
    "99999999999999999999999999",
    " ",
    "  ",
    "\t",
    "\u{b}",
    "1 2 3\n\u{b}\n4 5 6\n7 8 0",
    "\u{a0}",
    ",",
    ", ",
    ",,",
    "\n",
    "\n\n",
    "\r\n",
    "#",
    "# comment\n",
    "a",
    "f",
    "F",
    "g",
    "x",
    "-1",
    "+1",
    "1.5",
    "0x1f",
    "123456789abcdef0",
    "2348170c56ab9def",
    "12345678",
    "3\n",
    "é",
    "３",
    "٣",
    "\u{feff}",
    "\0",
    "🧩",
    "ULDR",
];

/// A token soup: up to 60 tokens from [`TOKENS`], concatenated.
fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..60).prop_map(|v| v.concat())
}

/// Random bytes as text (invalid UTF-8 replaced by U+FFFD, as the CLI reads it).
fn bytes() -> impl Strategy<Value = String> {
    prop::collection::vec(any::<u8>(), 0..200)
        .prop_map(|v| String::from_utf8_lossy(&v).into_owned())
}

/// No shape, or one of 2x2..=6x6 (some rectangular).
fn size() -> impl Strategy<Value = Option<Shape>> {
    prop::option::of((2usize..=6, 2usize..=6).prop_map(|(w, h)| Shape::new(w, h).unwrap()))
}

/// 1-based numbers of the lines of `text` (`str::lines`), plus one past the end.
fn line_count(text: &str) -> usize {
    text.lines().count().max(1)
}

/// The error is specific: non-empty message, a line that exists, an offending character
/// that is in the input, counts that fit.
fn assert_specific(e: &ParseError, text: &str) {
    let msg = e.to_string();
    assert!(msg.len() > 10, "{msg:?}");
    let lines = line_count(text);
    let line = match e {
        ParseError::Empty => {
            assert!(
                text.lines().all(|l| l.trim_start().starts_with('#')
                    || l.chars().all(|c| c.is_whitespace() || c == ',')),
                "Empty for {text:?}"
            );
            None
        }
        ParseError::BadChar { ch, token, line } => {
            assert!(token.contains(*ch), "{e}");
            assert!(text.contains(token.as_str()), "{e}");
            Some(*line)
        }
        ParseError::EmptyField { line, field } => {
            assert!(*field >= 1);
            assert!(text.contains(','), "{e}");
            Some(*line)
        }
        ParseError::TooLarge { token, line } => {
            assert!(text.contains(token.as_str()), "{e}");
            Some(*line)
        }
        ParseError::NotSquare { count, line } => {
            assert_ne!(count.isqrt() * count.isqrt(), *count, "{e}");
            Some(*line)
        }
        ParseError::TooSmall { count, line } => {
            assert!(*count < 4, "{e}");
            Some(*line)
        }
        ParseError::LineTooLong { line, max } => {
            assert!(text.lines().any(|l| l.len() > *max), "{e}");
            Some(*line)
        }
        ParseError::NotUtf8 { .. } => panic!("text input cannot be invalid UTF-8: {e}"),
        ParseError::Ragged {
            line,
            len,
            expected,
            ..
        } => {
            assert_ne!(len, expected);
            Some(*line)
        }
        ParseError::Textbook { line, problem, .. } => {
            assert!(!problem.is_empty());
            Some(*line)
        }
        ParseError::ShapeMismatch { line, given, .. } => {
            assert!(!given.is_empty());
            Some(*line)
        }
        ParseError::Shape { line, .. } => Some(*line),
        ParseError::Layout { line, error } => {
            match error {
                LayoutError::WrongCount {
                    given, expected, ..
                } => assert_ne!(given, expected),
                other => assert!(!other.to_string().is_empty()),
            }
            Some(*line)
        }
        ParseError::NotOne(n) => {
            assert!(*n > 1);
            None
        }
        ParseError::NotInstance { line, found } => {
            assert!(*found >= 1);
            Some(*line)
        }
    };
    if let Some(line) = line {
        assert!((1..=lines).contains(&line), "line {line} of {lines}: {e}");
    }
}

/// Every parser on `text`: no panic, specific errors, consistent answers.
fn check_all(text: &str, size: Option<Shape>) {
    let many = parse_boards(text, size);
    match &many {
        Ok(boards) => {
            assert!(!boards.is_empty());
            for b in boards {
                if let Some(s) = size {
                    assert_eq!(b.shape(), s);
                }
                assert_round_trip(b);
            }
        }
        Err(e) => assert_specific(e, text),
    }
    match (parse_board(text, size), &many) {
        (Ok(b), Ok(v)) => assert_eq!(v, &[b]),
        (Err(ParseError::NotOne(n)), Ok(v)) => assert_eq!(n, v.len()),
        (Err(e), Err(f)) => assert_eq!(&e, f),
        (one, many) => panic!("parse_board {one:?} but parse_boards {many:?}"),
    }
    match parse_instances(text, size) {
        Ok(v) => {
            for inst in &v {
                assert!((1..=line_count(text)).contains(&inst.line));
                assert_round_trip(&inst.board);
            }
        }
        Err(e) => assert_specific(&e, text),
    }
    let _ = is_instance_file(text, size);
    match parse_moves(text) {
        Ok(moves) => assert_eq!(parse_moves(&moves_to_string(&moves)).unwrap(), moves),
        Err(e) => assert_eq!(text.chars().nth(e.position), Some(e.ch)),
    }
}

/// Every printed form of `board` reads back equal: one line of numbers (spaces, commas), the
/// grid (rows over lines), hex (at most 16 cells), and the textbook form (square boards);
/// with the shape given, and without it where the form implies the shape.
fn assert_round_trip(board: &Layout) {
    let shape = board.shape();
    let square = shape.width() == shape.height();
    let line = board.to_line();
    let mut forms = vec![
        (line.clone(), square),
        (line.replace(' ', ","), square),
        (line.replace(' ', " , "), square),
        (board.to_grid(), !first_row_is_a_board(board)),
        (
            format!("# a comment\n\n{}\n\n", board.to_grid()),
            !first_row_is_a_board(board),
        ),
    ];
    if let Some(hex) = board.to_hex() {
        forms.push((hex.clone(), square));
        forms.push((hex.to_uppercase(), square));
    }
    if square {
        forms.push((format!("{}\n{}", shape.width(), board.to_grid()), true));
    }
    for (text, infers) in forms {
        let back = parse_board(&text, Some(shape))
            .unwrap_or_else(|e| panic!("{text:?} printed from {board:?} does not parse: {e}"));
        assert_eq!(&back, board, "{text:?}");
        if infers {
            let back = parse_board(&text, None).unwrap_or_else(|e| {
                panic!("{text:?} printed from {board:?} does not parse without a shape: {e}")
            });
            assert_eq!(&back, board, "{text:?} without a shape");
        }
    }
}

/// Whether the first row of `board` is a whole square board by itself (a permutation of
/// `0..W` with W a square, e.g. `0 1 2 3` atop a 4-wide board): such a line is read as one
/// board without waiting for the next line (issue 26), so its grid needs the shape.
fn first_row_is_a_board(board: &Layout) -> bool {
    let w = board.shape().width();
    let n = w.isqrt();
    let mut row: Vec<usize> = board.cells()[..w].iter().map(|&t| t as usize).collect();
    row.sort_unstable();
    n >= 2 && n * n == w && row == (0..w).collect::<Vec<_>>()
}

/// A random valid board of 2..=8 × 2..=8 cells (any permutation: solvability is not the
/// parser's business).
fn board() -> impl Strategy<Value = Layout> {
    (2usize..=8, 2usize..=8)
        .prop_flat_map(|(w, h)| {
            Just((0..w * h).collect::<Vec<usize>>())
                .prop_shuffle()
                .prop_map(move |cells| (w, h, cells))
        })
        .prop_map(|(w, h, cells)| Layout::new(Shape::new(w, h).unwrap(), &cells).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn token_soups_never_panic(text in soup(), size in size()) {
        check_all(&text, size);
    }

    #[test]
    fn random_bytes_never_panic(text in bytes(), size in size()) {
        check_all(&text, size);
    }

    /// Near misses of a valid board: one token of its one-line form replaced by soup.
    #[test]
    fn corrupted_boards_get_specific_errors(
        b in board(),
        at in any::<prop::sample::Index>(),
        junk in prop::sample::select(TOKENS),
    ) {
        let mut tokens: Vec<String> = b.to_line().split(' ').map(String::from).collect();
        let i = at.index(tokens.len());
        tokens[i] = junk.to_string();
        let text = tokens.join(" ");
        check_all(&text, Some(b.shape()));
        check_all(&text, None);
    }

    #[test]
    fn valid_boards_round_trip_in_every_format(b in board()) {
        assert_round_trip(&b);
    }

    /// Several boards of one shape, in mixed formats, separated by blank lines, read back in
    /// order; as an instance file (`ID T0 .. LENGTH`) too.
    #[test]
    fn board_lists_and_instance_files_round_trip(
        boards in (2usize..=5, 2usize..=5).prop_flat_map(|(w, h)| {
            prop::collection::vec(
                Just((0..w * h).collect::<Vec<usize>>()).prop_shuffle(),
                1..6,
            )
            .prop_map(move |v| {
                let shape = Shape::new(w, h).unwrap();
                v.iter().map(|c| Layout::new(shape, c).unwrap()).collect::<Vec<_>>()
            })
        }),
    ) {
        let shape = boards[0].shape();
        let text: Vec<String> = boards
            .iter()
            .enumerate()
            .map(|(i, b)| match i % 3 {
                0 => b.to_line(),
                1 => b.to_grid(),
                _ => b.to_line().replace(' ', ","),
            })
            .collect();
        let back = parse_boards(&text.join("\n\n"), Some(shape)).unwrap();
        prop_assert_eq!(&back, &boards);
        let mut file = String::new();
        for (i, b) in boards.iter().enumerate() {
            writeln!(file, "#{i}\nid{i} {} {}", b.to_line(), i * 7).unwrap();
        }
        let inst = parse_instances(&file, Some(shape)).unwrap();
        prop_assert!(is_instance_file(&file, Some(shape)));
        prop_assert_eq!(inst.len(), boards.len());
        for (i, (x, b)) in inst.iter().zip(&boards).enumerate() {
            prop_assert_eq!(&x.board, b);
            prop_assert_eq!(x.optimal as usize, i * 7);
            prop_assert_eq!(x.id.clone(), format!("id{i}"));
            prop_assert_eq!(x.line, 2 * i + 2);
        }
    }

    #[test]
    fn move_strings_round_trip(v in prop::collection::vec(0usize..4, 0..100)) {
        let moves: Vec<Move> = v.into_iter().map(Move::from_index).collect();
        let s = moves_to_string(&moves);
        prop_assert_eq!(parse_moves(&s).unwrap(), moves.clone());
    }
}
