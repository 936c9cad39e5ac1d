//! Reading boards from arguments, a file, or standard input: [`Boards`], an iterator that reads
//! a file or standard input incrementally (through [`npuzzle_core::BoardReader`]), so that each
//! answer can be written as soon as its board has arrived, in linear time and flat memory.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal};
use std::path::Path;

use anyhow::{Context, Result};
use npuzzle_core::{BoardReader, Layout, ParseError, ReadError, Shape, parse_board};

/// The boards of one run, in input order: the arguments (all parsed up front), or the boards of
/// a file or standard input, read as they are needed. A file or standard input may also be a
/// benchmark instance file (see [`npuzzle_core::parse_instances`]: Korf's 100, seed15): its
/// boards are taken and its known lengths ignored.
///
/// Items are errors for an unreadable input and for the first malformed board (the message
/// names the input and the line), and for an input without any board; the iteration ends after
/// an error.
pub struct Boards {
    /// Where the boards come from.
    source: Source,
    /// Whether the iteration has ended.
    done: bool,
    /// Whether the boards are typed by a person (standard input is a terminal).
    interactive: bool,
}

/// Where the boards come from.
enum Source {
    /// Boards given as arguments, already parsed.
    Args(std::vec::IntoIter<Layout>, usize),
    /// A file or standard input, read incrementally; `name` says which in error messages.
    Stream {
        /// The reader.
        reader: BoardReader<Box<dyn BufRead>>,
        /// `standard input` or the file's path.
        name: String,
    },
}

impl Boards {
    /// The boards of `args` if there are any (each parsed now: a bad one is this function's
    /// error), else of `file`, else of standard input (with a hint on stderr when a person is
    /// typing). `size` is `--size`.
    ///
    /// # Errors
    /// A malformed argument; a file that cannot be opened.
    pub fn new(args: &[String], file: Option<&Path>, size: Option<Shape>) -> Result<Boards> {
        let mut interactive = false;
        let source = if !args.is_empty() {
            let v = args
                .iter()
                .map(|a| parse_board(a, size).with_context(|| format!("board {:?}", a.trim())))
                .collect::<Result<Vec<_>>>()?;
            Source::Args(v.into_iter(), args.len())
        } else if let Some(path) = file {
            let f = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
            Source::Stream {
                reader: BoardReader::new(Box::new(BufReader::new(f)) as Box<dyn BufRead>, size)
                    .or_instances(),
                name: path.display().to_string(),
            }
        } else {
            let stdin = io::stdin();
            if stdin.is_terminal() {
                interactive = true;
                eprintln!(
                    "npuzzle: reading boards from standard input (end with Ctrl-D; see --help for the formats)"
                );
            }
            Source::Stream {
                reader: BoardReader::new(Box::new(stdin.lock()) as Box<dyn BufRead>, size)
                    .or_instances(),
                name: "standard input".into(),
            }
        };
        Ok(Boards {
            source,
            done: false,
            interactive,
        })
    }

    /// Whether a person types the boards (standard input is a terminal): then nothing waits
    /// for the next board before answering one.
    pub fn is_interactive(&self) -> bool {
        self.interactive
    }

    /// How many boards there are, when that is known before reading them (arguments).
    pub fn known_count(&self) -> Option<usize> {
        match &self.source {
            Source::Args(_, n) => Some(*n),
            Source::Stream { .. } => None,
        }
    }
}

impl Iterator for Boards {
    type Item = Result<Layout>;

    fn next(&mut self) -> Option<Result<Layout>> {
        if self.done {
            return None;
        }
        let item = match &mut self.source {
            Source::Args(v, _) => v.next().map(Ok),
            Source::Stream { reader, name } => match reader.next() {
                Some(Ok(board)) => Some(Ok(board)),
                Some(Err(ReadError::Io(e))) => Some(Err(
                    anyhow::Error::from(e).context(format!("cannot read {name}"))
                )),
                Some(Err(ReadError::Parse(e))) => {
                    Some(Err(anyhow::Error::from(e).context(name.clone())))
                }
                None if reader.boards_read() == 0 => Some(Err(anyhow::Error::from(
                    ParseError::Empty,
                )
                .context(name.clone()))),
                None => None,
            },
        };
        self.done = !matches!(item, Some(Ok(_)));
        item
    }
}

/// The boards of a run, with the first answers' question settled when `read_ahead`: whether
/// the run has exactly one board (then text output names no board). Known at once for
/// arguments; for a stream with `read_ahead`, by reading the second board before the first is
/// answered (the only read-ahead: every later board is answered as soon as it has arrived).
/// Without `read_ahead` (JSON and boards output, which do not depend on it, and boards typed
/// at a terminal) a stream's total is `None` and every board is answered as soon as it has
/// arrived.
///
/// # Errors
/// As [`Boards`]'s items, for the boards read here.
pub fn with_total(
    mut boards: Boards,
    read_ahead: bool,
) -> Result<(Option<usize>, impl Iterator<Item = Result<Layout>>)> {
    let first = boards.next().transpose()?;
    let (total, second) = if let Some(n) = boards.known_count() {
        (Some(n), None)
    } else if !read_ahead {
        (None, None)
    } else {
        let second = boards.next().transpose()?;
        (if second.is_none() { Some(1) } else { None }, second)
    };
    let head = first.into_iter().chain(second).map(Ok);
    Ok((total, head.chain(boards)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_one_board_each() {
        let v = Boards::new(
            &["123456780".into(), "1 2 3 4 5 6 7 0 8".into()],
            None,
            None,
        )
        .unwrap();
        assert_eq!(v.known_count(), Some(2));
        let v = v.collect::<Result<Vec<_>>>().unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[1].blank(), 7);
        let e = Boards::new(&["12345678".into()], None, None).err().unwrap();
        assert!(format!("{e:#}").starts_with("board \"12345678\": "));
    }

    #[test]
    fn files_are_read_incrementally_with_their_errors_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("boards.txt");
        // An instance file: its boards; a bad later line is an error naming its line, after
        // the good boards before it.
        std::fs::write(&path, "2348170c56ab9def 15\n2348170c56ab9dee 15\n").unwrap();
        let mut v = Boards::new(&[], Some(&path), None).unwrap();
        assert_eq!(v.known_count(), None);
        assert!(v.next().unwrap().is_ok());
        let e = v.next().unwrap().unwrap_err();
        assert!(format!("{e:#}").contains("line 2"), "{e:#}");
        assert!(v.next().is_none());
        // No board at all.
        std::fs::write(&path, "# nothing\n\n").unwrap();
        let e = Boards::new(&[], Some(&path), None)
            .unwrap()
            .next()
            .unwrap()
            .unwrap_err();
        assert!(
            format!("{e:#}").ends_with("empty input: no board given"),
            "{e:#}"
        );
        // One board, or several.
        std::fs::write(&path, "123456780\n").unwrap();
        let (total, rest) = with_total(Boards::new(&[], Some(&path), None).unwrap(), true).unwrap();
        assert_eq!((total, rest.count()), (Some(1), 1));
        std::fs::write(&path, "123456780\n1 2 3 4 5 6 7 0 8\n123456708\n").unwrap();
        let (total, rest) = with_total(Boards::new(&[], Some(&path), None).unwrap(), true).unwrap();
        assert_eq!((total, rest.count()), (None, 3));
        // Without read-ahead a stream's count stays unknown, even for one board.
        std::fs::write(&path, "123456780\n").unwrap();
        let (total, rest) =
            with_total(Boards::new(&[], Some(&path), None).unwrap(), false).unwrap();
        assert_eq!((total, rest.count()), (None, 1));
    }
}
