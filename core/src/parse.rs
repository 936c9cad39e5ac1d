//! Parsing boards from text.
//!
//! Accepted formats (any mix, one board after another):
//! - a **hex string**, one digit a cell, for boards of up to 16 cells: `2348170c56ab9def`;
//! - **numbers** separated by whitespace or commas (a field left empty between two commas,
//!   `1,2,,3`, is an error, never skipped): a line holding all `W*H` numbers is one whole
//!   board; otherwise consecutive lines of equal length are the rows of one board, which ends at a
//!   blank line or the end of the input;
//! - the **textbook format**: a line with `n`, then `n` rows of `n` numbers (the Princeton
//!   8-puzzle assignment's files);
//! - **slash rows** on one line, the speedsolving community's notation (the `slidy` crate,
//!   slidysim): `8 2 0/4 6 1/3 7 5`, rows separated by `/`, numbers by spaces or commas, or
//!   one hex digit a cell when every row is a single token (`820/461/375`); the shape is
//!   (numbers a row) × (rows), rows of different lengths are [`ParseError::Ragged`].
//!
//! The shape is inferred when the cell count is a perfect square (or from the rows); otherwise it
//! must be given (`--size WxH` in the CLI). Lines starting with `#` are comments.
//!
//! [`parse_instances`] reads **benchmark instance files** instead, one instance a line with its
//! known optimal length: `ID T0 T1 .. T(N-1) LENGTH` (Korf's 100, Korf's 24-puzzle 50, the
//! 8-puzzle's 31-move positions), `HEX LENGTH` (seed15) or `ID HEX LENGTH`.

mod instance;
mod stream;

pub use instance::{Instance, is_instance_file, parse_instances};
pub use stream::{BoardReader, MAX_LINE_BYTES, ReadError};

use crate::layout::{Layout, LayoutError, Shape};

/// A parse failure, with the offending data.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// No board in the input.
    #[error("empty input: no board given")]
    Empty,
    /// A character that is neither a digit, a separator nor (in a hex string) a hex digit.
    #[error(
        "bad character {ch:?} in {token:?} on line {line}: expected numbers separated by spaces or commas, or a hex string"
    )]
    BadChar {
        /// The character.
        ch: char,
        /// The token it is in.
        token: String,
        /// 1-based line number.
        line: usize,
    },
    /// A field left empty between two commas (`1,2,,3`): a typo, never skipped.
    #[error("empty field {field} on line {line}: nothing between two commas")]
    EmptyField {
        /// 1-based line number.
        line: usize,
        /// 1-based position of the missing field among the line's fields.
        field: usize,
    },
    /// A number too large to be a tile.
    #[error(
        "number {token:?} on line {line} is too large to be a tile (boards have at most 127x127 cells)"
    )]
    TooLarge {
        /// The token.
        token: String,
        /// 1-based line number.
        line: usize,
    },
    /// The count of cells is not a perfect square and no shape was given.
    #[error(
        "{count} cells on line {line} do not form a square board; give the shape with --size WxH (W columns, H rows)"
    )]
    NotSquare {
        /// Cells given.
        count: usize,
        /// 1-based line number.
        line: usize,
    },
    /// Fewer cells than the smallest board (2x2) has: no shape, given or inferred, fits.
    #[error("{count} cell(s) on line {line}: too few for a board (the smallest, 2x2, has 4)")]
    TooSmall {
        /// Cells given.
        count: usize,
        /// 1-based line number.
        line: usize,
    },
    /// Rows of different lengths.
    #[error(
        "non-rectangular board: row {row} (line {line}) has {len} numbers but the first row has {expected}"
    )]
    Ragged {
        /// 1-based row number within the board.
        row: usize,
        /// 1-based line number.
        line: usize,
        /// Numbers in that row.
        len: usize,
        /// Numbers in the first row.
        expected: usize,
    },
    /// A textbook file whose header says `n` but the rows do not match.
    #[error("textbook board on line {line} declares size {n} but {problem}")]
    Textbook {
        /// Line of the header.
        line: usize,
        /// Declared size.
        n: usize,
        /// What is wrong.
        problem: String,
    },
    /// The board's shape disagrees with the one given.
    #[error("board on line {line} has {given} but --size says {expected}")]
    ShapeMismatch {
        /// 1-based line number.
        line: usize,
        /// What the input has.
        given: String,
        /// The shape that was given.
        expected: Shape,
    },
    /// The board's size is out of range.
    #[error("board on line {line}: {error}")]
    Shape {
        /// 1-based line number.
        line: usize,
        /// The shape error.
        error: crate::layout::ShapeError,
    },
    /// The numbers are not a permutation of `0..W*H`.
    #[error("board on line {line}: {error}")]
    Layout {
        /// 1-based line number where the board starts.
        line: usize,
        /// What is wrong.
        error: LayoutError,
    },
    /// More than one board where exactly one was expected.
    #[error("expected one board, found {0}")]
    NotOne(usize),
    /// A line of a benchmark instance file that has none of the instance forms.
    #[error(
        "line {line} is not a benchmark instance: expected `ID T0 .. T(N-1) LENGTH`, `HEX LENGTH` or `ID HEX LENGTH`, found {found} fields"
    )]
    NotInstance {
        /// 1-based line number.
        line: usize,
        /// Whitespace-separated fields on the line.
        found: usize,
    },
    /// A line longer than [`MAX_LINE_BYTES`]: no board is written on such a line.
    #[error(
        "line {line} is longer than {max} bytes: no board has such a line (is this a board file?)"
    )]
    LineTooLong {
        /// 1-based line number.
        line: usize,
        /// The limit, [`MAX_LINE_BYTES`].
        max: usize,
    },
    /// Bytes that are not UTF-8 text.
    #[error("line {line} is not UTF-8 text")]
    NotUtf8 {
        /// 1-based line number.
        line: usize,
    },
}

/// Parses exactly one board. See the [module docs](self) for the formats.
///
/// # Errors
/// A [`ParseError`] naming the problem; [`ParseError::NotOne`] if the text holds several boards.
pub fn parse_board(text: &str, size: Option<Shape>) -> Result<Layout, ParseError> {
    let mut v = parse_boards(text, size)?;
    match (v.pop(), v.len()) {
        (Some(board), 0) => Ok(board),
        (None, _) => Err(ParseError::Empty),
        (Some(_), n) => Err(ParseError::NotOne(n + 1)),
    }
}

/// Parses every board in `text`, in order. See the [module docs](self) for the formats.
/// O(length of the text): this is [`BoardReader`] over the text's bytes (use it directly to read
/// boards from a file or a pipe as they come).
///
/// # Errors
/// The first [`ParseError`] met, in input order; [`ParseError::Empty`] if there is no board at
/// all; [`ParseError::LineTooLong`] for a line longer than [`MAX_LINE_BYTES`].
pub fn parse_boards(text: &str, size: Option<Shape>) -> Result<Vec<Layout>, ParseError> {
    let mut out = Vec::new();
    for board in BoardReader::new(text.as_bytes(), size) {
        match board {
            Ok(board) => out.push(board),
            Err(ReadError::Parse(e)) => return Err(e),
            Err(ReadError::Io(e)) => unreachable!("reading a byte slice cannot fail: {e}"),
        }
    }
    if out.is_empty() {
        return Err(ParseError::Empty);
    }
    Ok(out)
}

/// The tokens of one line that is neither blank nor a comment.
struct Line<'a> {
    /// 1-based line number.
    no: usize,
    /// The line's fields, in order: separated by whitespace or commas (and by `/`).
    tokens: Vec<&'a str>,
    /// For a line of **slash rows** (`8 2 0/4 6 1/3 7 5`): the count of fields in each row,
    /// in order; `None` for a line without `/`.
    rows: Option<Vec<usize>>,
}

/// The lines of `text` that are not comments, tokenized, in order: `Ok(None)` for a blank line
/// (a board separator), an error for a line with a comma field left empty. Lazy: O(length of
/// the lines taken).
fn lines(text: &str) -> impl Iterator<Item = Result<Option<Line<'_>>, ParseError>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with('#'))
        .map(|(i, l)| tokenize(i + 1, l))
}

/// The fields of line `no`: separated by whitespace or by commas (with optional whitespace
/// around them). A field left empty between two commas is an error, not skipped: `1,2,,3` is a
/// typo, not the board `1,2,3`. A line holding `/` is a board in **slash rows**: its rows are
/// the pieces between slashes, and their lengths are kept in [`Line::rows`].
fn tokenize(no: usize, l: &str) -> Result<Option<Line<'_>>, ParseError> {
    if l.contains('/') {
        let mut tokens = Vec::new();
        let mut rows = Vec::new();
        for piece in l.split('/') {
            let before = tokens.len();
            fields(no, piece, &mut tokens)?;
            rows.push(tokens.len() - before);
        }
        return Ok(Some(Line {
            no,
            tokens,
            rows: Some(rows),
        }));
    }
    let mut tokens = Vec::new();
    fields(no, l, &mut tokens)?;
    Ok((!tokens.is_empty()).then_some(Line {
        no,
        tokens,
        rows: None,
    }))
}

/// Appends the fields of `l` (part of line `no`) to `tokens`: separated by whitespace or by
/// commas; a field left empty between two commas is [`ParseError::EmptyField`].
fn fields<'a>(no: usize, l: &'a str, tokens: &mut Vec<&'a str>) -> Result<(), ParseError> {
    let commas = l.matches(',').count();
    for (i, piece) in l.split(',').enumerate() {
        let before = tokens.len();
        tokens.extend(piece.split_whitespace());
        // Only a piece between two commas must hold a field: a comma may start or end a line.
        if tokens.len() == before && 0 < i && i < commas {
            return Err(ParseError::EmptyField {
                line: no,
                field: before + 1,
            });
        }
    }
    Ok(())
}

/// A board in **slash rows** (`8 2 0/4 6 1/3 7 5`, or `820/461/375` with one hex digit a cell
/// when every row is a single token of at least two digits): the shape is (numbers a row) ×
/// (rows). O(cells).
fn slash_rows(line: &Line<'_>, rows: &[usize], size: Option<Shape>) -> Result<Layout, ParseError> {
    let no = line.no;
    let hex = rows.iter().all(|&k| k == 1) && line.tokens.iter().all(|t| t.len() >= 2);
    let lengths: Vec<usize> = if hex {
        line.tokens.iter().map(|t| t.chars().count()).collect()
    } else {
        rows.to_vec()
    };
    let expected = lengths[0];
    if let Some((r, &len)) = lengths.iter().enumerate().find(|&(_, &k)| k != expected) {
        return Err(ParseError::Ragged {
            row: r + 1,
            line: no,
            len,
            expected,
        });
    }
    let cells = if hex {
        let mut cells = Vec::with_capacity(expected * lengths.len());
        for tok in &line.tokens {
            if let Some(ch) = tok.chars().find(|c| !c.is_ascii_hexdigit()) {
                return Err(ParseError::BadChar {
                    ch,
                    token: (*tok).to_string(),
                    line: no,
                });
            }
            cells.extend(
                tok.chars()
                    .filter_map(|c| c.to_digit(16).map(|d| d as usize)),
            );
        }
        cells
    } else {
        line.tokens
            .iter()
            .map(|t| number(t, no))
            .collect::<Result<Vec<_>, _>>()?
    };
    let shape = Shape::new(expected, lengths.len())
        .map_err(|error| ParseError::Shape { line: no, error })?;
    check_size(shape, size, no)?;
    build(shape, &cells, no)
}

/// The board starting at `lines[i]` (a non-blank line), in whichever format that line starts,
/// and the index of the line after it. `block` is `Some(k)` when the lines before `lines[i]` in
/// its block are whole boards of `k` numbers each (see [`is_one_line_board`]).
fn board_at(
    lines: &[Option<Line<'_>>],
    i: usize,
    size: Option<Shape>,
    block: Option<usize>,
) -> Result<(Layout, usize), ParseError> {
    let Some(line) = &lines[i] else {
        unreachable!("callers skip blank lines")
    };
    if let Some(rows) = &line.rows {
        return Ok((slash_rows(line, rows, size)?, i + 1));
    }
    if let [tok] = line.tokens[..] {
        if tok.chars().all(|c| c.is_ascii_digit()) && tok.len() <= 3 {
            return textbook(lines, i, size);
        }
        if is_hex_board(tok) || tok.chars().any(|c| c.is_ascii_alphabetic()) {
            return Ok((hex_line(tok, line.no, size)?, i + 1));
        }
    }
    if is_one_line_board(lines, i, size, block)? {
        Ok((one_line(line, size)?, i + 1))
    } else {
        rows(lines, i, size)
    }
}

/// The **textbook format** (the Princeton 8-puzzle assignment's files): `lines[i]` is the
/// header `n`, then `n` rows of `n` numbers follow (blank lines between them are skipped).
fn textbook(
    lines: &[Option<Line<'_>>],
    mut i: usize,
    size: Option<Shape>,
) -> Result<(Layout, usize), ParseError> {
    let header = lines[i].as_ref().expect("the header line is not blank");
    let no = header.no;
    let n = number(header.tokens[0], no)?;
    let shape = Shape::square(n).map_err(|_| ParseError::Textbook {
        line: no,
        n,
        problem: "sizes must be 2..=127".into(),
    })?;
    check_size(shape, size, no)?;
    let mut cells = Vec::with_capacity(n * n);
    let mut rows = 0;
    i += 1;
    while rows < n {
        match lines.get(i) {
            Some(Some(row)) => {
                if row.tokens.len() != n {
                    return Err(ParseError::Textbook {
                        line: no,
                        n,
                        problem: format!("line {} has {} numbers", row.no, row.tokens.len()),
                    });
                }
                for t in &row.tokens {
                    cells.push(number(t, row.no)?);
                }
                rows += 1;
            }
            Some(None) => {}
            None => {
                return Err(ParseError::Textbook {
                    line: no,
                    n,
                    problem: format!("only {rows} rows follow"),
                });
            }
        }
        i += 1;
    }
    Ok((build(shape, &cells, no)?, i))
}

/// A **hex string** alone on line `no`: one hex digit a cell, at least 4 cells.
fn hex_line(tok: &str, no: usize, size: Option<Shape>) -> Result<Layout, ParseError> {
    if let Some(ch) = tok.chars().find(|c| !c.is_ascii_hexdigit()) {
        return Err(ParseError::BadChar {
            ch,
            token: tok.to_string(),
            line: no,
        });
    }
    if tok.len() < 4 {
        return Err(ParseError::TooSmall {
            count: tok.len(),
            line: no,
        });
    }
    hex_board(tok, size, no)
}

/// Whether the numbers on `lines[i]` are one whole board (else they are the first row of a
/// board over several lines). With `size`: the line has all of its cells and is not the first
/// of several rows of its width; a count that is neither is an error. Without: the line is a
/// whole square board by itself ([`is_whole_square`]), or the lines before it in its block are
/// whole boards of its length (`block`), or it is alone (the next line is blank or missing).
/// Looks at `lines[i]` and `lines[i + 1]` only, so that boards can be read as they arrive; the
/// next line is needed only when [`one_line_board_at_once`] cannot decide.
fn is_one_line_board(
    lines: &[Option<Line<'_>>],
    i: usize,
    size: Option<Shape>,
    block: Option<usize>,
) -> Result<bool, ParseError> {
    let line = lines[i].as_ref().expect("a non-blank line");
    let k = line.tokens.len();
    let next_is_row = matches!(lines.get(i + 1), Some(Some(n)) if n.tokens.len() > 1);
    match size {
        Some(s) if k == s.cells() && !(k == s.width() && next_is_row) => Ok(true),
        Some(s) if k != s.width() => Err(ParseError::Layout {
            line: line.no,
            error: LayoutError::WrongCount {
                given: k,
                expected: s.cells(),
                shape: s,
            },
        }),
        Some(_) => Ok(false),
        None => Ok(!next_is_row || block == Some(k) || is_whole_square(line)),
    }
}

/// Whether the numbers on `line` are one whole board whatever the next line holds, so that a
/// reader answers it without waiting for that line (issue 26): with `size`, the line has all
/// of its cells (a board has at least two rows, so it is not a row); without, the lines before
/// it in its block are whole boards of its length (`block`) or it is a whole square board by
/// itself ([`is_whole_square`]). `false` means "look at the next line". O(k).
fn one_line_board_at_once(line: &Line<'_>, size: Option<Shape>, block: Option<usize>) -> bool {
    if line.rows.is_some() {
        return true;
    }
    let k = line.tokens.len();
    match size {
        Some(s) => k == s.cells() && k != s.width(),
        None => block == Some(k) || is_whole_square(line),
    }
}

/// **Numbers on one line**: all `W*H` cells of a board of shape `size`, else of the square
/// board of that many cells.
fn one_line(line: &Line<'_>, size: Option<Shape>) -> Result<Layout, ParseError> {
    let cells = line
        .tokens
        .iter()
        .map(|t| number(t, line.no))
        .collect::<Result<Vec<_>, _>>()?;
    let shape = match size {
        Some(s) => s,
        None => square_shape(cells.len(), line.no)?,
    };
    build(shape, &cells, line.no)
}

/// **Rows over lines**: consecutive lines of equal length from `lines[i]`, ended by a blank line
/// or the end of the input; the shape is (numbers a line) × (lines).
fn rows(
    lines: &[Option<Line<'_>>],
    mut i: usize,
    size: Option<Shape>,
) -> Result<(Layout, usize), ParseError> {
    let first = lines[i].as_ref().expect("a non-blank line");
    let (no, k) = (first.no, first.tokens.len());
    let mut cells = Vec::new();
    let mut rows = 0;
    while let Some(Some(row)) = lines.get(i) {
        if row.tokens.len() != k {
            return Err(ParseError::Ragged {
                row: rows + 1,
                line: row.no,
                len: row.tokens.len(),
                expected: k,
            });
        }
        for t in &row.tokens {
            cells.push(number(t, row.no)?);
        }
        rows += 1;
        i += 1;
    }
    let shape = Shape::new(k, rows).map_err(|error| ParseError::Shape { line: no, error })?;
    check_size(shape, size, no)?;
    Ok((build(shape, &cells, no)?, i))
}

/// The tile number in `token`: decimal digits, below 127·127.
fn number(token: &str, line: usize) -> Result<usize, ParseError> {
    if let Some(ch) = token.chars().find(|c| !c.is_ascii_digit()) {
        return Err(ParseError::BadChar {
            ch,
            token: token.to_string(),
            line,
        });
    }
    match token.parse::<usize>() {
        Ok(v) if v < 127 * 127 => Ok(v),
        _ => Err(ParseError::TooLarge {
            token: token.to_string(),
            line,
        }),
    }
}

/// Whether `token` can be a hex board: 4 to 16 hex digits.
fn is_hex_board(token: &str) -> bool {
    token.len() >= 4 && token.len() <= 16 && token.chars().all(|c| c.is_ascii_hexdigit())
}

/// The square shape of `count` cells.
fn square_shape(count: usize, line: usize) -> Result<Shape, ParseError> {
    if count < 4 {
        return Err(ParseError::TooSmall { count, line });
    }
    let n = count.isqrt();
    if n * n != count {
        return Err(ParseError::NotSquare { count, line });
    }
    Shape::square(n).map_err(|error| ParseError::Shape { line, error })
}

/// The layout of `cells` in `shape`, its error located on `line`.
fn build(shape: Shape, cells: &[usize], line: usize) -> Result<Layout, ParseError> {
    Layout::new(shape, cells).map_err(|error| ParseError::Layout { line, error })
}

/// The board of a hex token (one digit a cell, non-hex characters skipped; callers reject them
/// first): `size` if given, else the square board of that many cells.
fn hex_board(tok: &str, size: Option<Shape>, line: usize) -> Result<Layout, ParseError> {
    let cells: Vec<usize> = tok
        .chars()
        .filter_map(|c| c.to_digit(16).map(|d| d as usize))
        .collect();
    let shape = match size {
        Some(s) => s,
        None => square_shape(cells.len(), line)?,
    };
    build(shape, &cells, line)
}

/// An error if `size` is given and is not `shape`.
fn check_size(shape: Shape, size: Option<Shape>, line: usize) -> Result<(), ParseError> {
    match size {
        Some(s) if s != shape => Err(ParseError::ShapeMismatch {
            line,
            given: shape.to_string(),
            expected: s,
        }),
        _ => Ok(()),
    }
}

/// Whether the `k` numbers on `line` are a whole square board by themselves: `k` is a perfect
/// square of at least 4 and the numbers are a permutation of `0..k`. Such a line is read as one
/// board whatever follows it, so that it is answered as soon as it arrives (issue 26); the rows
/// of a larger board whose first row happens to be such a permutation (`0 1 2 3` atop a 4×4
/// board) need `--size` or the textbook format. O(k).
fn is_whole_square(line: &Line<'_>) -> bool {
    let k = line.tokens.len();
    let n = k.isqrt();
    if n < 2 || n * n != k {
        return false;
    }
    let mut seen = vec![false; k];
    line.tokens.iter().all(|t| match t.parse::<usize>() {
        Ok(v) if v < k && !seen[v] => {
            seen[v] = true;
            true
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(w: usize, h: usize) -> Shape {
        Shape::new(w, h).unwrap()
    }

    #[test]
    fn formats() {
        let hex = parse_board("2348170c56ab9def", None).unwrap();
        assert_eq!(hex.shape(), s(4, 4));
        assert_eq!(hex.tile(0), 2);
        let line = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
        assert_eq!(line.shape(), s(3, 3));
        let commas = parse_board("8,6,7,2,5,4,3,0,1", None).unwrap();
        assert_eq!(line, commas);
        let rows = parse_board("8 6 7\n2 5 4\n3 0 1\n", None).unwrap();
        assert_eq!(line, rows);
        let book = parse_board("3\n 8 6 7\n 2 5 4\n 3 0 1\n", None).unwrap();
        assert_eq!(line, book);
        let rect = parse_board("1 2 3 4\n5 6 7 8\n9 10 11 0", None).unwrap();
        assert_eq!(rect.shape(), s(4, 3));
        let rect2 = parse_board("1 2 3 4 5 6 7 8 9 10 11 0", Some(s(4, 3))).unwrap();
        assert_eq!(rect, rect2);
        let many = parse_boards(
            "123456780\n\n1 2 3\n4 5 6\n7 8 0\n\n3\n1 2 3\n4 5 6\n7 8 0\n",
            None,
        )
        .unwrap();
        assert_eq!(many.len(), 3);
        let hexlines = parse_boards("2348170c56ab9def\n123456789abcdef0\n", None).unwrap();
        assert_eq!(hexlines.len(), 2);
    }

    #[test]
    fn slash_rows() {
        let line = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
        assert_eq!(parse_board("8 6 7/2 5 4/3 0 1", None), Ok(line.clone()));
        assert_eq!(parse_board("8,6,7/2,5,4/3,0,1", None), Ok(line.clone()));
        assert_eq!(
            parse_board(" 8 6 7 / 2 5 4 / 3 0 1 ", None),
            Ok(line.clone())
        );
        assert_eq!(parse_board("867/254/301", None), Ok(line.clone()));
        assert_eq!(line.to_slash(), "8 6 7/2 5 4/3 0 1");
        // The shape comes from the rows: 4 wide, 2 high; and with --size, it must agree.
        let rect = parse_board("1 2 3 4/5 6 7 0", None).unwrap();
        assert_eq!(rect.shape(), s(4, 2));
        assert_eq!(rect.to_slash(), "1 2 3 4/5 6 7 0");
        assert_eq!(
            parse_board(&rect.to_slash(), Some(s(4, 2))),
            Ok(rect.clone())
        );
        assert!(matches!(
            parse_board("1 2 3 4/5 6 7 0", Some(s(2, 4))),
            Err(ParseError::ShapeMismatch { .. })
        ));
        // Every board round-trips, also 15- and 24-puzzles (two-digit tiles).
        let b = parse_board("1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None);
        assert!(b.is_err());
        let korf = parse_board("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None).unwrap();
        assert_eq!(parse_board(&korf.to_slash(), None), Ok(korf));
        // Ragged rows, an empty row, a bad character, a hex row that is not hex.
        assert_eq!(
            parse_board("8 6 7/2 5/4 3 0 1", None),
            Err(ParseError::Ragged {
                row: 2,
                line: 1,
                len: 2,
                expected: 3
            })
        );
        assert_eq!(
            parse_board("8 6 7/2 5/4 3 0 1", None)
                .unwrap_err()
                .to_string(),
            "non-rectangular board: row 2 (line 1) has 2 numbers but the first row has 3"
        );
        assert!(matches!(
            parse_board("1 2/3 0/", None),
            Err(ParseError::Ragged { row: 3, len: 0, .. })
        ));
        assert!(matches!(
            parse_board("1 2/3 x", None),
            Err(ParseError::BadChar { ch: 'x', .. })
        ));
        assert!(matches!(
            parse_board("12/3g", None),
            Err(ParseError::BadChar { ch: 'g', .. })
        ));
        // Several boards, one a line, mixed with other formats; hex rows of a 2x2 board.
        let many = parse_boards("8 6 7/2 5 4/3 0 1\n867254301\n1 2/3 0\n12/30\n", None).unwrap();
        assert_eq!(many.len(), 4);
        assert_eq!(many[2], many[3]);
        assert_eq!(many[2].shape(), s(2, 2));
    }

    #[test]
    fn one_board_per_line_or_rows() {
        // Consecutive lines that are each a whole board: one board a line (Korf's 100 style).
        let korf = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6\n";
        let v = parse_boards(korf, None).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!((v[0].shape(), v[1].tile(0)), (s(4, 4), 13));
        let eights = parse_boards("8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 8 0\n", None).unwrap();
        assert_eq!(eights.len(), 2);
        // Rows of one board: lines that are not boards by themselves.
        let rows = parse_boards("1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 0\n", None).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].shape(), s(4, 4));
        // Nine lines of nine numbers: nine 8-puzzles, not a 9×9 board.
        let nine = "1 2 3 4 5 6 7 8 0\n".repeat(9);
        assert_eq!(parse_boards(&nine, None).unwrap().len(), 9);
        // A 9×9 board in rows stays one board.
        let big: String = (0..9)
            .map(|r| {
                (0..9)
                    .map(|c| ((r * 9 + c + 1) % 81).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect();
        let b = parse_boards(&big, None).unwrap();
        assert_eq!((b.len(), b[0].shape()), (1, s(9, 9)));
    }

    #[test]
    fn empty_comma_field_is_an_error() {
        // Regression: the empty field used to be skipped and this board read as the goal.
        assert_eq!(
            parse_board("1,2,3,,4,5,6,7,8,0", None),
            Err(ParseError::EmptyField { line: 1, field: 4 })
        );
        assert_eq!(
            parse_boards("1 2 3\n4, 5 , ,6\n7 8 0\n", None),
            Err(ParseError::EmptyField { line: 2, field: 3 })
        );
        assert_eq!(
            ParseError::EmptyField { line: 1, field: 4 }.to_string(),
            "empty field 4 on line 1: nothing between two commas"
        );
        // Commas with spaces around them, and a comma at either end of a line, are separators.
        let goal = parse_board("1, 2, 3, 4, 5, 6, 7, 8, 0", None).unwrap();
        assert_eq!(parse_board(",1,2,3,4,5,6,7,8,0,", None), Ok(goal.clone()));
        assert_eq!(parse_board("1,2,3,\n4,5,6,\n7,8,0,\n", None), Ok(goal));
    }

    #[test]
    fn errors() {
        assert_eq!(parse_board("", None), Err(ParseError::Empty));
        assert_eq!(parse_board("  \n# comment\n", None), Err(ParseError::Empty));
        assert!(matches!(
            parse_board("1 2 3 4 5 0", None),
            Err(ParseError::NotSquare { count: 6, .. })
        ));
        // Fewer than 4 cells: too small for any shape, not "not square" (1 is 1x1), even
        // with a shape given (found by the garbage-input property tests).
        for (text, size) in [("a", None), ("ab", Shape::new(2, 2).ok()), ("1 0", None)] {
            let e = parse_board(text, size).unwrap_err();
            assert!(
                matches!(e, ParseError::TooSmall { line: 1, .. }),
                "{text}: {e}"
            );
        }
        assert_eq!(
            parse_board("f", None).unwrap_err().to_string(),
            "1 cell(s) on line 1: too few for a board (the smallest, 2x2, has 4)"
        );
        assert!(matches!(
            parse_board("1 2 x 3", None),
            Err(ParseError::BadChar { ch: 'x', .. })
        ));
        assert!(matches!(
            parse_board("12345678g", None),
            Err(ParseError::BadChar { ch: 'g', .. })
        ));
        assert!(matches!(
            parse_board("1 2 3\n4 5\n6 7 0", None),
            Err(ParseError::Ragged { row: 2, len: 2, .. })
        ));
        assert!(matches!(
            parse_board("1 2 3 4 5 6 7 7 0", None),
            Err(ParseError::Layout {
                error: LayoutError::Duplicate { tile: 7, .. },
                ..
            })
        ));
        assert!(matches!(
            parse_board("1 2 3 4 5 6 7 9 0", None),
            Err(ParseError::Layout {
                error: LayoutError::OutOfRange { tile: 9, .. },
                ..
            })
        ));
        assert!(matches!(
            parse_board("1 2 3 4 5 6 7 8 0", Some(s(4, 4))),
            Err(ParseError::Layout {
                error: LayoutError::WrongCount {
                    given: 9,
                    expected: 16,
                    ..
                },
                ..
            })
        ));
        assert!(matches!(
            parse_board("3\n1 2 3\n4 5 6\n", None),
            Err(ParseError::Textbook { .. })
        ));
        // Rows of one 4×2 board (a line of 4 numbers is not a board by itself here: 4 is out
        // of range for 2×2), with duplicate tiles.
        assert!(matches!(
            parse_board("1 2 3 4\n1 2 3 0", None),
            Err(ParseError::Layout { .. })
        ));
        // Two lines that are each a 2×2 board are two boards.
        assert!(matches!(
            parse_board("1 2 3 0\n1 2 3 0", None),
            Err(ParseError::NotOne(2))
        ));
        assert!(matches!(
            parse_board("123456780\n123456780", None),
            Err(ParseError::NotOne(2))
        ));
    }
}
