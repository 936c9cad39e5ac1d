//! Reading boards from arguments, a file, or standard input.

use std::io::{IsTerminal, Read};
use std::path::Path;

use anyhow::{Context, Result};
use npuzzle_core::{
    Layout, ParseError, Shape, is_instance_file, parse_board, parse_boards, parse_instances,
};

/// The boards to work on: one per entry of `args` if there are any, else every board in `file`,
/// else every board on standard input. `size` is `--size`. A file or standard input may also be
/// a benchmark instance file (see [`npuzzle_core::parse_instances`]: Korf's 100, seed15): its
/// boards are taken and its known lengths ignored.
///
/// # Errors
/// An unreadable file or standard input, or the first malformed board (the message names it).
pub fn read_boards(
    args: &[String],
    file: Option<&Path>,
    size: Option<Shape>,
) -> Result<Vec<Layout>> {
    if !args.is_empty() {
        return args
            .iter()
            .map(|a| parse_board(a, size).with_context(|| format!("board {:?}", a.trim())))
            .collect();
    }
    if let Some(path) = file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        return boards_in(&text, size).with_context(|| format!("{}", path.display()));
    }
    let text = read_stdin()?;
    boards_in(&text, size).context("standard input")
}

/// The boards of a text: the instances' boards if it is a benchmark instance file, else the
/// boards in any format [`parse_boards`] reads.
fn boards_in(text: &str, size: Option<Shape>) -> Result<Vec<Layout>, ParseError> {
    if is_instance_file(text, size) {
        Ok(parse_instances(text, size)?
            .into_iter()
            .map(|i| i.board)
            .collect())
    } else {
        parse_boards(text, size)
    }
}

/// Exactly one board: from `arg` if given, else from standard input.
///
/// # Errors
/// As [`read_boards`]; also when standard input holds more than one board.
pub fn read_one_board(arg: Option<&str>, size: Option<Shape>) -> Result<Layout> {
    match arg {
        Some(a) => parse_board(a, size).with_context(|| format!("board {:?}", a.trim())),
        None => parse_board(&read_stdin()?, size).context("standard input"),
    }
}

/// All of standard input, with a hint on stderr when a person is typing.
fn read_stdin() -> Result<String> {
    let mut stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprintln!(
            "npuzzle: reading boards from standard input (end with Ctrl-D; see --help for the formats)"
        );
    }
    let mut text = String::new();
    stdin
        .read_to_string(&mut text)
        .context("cannot read standard input")?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_one_board_each() {
        let v = read_boards(
            &["123456780".into(), "1 2 3 4 5 6 7 0 8".into()],
            None,
            None,
        )
        .unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[1].blank(), 7);
        let e = read_boards(&["12345678".into()], None, None).unwrap_err();
        assert!(format!("{e:#}").starts_with("board \"12345678\": "));
    }

    #[test]
    fn instance_files_give_their_boards() {
        let v = boards_in("# Korf\n1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57\n", None).unwrap();
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].blank(), 9);
        let v = boards_in("2348170c56ab9def 15\n51309af4d7b826ec 25\n", None).unwrap();
        assert_eq!(v.len(), 2);
        // A plain board list is not an instance file.
        assert_eq!(boards_in("2348170c56ab9def\n", None).unwrap().len(), 1);
        // A bad later line of an instance file is an error naming its line.
        let e = boards_in("2348170c56ab9def 15\n2348170c56ab9dee 15\n", None).unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
    }
}
