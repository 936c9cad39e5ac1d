//! Reading boards incrementally from a [`BufRead`]: [`BoardReader`], an iterator of boards that
//! holds only the few lines the board being read needs, so that a million piped boards are read
//! in linear time and constant memory, and each board is available as soon as its last line
//! (and, for numbers on one line, the line after it) has arrived.
//!
//! The formats and errors are those of [`parse_boards`](super::parse_boards) (which is this
//! reader over a string), plus [`ParseError::LineTooLong`] for a line longer than
//! [`MAX_LINE_BYTES`] and [`ParseError::NotUtf8`] for bytes that are not UTF-8.

use std::collections::VecDeque;
use std::io::{self, BufRead};

use super::{Line, ParseError, board_at, instance::instance_line, tokenize};
use crate::layout::{Layout, Shape};

/// The longest line [`BoardReader`] accepts, in bytes, without its line break: 256 KiB. A
/// 127×127 board written on one line with comma-and-space separators takes about 113 KB. A
/// longer line is [`ParseError::LineTooLong`], found after reading at most this many bytes of
/// it, so a 100 MB line of digits costs 256 KiB of memory and stops at once.
pub const MAX_LINE_BYTES: usize = 256 * 1024;

/// The most rows a board over several lines can have (the largest board is 127×127): the reader
/// holds at most one more row than this before the board's own error says it is too tall.
const MAX_ROWS: usize = 127;

/// A failure of [`BoardReader`]: the input could not be read, or it holds a bad board.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Malformed input: the first bad board, with its line.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The underlying reader failed.
    #[error("cannot read input: {0}")]
    Io(#[from] io::Error),
}

/// One line of input held by the reader: `None` stands for one or more blank lines (a board
/// separator; a run of them means the same as one), comments are never held.
type Entry = Option<(usize, String)>;

/// What the input turned out to be, decided on its first non-blank line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Not decided yet.
    Undecided,
    /// Boards in the formats of [`parse_boards`](super::parse_boards).
    Boards,
    /// A benchmark instance file: one instance a line (see
    /// [`parse_instances`](super::parse_instances)); its boards are yielded.
    Instances,
}

/// An iterator of the boards in a [`BufRead`], read incrementally: the formats of
/// [`parse_boards`](super::parse_boards), one board after another, in input order; with
/// [`BoardReader::or_instances`], also benchmark instance files.
///
/// Cost: each input byte is read once and tokenized at most three times, so reading is
/// O(length of the input); memory is O(the longest board's lines), at most about
/// (127 + 2) × [`MAX_LINE_BYTES`] for a board over many lines and two lines for boards one a
/// line. A line of numbers that is a whole board by itself (a permutation of `0..N-1` with N a
/// square, all of `--size`'s cells, or the next of a block of such lines) is yielded as soon as
/// it has been read; any other line of numbers once the next line (or the end of input) has
/// been read, since that line says whether it is a whole board or the first row of one.
///
/// After the first error the iterator ends. An input without any board yields nothing (not
/// [`ParseError::Empty`]: callers that need a board say so, see [`BoardReader::boards_read`]).
///
/// ```
/// use npuzzle_core::parse::BoardReader;
/// let input = "2348170c56ab9def\n8 6 7\n2 5 4\n3 0 1\n";
/// let boards = BoardReader::new(input.as_bytes(), None).collect::<Result<Vec<_>, _>>()?;
/// assert_eq!(boards.len(), 2);
/// # Ok::<(), npuzzle_core::parse::ReadError>(())
/// ```
#[derive(Debug)]
pub struct BoardReader<R> {
    /// The input.
    input: R,
    /// `--size`, if given.
    size: Option<Shape>,
    /// Lines read ahead and not yet used, in order.
    window: VecDeque<Entry>,
    /// Physical lines read so far (the 1-based number of the last one).
    line_no: usize,
    /// Whether the input is exhausted.
    eof: bool,
    /// Whether the iterator has ended (input exhausted or an error returned).
    done: bool,
    /// Whether a benchmark instance file is accepted.
    instances: bool,
    /// What the input is.
    mode: Mode,
    /// `Some(k)` while the lines of the current block (since the last blank line) are whole
    /// boards of `k` numbers each: the next line of `k` numbers is one too.
    block: Option<usize>,
    /// Boards yielded so far.
    boards: usize,
    /// Bytes passed to the tokenizer so far (the linear-time test reads it).
    tokenized: u64,
    /// Scratch for the line being read.
    buf: Vec<u8>,
}

impl<R: BufRead> BoardReader<R> {
    /// A reader of the boards in `input`; `size` is the board shape when the text does not give
    /// it (as in [`parse_boards`](super::parse_boards)).
    pub fn new(input: R, size: Option<Shape>) -> Self {
        BoardReader {
            input,
            size,
            window: VecDeque::new(),
            line_no: 0,
            eof: false,
            done: false,
            instances: false,
            mode: Mode::Undecided,
            block: None,
            boards: 0,
            tokenized: 0,
            buf: Vec::new(),
        }
    }

    /// Also accepts a benchmark instance file (Korf's 100, seed15, ...): when the first line
    /// that is neither blank nor a comment is a valid instance (see
    /// [`is_instance_file`](super::is_instance_file)), every line is read as one, and the
    /// instances' boards are yielded (their known lengths are not checked here).
    #[must_use]
    pub fn or_instances(mut self) -> Self {
        self.instances = true;
        self
    }

    /// How many boards have been yielded so far.
    pub fn boards_read(&self) -> usize {
        self.boards
    }

    /// The next physical line, without its line break (`\n` or `\r\n`), or `None` at the end
    /// of the input.
    fn read_line(&mut self) -> Result<Option<String>, ReadError> {
        self.buf.clear();
        let mut any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            };
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (take, newline) = match chunk.iter().position(|&b| b == b'\n') {
                Some(p) => (p, true),
                None => (chunk.len(), false),
            };
            if self.buf.len() + take > MAX_LINE_BYTES {
                return Err(ParseError::LineTooLong {
                    line: self.line_no + 1,
                    max: MAX_LINE_BYTES,
                }
                .into());
            }
            self.buf.extend_from_slice(&chunk[..take]);
            self.input.consume(take + usize::from(newline));
            if newline {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.line_no += 1;
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        match std::str::from_utf8(&self.buf) {
            Ok(s) => Ok(Some(s.to_owned())),
            Err(_) => Err(ParseError::NotUtf8 { line: self.line_no }.into()),
        }
    }

    /// Reads lines into the window until it holds `n` entries or the input ends; comments are
    /// skipped and runs of blank lines kept as one entry.
    fn fill(&mut self, n: usize) -> Result<(), ReadError> {
        while self.window.len() < n && !self.eof {
            let Some(text) = self.read_line()? else {
                self.eof = true;
                break;
            };
            if text.trim_start().starts_with('#') {
                continue;
            }
            // `char::is_whitespace`, as the tokenizer splits: a vertical tab is whitespace
            // there but not to `u8::is_ascii_whitespace` (a line of one once reached an
            // unreachable!).
            let blank = text.chars().all(|c| c.is_whitespace() || c == ',')
                && matches!(tokenize(self.line_no, &text), Ok(None));
            if blank {
                if !matches!(self.window.back(), Some(None)) {
                    self.window.push_back(None);
                }
            } else {
                self.window.push_back(Some((self.line_no, text)));
            }
        }
        Ok(())
    }

    /// Fills the window up to `n` entries, and further while the last one is a blank entry
    /// that a non-blank one may follow (so that a board's extent ends on a non-blank line or at
    /// the end of the input).
    fn tokenized_lines(&mut self, n: usize) -> Result<Vec<Option<Line<'_>>>, ParseError> {
        let n = n.min(self.window.len());
        let mut out = Vec::with_capacity(n);
        for entry in self.window.range(..n) {
            out.push(match entry {
                None => None,
                Some((no, text)) => {
                    self.tokenized += text.len() as u64;
                    tokenize(*no, text)?
                }
            });
        }
        Ok(out)
    }

    /// The number of window entries the board starting at the window's front (a non-blank
    /// line) spans when that line is a single token, reading as many lines as that takes: the
    /// header and its `n` rows for the textbook format, else one line (a hex string).
    fn single_token_extent(&mut self, tok_is_header: Option<usize>) -> Result<usize, ReadError> {
        Ok(match tok_is_header {
            Some(n) if (2..=MAX_ROWS).contains(&n) => self.rows_extent(n, true)?,
            _ => 1,
        })
    }

    /// The entries from the window's front to the `rows`-th non-blank line after it (skipping
    /// blank entries when `skip_blanks`, else stopping at the first one, which is included),
    /// reading lines as needed; fewer at the end of the input.
    fn rows_extent(&mut self, rows: usize, skip_blanks: bool) -> Result<usize, ReadError> {
        let mut seen = 0;
        let mut i = usize::from(skip_blanks);
        loop {
            self.fill(i + 1)?;
            match self.window.get(i) {
                None => return Ok(self.window.len()),
                Some(None) if !skip_blanks => return Ok(i + 1),
                Some(None) => {}
                Some(Some(_)) => {
                    seen += 1;
                    if seen == rows {
                        return Ok(i + 1);
                    }
                }
            }
            i += 1;
        }
    }

    /// The next board in the formats of [`parse_boards`](super::parse_boards), from the
    /// window's front (a non-blank line). Reads only the lines the board needs: a single token
    /// (hex string, textbook header) and a line that is a whole board by itself need no
    /// look-ahead; other numbers need the next line, which says whether they are a whole board
    /// or its first row.
    fn next_board(&mut self) -> Result<Option<Layout>, ReadError> {
        let (size, block) = (self.size, self.block);
        let header = {
            let lines = self.tokenized_lines(1)?;
            match lines.first() {
                Some(Some(Line { rows: Some(_), .. })) => None,
                Some(Some(Line { tokens, .. })) => match tokens[..] {
                    [tok] => Some(
                        (tok.chars().all(|c| c.is_ascii_digit()) && tok.len() <= 3)
                            .then(|| tok.parse::<usize>().unwrap_or(0)),
                    ),
                    _ => None,
                },
                _ => unreachable!("the window starts at a non-blank line"),
            }
        };
        let n = if let Some(header) = header {
            self.single_token_extent(header)?
        } else {
            let at_once = match self.tokenized_lines(1)?.first() {
                Some(Some(line)) => super::one_line_board_at_once(line, size, block),
                _ => false,
            };
            if at_once {
                // A whole board by itself: answered without reading the next line.
                let lines = self.tokenized_lines(1)?;
                let (board, next) = board_at(&lines, 0, size, block)?;
                let k = lines[0].as_ref().map_or(0, |l| l.tokens.len());
                drop(lines);
                return Ok(Some(self.took(board, next, k)));
            }
            self.fill(2)?;
            let lines = self.tokenized_lines(2)?;
            if super::is_one_line_board(&lines, 0, size, block)? {
                let (board, next) = board_at(&lines, 0, size, block)?;
                let k = lines[0].as_ref().map_or(0, |l| l.tokens.len());
                drop(lines);
                return Ok(Some(self.took(board, next, k)));
            }
            drop(lines);
            self.rows_extent(MAX_ROWS + 1, false)?
        };
        self.fill(n)?;
        let lines = self.tokenized_lines(n)?;
        let (board, next) = board_at(&lines, 0, size, block)?;
        drop(lines);
        Ok(Some(self.took(board, next, 0)))
    }

    /// Drops the `next` window entries `board` was read from; `k` is the count of numbers on
    /// its line when it is a one-line board (else 0), which keeps the rest of its block one
    /// board a line.
    fn took(&mut self, board: Layout, next: usize, k: usize) -> Layout {
        self.window.drain(..next);
        self.block = None;
        if next == 1 && k > 1 && self.size.is_none() {
            // The block goes on unless a blank line follows, which `advance` skips and which
            // ends the block there.
            self.block = Some(k);
        }
        board
    }

    /// The next instance's board, or `None` at the end of the input.
    fn next_instance(&mut self) -> Result<Option<Layout>, ReadError> {
        let size = self.size;
        let lines = self.tokenized_lines(1)?;
        let Some(Some(line)) = lines.first() else {
            unreachable!("the window starts at a non-blank line")
        };
        let instance = instance_line(line, size).unwrap_or(Err(ParseError::NotInstance {
            line: line.no,
            found: line.tokens.len(),
        }))?;
        drop(lines);
        self.window.pop_front();
        Ok(Some(instance.board))
    }

    /// The next board, or `None` at the end of the input.
    fn advance(&mut self) -> Result<Option<Layout>, ReadError> {
        loop {
            self.fill(1)?;
            match self.window.front() {
                None => return Ok(None),
                Some(None) => {
                    self.window.pop_front();
                    self.block = None;
                }
                Some(Some(_)) => break,
            }
        }
        if self.mode == Mode::Undecided {
            self.mode = Mode::Boards;
            if self.instances {
                let size = self.size;
                if let Some(Some(line)) = self.tokenized_lines(1)?.first()
                    && matches!(instance_line(line, size), Some(Ok(_)))
                {
                    self.mode = Mode::Instances;
                }
            }
        }
        match self.mode {
            Mode::Instances => self.next_instance(),
            _ => self.next_board(),
        }
    }

    /// Bytes passed to the tokenizer so far.
    #[cfg(test)]
    fn tokenized(&self) -> u64 {
        self.tokenized
    }
}

impl<R: BufRead> Iterator for BoardReader<R> {
    type Item = Result<Layout, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.advance() {
            Ok(Some(board)) => {
                self.boards += 1;
                Some(Ok(board))
            }
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, Read};

    use super::*;
    use crate::parse::parse_boards;

    /// A reader that hands out its bytes in small chunks and counts every byte it shows to the
    /// caller (`fill_buf` called again without `consume` shows the same bytes again).
    struct Counting<'a> {
        data: &'a [u8],
        pos: usize,
        chunk: usize,
        shown: u64,
    }

    impl Read for Counting<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = {
                let avail = self.fill_buf()?;
                let n = avail.len().min(out.len());
                out[..n].copy_from_slice(&avail[..n]);
                n
            };
            self.consume(n);
            Ok(n)
        }
    }

    impl BufRead for Counting<'_> {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            let end = (self.pos + self.chunk).min(self.data.len());
            self.shown += (end - self.pos) as u64;
            Ok(&self.data[self.pos..end])
        }
        fn consume(&mut self, n: usize) {
            self.pos += n;
        }
    }

    /// Reads every board of `text` through a counting reader; returns the boards, the bytes
    /// shown by the reader and the bytes tokenized.
    fn count(text: &str, size: Option<Shape>) -> (usize, u64, u64) {
        let mut input = Counting {
            data: text.as_bytes(),
            pos: 0,
            chunk: 7,
            shown: 0,
        };
        let mut reader = BoardReader::new(&mut input, size).or_instances();
        let boards = reader.by_ref().map(Result::unwrap).count();
        let tokenized = reader.tokenized();
        drop(reader);
        (boards, input.shown, tokenized)
    }

    #[test]
    fn each_byte_is_read_once_and_tokenized_a_bounded_number_of_times() {
        let n = 20_000;
        let hex = "2348170c56ab9def\n".repeat(n);
        let spaced = "8 6 7 2 5 4 3 0 1\n".repeat(n);
        let rows = "8 6 7\n2 5 4\n3 0 1\n\n".repeat(n);
        let book = "3\n8 6 7\n2 5 4\n3 0 1\n".repeat(n);
        let korf = "1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57\n".repeat(n);
        for text in [&hex, &spaced, &rows, &book, &korf] {
            let (boards, shown, tokenized) = count(text, None);
            let len = text.len() as u64;
            assert_eq!(boards, n, "{:?}", &text[..20]);
            // Every byte is shown once; a chunk's tail after a line break is shown again at
            // most once per line.
            assert!(shown <= 2 * len, "{shown} bytes shown for {len}");
            // The old parser looked at the whole block of one-line boards for each of them:
            // 20,000² lines here. Now at most three passes of the tokenizer over each line.
            assert!(
                tokenized <= 3 * len,
                "{tokenized} bytes tokenized for {len}"
            );
        }
    }

    #[test]
    fn same_boards_as_before_in_every_format() {
        let text = "# comment\n2348170c56ab9def\n\n8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 8 0\n\
                    \n1 2 3 4\n5 6 7 8\n9 10 11 0\n\n\n3\n1 2 3\n\n4 5 6\n7 8 0\n123456780\n";
        let v: Vec<Layout> = BoardReader::new(text.as_bytes(), None)
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(v.len(), 6);
        assert_eq!(v[2].to_string(), "123456780");
        assert_eq!(v[3].shape(), Shape::new(4, 3).unwrap());
        assert_eq!(v[4], v[5]);
        assert_eq!(parse_boards(text, None).unwrap(), v);
    }

    #[test]
    fn a_block_of_whole_boards_stays_one_board_a_line() {
        // Two lines that are whole 2x2 boards, then a line of four numbers that is not one:
        // an error on that line, never the rows of a 4x2 board made of lines 2 and 3.
        let e = parse_boards("1 2 3 0\n0 1 2 3\n5 6 7 4\n", None).unwrap_err();
        assert!(matches!(e, ParseError::Layout { line: 3, .. }), "{e}");
        // A whole square board is one board whatever follows (issue 26: it is answered before
        // the next line arrives), so a line that would continue it as rows is an error; the
        // rows of a wider board whose first row is a whole square board need --size.
        let e = parse_boards("1 2 3 0\n5 6 7 4\n", None).unwrap_err();
        assert!(matches!(e, ParseError::Layout { line: 2, .. }), "{e}");
        let v = parse_boards("1 2 3 0\n5 6 7 4\n", Shape::new(4, 2).ok()).unwrap();
        assert_eq!(v[0].shape(), Shape::new(4, 2).unwrap());
        // A first row that is not a whole board still starts a board over several lines.
        let v = parse_boards("1 2 3 4\n5 6 7 0\n", None).unwrap();
        assert_eq!(v[0].shape(), Shape::new(4, 2).unwrap());
    }

    #[test]
    fn boards_arrive_before_the_input_ends() {
        // A hex board is complete at its line break; a one-line board of numbers once the next
        // line is there.
        let mut r = BoardReader::new(io::BufReader::new(Dripping(b"2348170c56ab9def\n")), None);
        assert!(r.next().unwrap().is_ok());
        let mut r = BoardReader::new(
            io::BufReader::new(Dripping(b"8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 8 0\n")),
            None,
        );
        assert!(r.next().unwrap().is_ok());
        // Issue 26: a line that is a whole board by itself is yielded without reading the next
        // line (a person typing one board a line, a program waiting for each answer): a whole
        // square board, a whole --size board, and the next line of a block of whole boards.
        for (text, size) in [
            (&b"8 6 7 2 5 4 3 0 1\n"[..], None),
            (b"1, 2, 3, 4, 5, 6, 7, 8, 0\n", None),
            (b"1 2 3 4 5 6 7 8 9 10 0 11\n", Shape::new(4, 3).ok()),
        ] {
            let mut r = BoardReader::new(io::BufReader::new(Dripping(text)), size);
            assert!(
                r.next().unwrap().is_ok(),
                "{:?}",
                String::from_utf8_lossy(text)
            );
        }
        let mut r = BoardReader::new(io::BufReader::new(Dripping(b"1 2 3 0\n1 2 0 3\n")), None);
        assert!(r.next().unwrap().is_ok());
        assert!(r.next().unwrap().is_ok());
    }

    /// A reader that serves its bytes and then fails, as a pipe whose writer is still open
    /// would block: anything read past the bytes is an error.
    struct Dripping(&'static [u8]);

    impl Read for Dripping {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("read past the available bytes"));
            }
            let n = self.0.len().min(out.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn long_lines_and_bad_bytes() {
        // 100 MB of digits on one line: an error after reading MAX_LINE_BYTES of it.
        let mut digits = io::repeat(b'7').take(100_000_000);
        let mut input = io::BufReader::new(&mut digits);
        let mut r = BoardReader::new(&mut input, None);
        let e = r.next().unwrap().unwrap_err();
        assert!(
            matches!(
                e,
                ReadError::Parse(ParseError::LineTooLong {
                    line: 1,
                    max: MAX_LINE_BYTES
                })
            ),
            "{e}"
        );
        assert!(r.next().is_none());
        drop(r);
        drop(input);
        assert!(digits.limit() >= 100_000_000 - 2 * MAX_LINE_BYTES as u64);
        assert_eq!(
            e.to_string(),
            "line 1 is longer than 262144 bytes: no board has such a line (is this a board file?)"
        );
        let e = BoardReader::new(&b"123456780\n12\xff4\n"[..], None)
            .nth(1)
            .unwrap()
            .unwrap_err();
        assert!(
            matches!(e, ReadError::Parse(ParseError::NotUtf8 { line: 2 })),
            "{e}"
        );
        // An error ends the iteration; boards before it were yielded.
        let mut r = BoardReader::new(&b"123456780\n123456788\n123456780\n"[..], None);
        assert!(r.next().unwrap().is_ok());
        assert!(r.next().unwrap().is_err());
        assert!(r.next().is_none());
        assert_eq!(r.boards_read(), 1);
    }

    #[test]
    fn instance_files_only_when_asked() {
        let korf = "# Korf\n1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57\n2 13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6 55\n";
        let v: Vec<Layout> = BoardReader::new(korf.as_bytes(), None)
            .or_instances()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!((v.len(), v[0].blank(), v[1].blank()), (2, 9, 12));
        assert!(
            BoardReader::new(korf.as_bytes(), None)
                .next()
                .unwrap()
                .is_err()
        );
        let e = BoardReader::new(&b"2348170c56ab9def 15\n8 6 7 2 5 4 3 0 1\n"[..], None)
            .or_instances()
            .nth(1)
            .unwrap()
            .unwrap_err();
        assert!(
            matches!(
                e,
                ReadError::Parse(ParseError::NotInstance { line: 2, found: 9 })
            ),
            "{e}"
        );
    }
}
