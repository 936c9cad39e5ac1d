//! Benchmark instance files: one start board a line with its known optimal solution length,
//! `ID T0 .. T(N-1) LENGTH` (Korf's 100, Korf's 24-puzzle 50, the 8-puzzle's 31-move
//! positions), `HEX LENGTH` (seed15) or `ID HEX LENGTH`.

use super::{Line, ParseError, build, hex_board, is_hex_board, lines, number, square_shape};
use crate::layout::{Layout, Shape};

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

/// The known optimal length in `tok`, a decimal number of moves.
fn length(tok: &str, line: usize) -> Result<u32, ParseError> {
    u32::try_from(number(tok, line)?).map_err(|_| ParseError::TooLarge {
        token: tok.to_string(),
        line,
    })
}

/// The instance `ID HEX LENGTH` (or `HEX LENGTH`, with the hex string as its ID).
fn hex_instance(
    id: &str,
    hex: &str,
    len: &str,
    size: Option<Shape>,
    line: usize,
) -> Result<Instance, ParseError> {
    Ok(Instance {
        id: id.to_string(),
        board: hex_board(hex, size, line)?,
        optimal: length(len, line)?,
        line,
    })
}

/// The instance `ID T0 .. T(N-1) LENGTH` of `N = tokens - 2` cells: `size` if given, else the
/// square board of `N` cells.
fn numbers_instance(t: &[&str], size: Option<Shape>, line: usize) -> Result<Instance, ParseError> {
    let n = t.len() - 2;
    let cells = t[1..=n]
        .iter()
        .map(|tok| number(tok, line))
        .collect::<Result<Vec<_>, _>>()?;
    let shape = match size {
        Some(s) => s,
        None => square_shape(n, line)?,
    };
    Ok(Instance {
        id: t[0].to_string(),
        board: build(shape, &cells, line)?,
        optimal: length(t[n + 1], line)?,
        line,
    })
}

/// The instance on one tokenized line, if the line has one of the instance forms (`None` if it
/// has none of them; an error if it has one but its data is bad). A line of slash rows is never
/// an instance: [`ParseError::NotInstance`], or the board's own error when it is no board.
pub(super) fn instance_line(
    line: &Line<'_>,
    size: Option<Shape>,
) -> Option<Result<Instance, ParseError>> {
    if let Some(rows) = &line.rows {
        // A board in slash rows carries no length, so it is no instance; when it is no board
        // either (`/`, ragged rows), its own error says why.
        return Some(
            super::slash_rows(line, rows, size).and(Err(ParseError::NotInstance {
                line: line.no,
                found: line.tokens.len(),
            })),
        );
    }
    let t = &line.tokens;
    let no = line.no;
    let is_len = |tok: &str| tok.len() <= 6 && tok.chars().all(|c| c.is_ascii_digit());
    match t.len() {
        2 if is_hex_board(t[0]) && is_len(t[1]) => Some(hex_instance(t[0], t[0], t[1], size, no)),
        3 if is_hex_board(t[1]) && is_len(t[2]) => Some(hex_instance(t[0], t[1], t[2], size, no)),
        k if k >= 6 => {
            let n = k - 2;
            let fits = match size {
                Some(s) => s.cells() == n,
                None => n.isqrt() * n.isqrt() == n,
            };
            fits.then(|| numbers_instance(t, size, no))
        }
        _ => None,
    }
}

/// Whether `text` looks like a benchmark instance file: its first line that is neither blank
/// nor a comment has one of the instance forms of [`parse_instances`] with a valid board.
/// O(length of that line).
pub fn is_instance_file(text: &str, size: Option<Shape>) -> bool {
    lines(text)
        .find(|l| !matches!(l, Ok(None)))
        .and_then(Result::ok)
        .flatten()
        .and_then(|line| instance_line(&line, size))
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
/// own error (wrong count, duplicate tile, empty comma field, ...); [`ParseError::Empty`] if
/// there is no instance.
pub fn parse_instances(text: &str, size: Option<Shape>) -> Result<Vec<Instance>, ParseError> {
    let mut out = Vec::new();
    for line in lines(text) {
        let Some(line) = line? else { continue };
        let instance = instance_line(&line, size).unwrap_or(Err(ParseError::NotInstance {
            line: line.no,
            found: line.tokens.len(),
        }))?;
        out.push(instance);
    }
    if out.is_empty() {
        return Err(ParseError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(w: usize, h: usize) -> Shape {
        Shape::new(w, h).unwrap()
    }

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
        // An empty comma field is named, not skipped.
        let e = parse_instances("1,0,1,2,,3,4,5,6,7,8,20\n", None).unwrap_err();
        assert_eq!(e, ParseError::EmptyField { line: 1, field: 5 });
        assert!(!is_instance_file("1,0,1,2,,3,4,5,6,7,8,20\n", None));
    }
}
