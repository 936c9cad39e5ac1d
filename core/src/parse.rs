//! Parsing boards from text.
//!
//! Accepted formats (any mix, one board after another):
//! - a **hex string**, one digit a cell, for boards of up to 16 cells: `2348170c56ab9def`;
//! - **numbers** separated by whitespace or commas: a line holding all `W*H` numbers is one whole
//!   board; otherwise consecutive lines of equal length are the rows of one board, which ends at a
//!   blank line or the end of the input;
//! - the **textbook format**: a line with `n`, then `n` rows of `n` numbers (the Princeton
//!   8-puzzle assignment's files).
//!
//! The shape is inferred when the cell count is a perfect square (or from the rows); otherwise it
//! must be given (`--size WxH` in the CLI). Lines starting with `#` are comments.
//!
//! [`parse_instances`] reads **benchmark instance files** instead, one instance a line with its
//! known optimal length: `ID T0 T1 .. T(N-1) LENGTH` (Korf's 100, Korf's 24-puzzle 50, the
//! 8-puzzle's 31-move positions), `HEX LENGTH` (seed15) or `ID HEX LENGTH`.

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
}

/// One benchmark instance: a start board with its known optimal solution length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The instance's ID in its file (`1`..`100` for Korf's 100; the hex string itself when the
    /// line has no ID).
    pub id: String,
    /// The start board.
    pub board: Layout,
    /// The known optimal solution length, in moves, for the goal the file is measured against
    /// (the file's header says which).
    pub optimal: u32,
    /// 1-based line number in the file.
    pub line: usize,
}

/// The instance on one tokenized line, if the line has one of the instance forms (`None` if it
/// has none of them; an error if it has one but its data is bad).
fn instance_line(line: &Line<'_>, size: Option<Shape>) -> Option<Result<Instance, ParseError>> {
    let t = &line.tokens;
    let no = line.no;
    let length = |tok: &str| -> Result<u32, ParseError> {
        let v = number(tok, no)?;
        u32::try_from(v).map_err(|_| ParseError::TooLarge {
            token: tok.to_string(),
            line: no,
        })
    };
    let hex = |id: &str, tok: &str, len: &str| -> Result<Instance, ParseError> {
        Ok(Instance {
            id: id.to_string(),
            board: hex_board(tok, size, no)?,
            optimal: length(len)?,
            line: no,
        })
    };
    let is_len = |tok: &str| tok.len() <= 6 && tok.chars().all(|c| c.is_ascii_digit());
    match t.len() {
        2 if is_hex_board(t[0]) && is_len(t[1]) => Some(hex(t[0], t[0], t[1])),
        3 if is_hex_board(t[1]) && is_len(t[2]) => Some(hex(t[0], t[1], t[2])),
        k if k >= 6 => {
            let n = k - 2;
            let fits = match size {
                Some(s) => s.cells() == n,
                None => n.isqrt() * n.isqrt() == n,
            };
            if !fits {
                return None;
            }
            Some((|| {
                let cells = t[1..=n]
                    .iter()
                    .map(|tok| number(tok, no))
                    .collect::<Result<Vec<_>, _>>()?;
                let shape = match size {
                    Some(s) => s,
                    None => square_shape(n, no)?,
                };
                Ok(Instance {
                    id: t[0].to_string(),
                    board: build(shape, &cells, no)?,
                    optimal: length(t[k - 1])?,
                    line: no,
                })
            })())
        }
        _ => None,
    }
}

/// Whether `text` looks like a benchmark instance file: its first line that is neither blank
/// nor a comment has one of the instance forms of [`parse_instances`] with a valid board.
/// O(length of that line).
pub fn is_instance_file(text: &str, size: Option<Shape>) -> bool {
    tokenize(text)
        .iter()
        .flatten()
        .next()
        .and_then(|line| instance_line(line, size))
        .is_some_and(|r| r.is_ok())
}

/// Parses a benchmark instance file: one instance a line, `ID T0 .. T(N-1) LENGTH` (tiles
/// row-major, 0 = blank: Korf's 100, Korf's 24-puzzle 50), `HEX LENGTH` (one hex digit a cell:
/// seed15) or `ID HEX LENGTH`; lines starting with `#` and blank lines are skipped. The board's
/// shape is `size` if given, else the square with that many cells. O(length of the text).
///
/// The file does not say which goal its lengths are measured against (its header comment
/// usually does): the caller chooses the goal.
///
/// # Errors
/// The first bad line: [`ParseError::NotInstance`] for a line of another form, or the board's
/// own error (wrong count, duplicate tile, ...); [`ParseError::Empty`] if there is no instance.
pub fn parse_instances(text: &str, size: Option<Shape>) -> Result<Vec<Instance>, ParseError> {
    let out = tokenize(text)
        .iter()
        .flatten()
        .map(|line| {
            instance_line(line, size).unwrap_or(Err(ParseError::NotInstance {
                line: line.no,
                found: line.tokens.len(),
            }))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if out.is_empty() {
        return Err(ParseError::Empty);
    }
    Ok(out)
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

struct Line<'a> {
    no: usize,
    tokens: Vec<&'a str>,
}

fn tokenize(text: &str) -> Vec<Option<Line<'_>>> {
    // None marks a blank line (a board separator).
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            let tokens: Vec<&str> = l
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .collect();
            if tokens.is_empty() {
                None
            } else {
                Some(Line { no: i + 1, tokens })
            }
        })
        .collect()
}

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

fn is_hex_board(token: &str) -> bool {
    token.len() >= 4 && token.len() <= 16 && token.chars().all(|c| c.is_ascii_hexdigit())
}

fn square_shape(count: usize, line: usize) -> Result<Shape, ParseError> {
    let n = count.isqrt();
    if n * n != count {
        return Err(ParseError::NotSquare { count, line });
    }
    Shape::square(n).map_err(|error| ParseError::Shape { line, error })
}

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

/// Whether the block of non-blank lines starting at `lines[0]` (all of `k` numbers) holds one
/// whole board per line: `k` is a perfect square of at least 4 and every line of the block is a
/// permutation of `0..k`. O(block length · k).
fn lines_are_boards(lines: &[Option<Line<'_>>], k: usize) -> bool {
    let n = k.isqrt();
    if n < 2 || n * n != k {
        return false;
    }
    lines
        .iter()
        .map_while(Option::as_ref)
        .take_while(|l| l.tokens.len() == k)
        .all(|l| {
            let mut seen = vec![false; k];
            l.tokens.iter().all(|t| match t.parse::<usize>() {
                Ok(v) if v < k && !seen[v] => {
                    seen[v] = true;
                    true
                }
                _ => false,
            })
        })
}

/// Parses every board in `text`, in order. See the [module docs](self) for the formats.
/// O(length of the text).
///
/// # Errors
/// The first [`ParseError`] met; [`ParseError::Empty`] if there is no board at all.
#[expect(
    clippy::too_many_lines,
    reason = "one pass over the lines, one branch per format"
)]
pub fn parse_boards(text: &str, size: Option<Shape>) -> Result<Vec<Layout>, ParseError> {
    let lines = tokenize(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(line) = &lines[i] else {
            i += 1;
            continue;
        };
        let no = line.no;
        if line.tokens.len() == 1 {
            let tok = line.tokens[0];
            if tok.chars().all(|c| c.is_ascii_digit()) && tok.len() <= 3 {
                // Textbook header `n`, then n rows of n numbers.
                let n = number(tok, no)?;
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
                                    problem: format!(
                                        "line {} has {} numbers",
                                        row.no,
                                        row.tokens.len()
                                    ),
                                });
                            }
                            for t in &row.tokens {
                                cells.push(number(t, row.no)?);
                            }
                            rows += 1;
                            i += 1;
                        }
                        Some(None) => i += 1,
                        None => {
                            return Err(ParseError::Textbook {
                                line: no,
                                n,
                                problem: format!("only {rows} rows follow"),
                            });
                        }
                    }
                }
                out.push(build(shape, &cells, no)?);
                continue;
            }
            if is_hex_board(tok) || tok.chars().any(|c| c.is_ascii_alphabetic()) {
                if let Some(ch) = tok.chars().find(|c| !c.is_ascii_hexdigit()) {
                    return Err(ParseError::BadChar {
                        ch,
                        token: tok.to_string(),
                        line: no,
                    });
                }
                if tok.len() < 4 {
                    return Err(ParseError::NotSquare {
                        count: tok.len(),
                        line: no,
                    });
                }
                out.push(hex_board(tok, size, no)?);
                i += 1;
                continue;
            }
        }
        let k = line.tokens.len();
        let next_is_row = matches!(lines.get(i + 1), Some(Some(n)) if n.tokens.len() > 1);
        let whole = match size {
            Some(s) if k == s.cells() && !(k == s.width() && next_is_row) => true,
            Some(s) if k != s.width() => {
                return Err(ParseError::Layout {
                    line: no,
                    error: LayoutError::WrongCount {
                        given: k,
                        expected: s.cells(),
                        shape: s,
                    },
                });
            }
            Some(_) => false,
            // Without --size, a block of lines of k numbers each is one board per line when
            // every line of the block is a whole board by itself (k a perfect square and each
            // line a permutation of 0..k); else the lines are the rows of one board.
            None => !next_is_row || lines_are_boards(&lines[i..], k),
        };
        if whole {
            let cells = line
                .tokens
                .iter()
                .map(|t| number(t, no))
                .collect::<Result<Vec<_>, _>>()?;
            let shape = match size {
                Some(s) => s,
                None => square_shape(k, no)?,
            };
            out.push(build(shape, &cells, no)?);
            i += 1;
            continue;
        }
        // Rows over several lines, ended by a blank line or the end of input.
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
        out.push(build(shape, &cells, no)?);
    }
    if out.is_empty() {
        return Err(ParseError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_files() {
        let korf = "# Korf\n\n1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57\n2 13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6 55\n";
        assert!(is_instance_file(korf, None));
        let v = parse_instances(korf, None).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].id, "1");
        assert_eq!(v[0].optimal, 57);
        assert_eq!(v[0].line, 3);
        assert_eq!(v[1].board.blank(), 12);
        let seed = "2348170c56ab9def 15\nA 51309af4d7b826ec 25\n";
        let v = parse_instances(seed, None).unwrap();
        assert_eq!((v[0].id.as_str(), v[0].optimal), ("2348170c56ab9def", 15));
        assert_eq!((v[1].id.as_str(), v[1].optimal), ("A", 25));
        let eight = "A31_1 8 6 7 2 5 4 3 0 1 31\n";
        assert_eq!(
            parse_instances(eight, None).unwrap()[0].board.shape(),
            Shape::square(3).unwrap()
        );
        // A 4x3 instance needs the shape.
        let wide = "x 1 2 3 4 5 6 7 8 9 10 11 0 0\n";
        assert!(!is_instance_file(wide, None));
        let v = parse_instances(wide, Some(s(4, 3))).unwrap();
        assert_eq!(v[0].board.shape(), s(4, 3));
        // Plain boards are not instance files.
        assert!(!is_instance_file("8 6 7 2 5 4 3 0 1\n", None));
        assert!(!is_instance_file("2348170c56ab9def\n", None));
        assert!(!is_instance_file("3\n8 6 7\n2 5 4\n3 0 1\n", None));
        assert!(!is_instance_file("1 2 3\n4 5 6\n7 8 0\n", None));
    }

    #[test]
    fn instance_errors() {
        assert_eq!(
            parse_instances("# only comments\n", None),
            Err(ParseError::Empty)
        );
        let e = parse_instances("2348170c56ab9def 15\n8 6 7 2 5 4 3 0 1\n", None).unwrap_err();
        assert_eq!(e, ParseError::NotInstance { line: 2, found: 9 });
        let e = parse_instances("1 1 1 2 3 4 5 6 7 8 20\n", None).unwrap_err();
        assert!(matches!(e, ParseError::Layout { line: 1, .. }), "{e}");
        let e = parse_instances("1 0 1 2 3 4 5 6 7 8 x\n", None).unwrap_err();
        assert!(matches!(e, ParseError::BadChar { ch: 'x', .. }), "{e}");
    }

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
    fn errors() {
        assert_eq!(parse_board("", None), Err(ParseError::Empty));
        assert_eq!(parse_board("  \n# comment\n", None), Err(ParseError::Empty));
        assert!(matches!(
            parse_board("1 2 3 4 5 0", None),
            Err(ParseError::NotSquare { count: 6, .. })
        ));
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
