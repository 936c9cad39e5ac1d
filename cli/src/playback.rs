//! What `npuzzle play` shows, as plain data: the frames of a solution, the plain frames printed
//! when standard output is not a terminal, the styled screen of the interactive playback, and
//! the playback state driven by keys and the clock. Pure: no terminal I/O here (that is
//! [`crate::cmd::play`]), so every frame is a string that tests can read. Imports nothing from
//! the rest of the CLI.

use std::io;
use std::time::Duration;

use npuzzle::{Layout, Metric, Move, Notation};
use npuzzle_core::{MoveGroup, group_moves};

/// How a piece of the screen is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Normal text.
    Plain,
    /// The tile moved last (highlighted).
    Moved,
    /// The current move's letter (highlighted).
    Current,
    /// Secondary text (the help line, the border).
    Dim,
}

/// A run of text in one style.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// The text (no line breaks).
    pub text: String,
    /// How it is drawn.
    pub style: Style,
}

/// One line of the screen.
pub type Line = Vec<Span>;

fn span(text: impl Into<String>, style: Style) -> Span {
    Span {
        text: text.into(),
        style,
    }
}

/// The text of a line without its styles.
#[cfg(test)]
pub fn line_text(line: &Line) -> String {
    line.iter().map(|s| s.text.as_str()).collect()
}

/// The screen size a board needs: too small a terminal gets [`TooSmall`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooSmall {
    /// Columns needed.
    pub need_cols: usize,
    /// Rows needed.
    pub need_rows: usize,
    /// Columns available.
    pub cols: usize,
    /// Rows available.
    pub rows: usize,
}

impl std::fmt::Display for TooSmall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the board needs a terminal of at least {} columns and {} rows to play, this one has \
             {} x {}; enlarge it, or pipe the output (npuzzle play BOARD | less) to get the \
             frames as plain text",
            self.need_cols, self.need_rows, self.cols, self.rows
        )
    }
}

impl std::error::Error for TooSmall {}

/// Lines of the screen besides the grid's rows: title, blank, top and bottom border, blank,
/// move line, letters, status, help.
const CHROME_ROWS: usize = 9;
/// Columns the screen needs besides the grid (the left margin).
const MARGIN: usize = 1;

/// A solution to play back: the start board and its steps, one a move **of the metric**: a
/// single-tile move in the single-tile metric (STM), a run of one direction (1 to k tiles of
/// the blank's row or column, `R3`) in the multi-tile metric (MTM). Boards are replayed when
/// asked for, so memory is O(moves + cells) whatever the length of the solution.
#[derive(Clone, Debug)]
pub struct Playback {
    start: Layout,
    /// The steps: single moves (count 1) in STM, maximal runs of one direction in MTM.
    steps: Vec<MoveGroup>,
    /// Single-tile moves in all.
    single: usize,
    metric: Metric,
    notation: Notation,
    title: String,
}

impl Playback {
    /// The playback of the single-tile `moves` from `start`, one step a move of `metric`
    /// (in MTM each maximal run of one direction, as [`npuzzle_core::group_moves`] makes
    /// them), each written in `notation` (`RRR` or `R3`), with `title` on the first line of the
    /// screen and of the plain output. O(moves) time (one replay to check the moves).
    ///
    /// # Errors
    /// The index of the first illegal single-tile move (the facade replays every answer, so
    /// never for its solutions).
    pub fn new(
        start: &Layout,
        moves: &[Move],
        metric: Metric,
        notation: Notation,
        title: &str,
    ) -> Result<Playback, usize> {
        let mut b = start.clone();
        for (i, &m) in moves.iter().enumerate() {
            if !b.apply(m) {
                return Err(i);
            }
        }
        let steps = match metric {
            Metric::Stm => moves
                .iter()
                .map(|&dir| MoveGroup { dir, count: 1 })
                .collect(),
            Metric::Mtm => group_moves(moves),
        };
        Ok(Playback {
            start: start.clone(),
            steps,
            single: moves.len(),
            metric,
            notation,
            title: title.to_string(),
        })
    }

    /// Number of steps: moves of the metric (single-tile moves in STM, runs in MTM).
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// The text of step `i` (0-based) in the notation: its letter repeated (`RRR`) or with its
    /// count (`R3`); one letter for a single tile either way.
    fn step_text(&self, i: usize) -> String {
        let g = self.steps[i];
        match self.notation {
            Notation::Letters => g.dir.letter().to_string().repeat(g.count),
            Notation::Counts if g.count == 1 => g.dir.letter().to_string(),
            Notation::Counts => format!("{}{}", g.dir.letter(), g.count),
        }
    }

    /// The board after `step` steps (`step <= len()`) and the cells of the tiles the last of
    /// them moved, nearest the blank's old cell first (empty for step 0). O(single-tile moves
    /// of those steps) replay.
    fn frame(&self, step: usize) -> (Layout, Vec<usize>) {
        let mut b = self.start.clone();
        let mut moved = Vec::new();
        for g in &self.steps[..step] {
            moved.clear();
            Self::slide(&mut b, *g, &mut moved);
        }
        (b, moved)
    }

    /// Applies step `g` to `b`, recording in `moved` the cells the slid tiles land on (each
    /// tile lands where the blank was before its single-tile move).
    fn slide(b: &mut Layout, g: MoveGroup, moved: &mut Vec<usize>) {
        for _ in 0..g.count {
            moved.push(b.blank());
            b.apply(g.dir);
        }
    }

    /// `Move S of N: R (tile T slides right)`, `Move S of N: R3 (tiles 7, 8, 5 slide right)`,
    /// or `Start: N moves` (in MTM `Start: N MTM moves (S single-tile moves)`) for step 0, for
    /// `board` after `step` steps, whose last step moved the tiles now in cells `moved`.
    fn caption_of(&self, step: usize, board: &Layout, moved: &[usize]) -> String {
        let n = self.len();
        if step == 0 {
            let plural = |k: usize| if k == 1 { "" } else { "s" };
            return match self.metric {
                Metric::Stm => format!("Start: {n} move{}", plural(n)),
                Metric::Mtm => format!(
                    "Start: {n} MTM move{} ({} single-tile move{})",
                    plural(n),
                    self.single,
                    plural(self.single)
                ),
            };
        }
        let g = self.steps[step - 1];
        let dir = match g.dir {
            Move::Up => "up",
            Move::Down => "down",
            Move::Left => "left",
            Move::Right => "right",
        };
        let tiles: Vec<String> = moved.iter().map(|&c| board.tile(c).to_string()).collect();
        let what = if tiles.len() == 1 {
            format!("tile {} slides {dir}", tiles[0])
        } else {
            format!("tiles {} slide {dir}", tiles.join(", "))
        };
        format!("Move {step} of {n}: {} ({what})", self.step_text(step - 1))
    }

    /// The caption of `step` (see [`Playback::write_plain`]).
    pub fn caption(&self, step: usize) -> String {
        let (board, moved) = self.frame(step);
        self.caption_of(step, &board, &moved)
    }

    /// Writes the title line, then `len() + 1` frames, each after a blank line: a caption
    /// (`Start: N moves`, `Move S of N: L (tile T slides left)`; in MTM one frame a run, `Move
    /// S of N: L2 (tiles T, U slide left)`) and the board as a grid (one row a line,
    /// right-aligned numbers, the blank as `0`, as `npuzzle solve --format boards` prints). The
    /// first frame is the start board, the last the goal. What `npuzzle play` prints when
    /// standard output is not a terminal. O(moves × cells) time, O(cells) memory.
    ///
    /// # Errors
    /// Write errors (a broken pipe included).
    pub fn write_plain(&self, out: &mut impl io::Write) -> io::Result<()> {
        writeln!(out, "{}", self.title)?;
        let mut board = self.start.clone();
        writeln!(out, "\n{}", self.caption_of(0, &board, &[]))?;
        write!(out, "{}", board.to_grid())?;
        let mut moved = Vec::new();
        for (i, &g) in self.steps.iter().enumerate() {
            moved.clear();
            Self::slide(&mut board, g, &mut moved);
            writeln!(out, "\n{}", self.caption_of(i + 1, &board, &moved))?;
            write!(out, "{}", board.to_grid())?;
        }
        Ok(())
    }

    /// Digits of the largest tile.
    fn digits(&self) -> usize {
        (self.start.cells().len() - 1).to_string().len()
    }

    /// Width and height of the board's grid on screen, border included: each cell is the
    /// largest tile's digits plus a space on each side.
    fn grid_size(&self) -> (usize, usize) {
        let shape = self.start.shape();
        (shape.width() * (self.digits() + 2) + 2, shape.height() + 2)
    }

    /// The smallest terminal the screen fits: (columns, rows).
    pub fn needs(&self) -> (usize, usize) {
        let (w, h) = self.grid_size();
        (w + MARGIN, h - 2 + CHROME_ROWS)
    }

    /// The grid of `step` as screen lines (box border, the blank as spaces, the tiles the step
    /// moved [`Style::Moved`]: one in STM, the run's tiles in MTM).
    pub fn grid(&self, step: usize) -> Vec<Line> {
        let (board, moved) = self.frame(step);
        let shape = board.shape();
        let d = self.digits();
        let inner = shape.width() * (d + 2);
        let margin = " ".repeat(MARGIN);
        let mut lines = vec![vec![
            span(margin.clone(), Style::Plain),
            span(format!("┌{}┐", "─".repeat(inner)), Style::Dim),
        ]];
        for r in 0..shape.height() {
            let mut line = vec![span(margin.clone(), Style::Plain), span("│", Style::Dim)];
            for c in 0..shape.width() {
                let cell = r * shape.width() + c;
                let t = board.tile(cell);
                let text = if t == 0 {
                    " ".repeat(d + 2)
                } else {
                    format!(" {t:>d$} ")
                };
                let style = if moved.contains(&cell) {
                    Style::Moved
                } else {
                    Style::Plain
                };
                line.push(span(text, style));
            }
            line.push(span("│", Style::Dim));
            lines.push(line);
        }
        lines.push(vec![
            span(margin, Style::Plain),
            span(format!("└{}┘", "─".repeat(inner)), Style::Dim),
        ]);
        lines
    }

    /// The steps' texts around step `step` (in the notation), at most `width` columns: the
    /// current one in brackets and [`Style::Current`], an ellipsis where steps are cut off.
    pub fn letters(&self, step: usize, width: usize) -> Line {
        let n = self.len();
        if n == 0 {
            return vec![span("(no moves: the board is the goal)", Style::Plain)];
        }
        let texts: Vec<String> = (0..n).map(|i| self.step_text(i)).collect();
        let chars = |i: usize| texts[i].chars().count();
        // Steps shown: a window `lo..hi` around the current step (index step - 1), grown one
        // step at a time on alternate sides while its texts fit in `room` columns (the
        // brackets and the two ellipses take the other 4).
        let room = width.saturating_sub(4).max(1);
        let cur = step.saturating_sub(1);
        let (mut lo, mut hi) = (cur, cur + 1);
        let mut used = chars(cur);
        let mut left = true;
        loop {
            let grew_left = lo > 0 && used + chars(lo - 1) <= room;
            let grew_right = hi < n && used + chars(hi) <= room;
            if grew_left && (left || !grew_right) {
                lo -= 1;
                used += chars(lo);
            } else if grew_right {
                used += chars(hi);
                hi += 1;
            } else {
                break;
            }
            left = !left;
        }
        let text = |a: usize, b: usize| -> String { texts[a..b].concat() };
        let mut line = vec![span(if lo > 0 { "…" } else { " " }, Style::Dim)];
        if step == 0 {
            line.push(span(text(lo, hi), Style::Plain));
        } else {
            line.push(span(text(lo, cur), Style::Plain));
            line.push(span(format!("[{}]", texts[cur]), Style::Current));
            line.push(span(text(cur + 1, hi), Style::Plain));
        }
        if hi < n {
            line.push(span("…", Style::Dim));
        }
        line
    }

    /// The whole interactive screen for `view` on a `cols` × `rows` terminal.
    ///
    /// # Errors
    /// [`TooSmall`] when the board does not fit.
    pub fn screen(&self, view: &View, cols: usize, rows: usize) -> Result<Vec<Line>, TooSmall> {
        let (need_cols, need_rows) = self.needs();
        if cols < need_cols || rows < need_rows {
            return Err(TooSmall {
                need_cols,
                need_rows,
                cols,
                rows,
            });
        }
        // Text cut at the terminal's width ends with an ellipsis.
        let clip = |s: String| -> String {
            if s.chars().count() <= cols {
                s
            } else {
                s.chars().take(cols - 1).chain(['…']).collect()
            }
        };
        let step = view.step;
        let mut lines = vec![vec![span(clip(format!(" {}", self.title)), Style::Plain)]];
        lines.push(Vec::new());
        lines.extend(self.grid(step));
        lines.push(Vec::new());
        lines.push(vec![span(
            clip(format!(" {}", self.caption(step))),
            Style::Plain,
        )]);
        lines.push(self.letters(step, cols));
        let status = if view.finished() {
            " done: space plays again, ← steps back, q quits".to_string()
        } else if view.paused {
            " paused".to_string()
        } else {
            format!(" playing, {} ms a move", view.delay.as_millis())
        };
        lines.push(vec![span(clip(status), Style::Plain)]);
        lines.push(vec![span(
            clip(" space pause/resume · ←/→ step · +/− speed · q quit".to_string()),
            Style::Dim,
        )]);
        Ok(lines)
    }
}

/// A key of the interactive playback, already decoded from the terminal's events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// Space: pause or resume (at the end: play again from the start).
    PauseResume,
    /// ←: one move back (pauses).
    Back,
    /// →: one move forward (pauses).
    Forward,
    /// `+`: faster (the delay divided by 1.5).
    Faster,
    /// `−`: slower (the delay multiplied by 1.5).
    Slower,
    /// `q` or Esc: quit.
    Quit,
}

/// The shortest delay between two moves `+` reaches.
pub const MIN_DELAY: Duration = Duration::from_millis(10);
/// The longest delay between two moves `−` reaches.
pub const MAX_DELAY: Duration = Duration::from_secs(10);

/// The playback state: which board is shown, whether it plays, how fast.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// Moves made on the board shown (0 = the start board).
    pub step: usize,
    /// Number of moves of the solution.
    pub len: usize,
    /// Whether the playback is paused.
    pub paused: bool,
    /// Time between two moves while playing.
    pub delay: Duration,
}

impl View {
    /// Playing from the start board, `delay` between moves (clamped to
    /// [`MIN_DELAY`]..=[`MAX_DELAY`]).
    pub fn new(len: usize, delay: Duration) -> View {
        View {
            step: 0,
            len,
            paused: len == 0,
            delay: delay.clamp(MIN_DELAY, MAX_DELAY),
        }
    }

    /// Whether the last board (the goal) is shown.
    pub fn finished(&self) -> bool {
        self.step == self.len
    }

    /// The clock's tick: one move forward while playing; pauses at the goal.
    pub fn tick(&mut self) {
        if !self.paused && self.step < self.len {
            self.step += 1;
        }
        if self.finished() {
            self.paused = true;
        }
    }

    /// Applies `key`; returns `false` for [`Key::Quit`].
    pub fn press(&mut self, key: Key) -> bool {
        match key {
            Key::PauseResume if self.finished() && self.len > 0 => {
                self.step = 0;
                self.paused = false;
            }
            Key::PauseResume => self.paused = !self.paused || self.len == 0,
            Key::Back => {
                self.paused = true;
                self.step = self.step.saturating_sub(1);
            }
            Key::Forward => {
                self.paused = true;
                self.step = (self.step + 1).min(self.len);
            }
            Key::Faster => self.delay = self.delay.div_f64(1.5).max(MIN_DELAY),
            Key::Slower => self.delay = self.delay.mul_f64(1.5).min(MAX_DELAY),
            Key::Quit => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::{parse_board, verify};
    use npuzzle_core::parse_moves;

    fn a31() -> (Layout, Vec<Move>) {
        let start = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
        let moves = parse_moves("LDDRURULLDDRRUULLDRDRUULDLDRULU").unwrap();
        (start, moves)
    }

    #[test]
    fn plain_frames_run_from_the_board_to_the_goal() {
        let (start, moves) = a31();
        let p = Playback::new(&start, &moves, Metric::Stm, Notation::Letters, "title").unwrap();
        let mut out = Vec::new();
        p.write_plain(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let text = text.trim_end();
        let frames: Vec<&str> = text.split("\n\n").collect();
        assert_eq!(frames[0], "title");
        assert_eq!(frames.len(), 1 + 32, "one frame a move, plus the start");
        let grid = |f: &str| parse_board(f.split_once('\n').unwrap().1, None).unwrap();
        assert_eq!(grid(frames[1]), start);
        assert!(frames[1].starts_with("Start: 31 moves\n"));
        let goal = Layout::blank_last(start.shape());
        assert_eq!(grid(frames[32]), goal);
        for (i, f) in frames[1..].iter().enumerate() {
            // Each frame is the start board after its number of moves.
            let mut b = start.clone();
            for &m in &moves[..i] {
                assert!(b.apply(m));
            }
            assert_eq!(grid(f), b, "frame {i}");
        }
        assert!(frames[2].starts_with("Move 1 of 31: L (tile 1 slides left)\n"));
        assert_eq!(frames[2].lines().nth(3), Some("3 1 0"));
        verify(&start, &moves, &goal).unwrap();
    }

    /// Three MTM moves (six single-tile moves) from `2 3 0 / 1 5 6 / 4 7 8` to the goal.
    fn mtm3() -> (Layout, Vec<Move>) {
        let start = parse_board("2 3 0 1 5 6 4 7 8", None).unwrap();
        (start, parse_moves("RRUULL").unwrap())
    }

    /// In the multi-tile metric a step is a run: one frame a run, its tiles named in slide
    /// order, each written in the notation chosen.
    #[test]
    fn mtm_steps_are_runs_in_either_notation() {
        let (start, moves) = mtm3();
        let p = Playback::new(&start, &moves, Metric::Mtm, Notation::Counts, "t").unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!(p.caption(0), "Start: 3 MTM moves (6 single-tile moves)");
        assert_eq!(p.caption(1), "Move 1 of 3: R2 (tiles 3, 2 slide right)");
        assert_eq!(p.caption(2), "Move 2 of 3: U2 (tiles 1, 4 slide up)");
        assert_eq!(p.caption(3), "Move 3 of 3: L2 (tiles 7, 8 slide left)");
        assert_eq!(line_text(&p.letters(2, 80)), " R2[U2]L2");
        assert_eq!(line_text(&p.letters(0, 80)), " R2U2L2");
        let mut out = Vec::new();
        p.write_plain(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let frames: Vec<&str> = text.trim_end().split("\n\n").collect();
        assert_eq!(frames.len(), 1 + 4);
        assert_eq!(
            frames[2],
            "Move 1 of 3: R2 (tiles 3, 2 slide right)\n0 2 3\n1 5 6\n4 7 8"
        );
        assert_eq!(
            frames[4],
            "Move 3 of 3: L2 (tiles 7, 8 slide left)\n1 2 3\n4 5 6\n7 8 0"
        );
        // Both tiles of the run are highlighted.
        let v = View {
            step: 1,
            ..View::new(3, Duration::from_millis(300))
        };
        let moved: Vec<String> = p
            .screen(&v, 80, 24)
            .unwrap()
            .iter()
            .flatten()
            .filter(|x| x.style == Style::Moved)
            .map(|x| x.text.clone())
            .collect();
        assert_eq!(moved, [" 2 ", " 3 "]);
        // Letters notation: the same steps, each run written out.
        let p = Playback::new(&start, &moves, Metric::Mtm, Notation::Letters, "t").unwrap();
        assert_eq!(p.caption(1), "Move 1 of 3: RR (tiles 3, 2 slide right)");
        assert_eq!(line_text(&p.letters(2, 80)), " RR[UU]LL");
        // The single-tile metric: one step a tile, whatever the notation.
        let p = Playback::new(&start, &moves, Metric::Stm, Notation::Counts, "t").unwrap();
        assert_eq!(p.len(), 6);
        assert_eq!(p.caption(0), "Start: 6 moves");
        assert_eq!(p.caption(2), "Move 2 of 6: R (tile 2 slides right)");
    }

    /// A window of runs of different widths stays within the width.
    #[test]
    fn mtm_windows_fit_the_width() {
        let (start, moves) = mtm3();
        let p = Playback::new(&start, &moves, Metric::Mtm, Notation::Counts, "").unwrap();
        assert_eq!(line_text(&p.letters(2, 9)), " R2[U2]…");
        assert_eq!(line_text(&p.letters(3, 9)), "…U2[L2]");
        for step in 0..=3 {
            for width in 1..12 {
                let t = line_text(&p.letters(step, width));
                assert!(
                    t.contains(if step == 0 {
                        "R2"
                    } else {
                        ["R2", "U2", "L2"][step - 1]
                    }),
                    "{t}"
                );
                assert!(t.chars().count() <= width.max(7), "{step} {width}: {t}");
            }
        }
    }

    #[test]
    fn illegal_moves_are_refused() {
        let (start, _) = a31();
        // The blank is in the bottom row: nothing below it slides up.
        assert_eq!(
            Playback::new(
                &start,
                &parse_moves("LU").unwrap(),
                Metric::Stm,
                Notation::Letters,
                ""
            )
            .unwrap_err(),
            1
        );
    }

    #[test]
    fn the_screen_highlights_the_moved_tile_and_the_current_letter() {
        let (start, moves) = a31();
        let p = Playback::new(
            &start,
            &moves,
            Metric::Stm,
            Notation::Letters,
            "npuzzle play",
        )
        .unwrap();
        let mut v = View::new(p.len(), Duration::from_millis(300));
        v.tick();
        let s = p.screen(&v, 80, 24).unwrap();
        let texts: Vec<String> = s.iter().map(line_text).collect();
        assert_eq!(texts[0], " npuzzle play");
        assert_eq!(texts[2], " ┌─────────┐");
        assert_eq!(texts[3], " │ 8  6  7 │");
        assert_eq!(texts[5], " │ 3  1    │");
        assert_eq!(texts[6], " └─────────┘");
        assert_eq!(texts[8], " Move 1 of 31: L (tile 1 slides left)");
        assert_eq!(texts[9], " [L]DDRURULLDDRRUULLDRDRUULDLDRULU");
        assert_eq!(texts[10], " playing, 300 ms a move");
        let moved: Vec<&Span> = s
            .iter()
            .flatten()
            .filter(|x| x.style == Style::Moved)
            .collect();
        assert_eq!(moved.len(), 1);
        assert_eq!(moved[0].text, " 1 ");
        let current: Vec<&Span> = s
            .iter()
            .flatten()
            .filter(|x| x.style == Style::Current)
            .collect();
        assert_eq!(current[0].text, "[L]");
        assert_eq!(s.len(), p.needs().1);
        assert!(texts.iter().all(|t| t.chars().count() <= 80));
    }

    #[test]
    fn long_solutions_show_a_window_of_letters() {
        let (start, moves) = a31();
        let p = Playback::new(&start, &moves, Metric::Stm, Notation::Letters, "").unwrap();
        let line = line_text(&p.letters(16, 14));
        assert_eq!(line.chars().count(), 14, "{line}");
        assert!(line.starts_with('…') && line.ends_with('…'), "{line}");
        assert!(
            line.contains(&format!("[{}]", moves[15].letter())),
            "{line}"
        );
        assert_eq!(line_text(&p.letters(31, 14)).chars().last(), Some(']'));
    }

    #[test]
    fn boards_too_large_for_the_terminal_are_refused() {
        let start = Layout::blank_last(npuzzle::Shape::square(30).unwrap());
        let p = Playback::new(&start, &[], Metric::Stm, Notation::Letters, "").unwrap();
        let v = View::new(0, Duration::from_millis(300));
        let e = p.screen(&v, 80, 24).unwrap_err();
        assert_eq!((e.need_cols, e.need_rows), (30 * 5 + 3, 39));
        assert!(
            e.to_string().contains("at least 153 columns and 39 rows"),
            "{e}"
        );
        let (c, r) = p.needs();
        assert!(p.screen(&v, c, r).is_ok());
        assert!(p.screen(&v, c - 1, r).is_err() && p.screen(&v, c, r - 1).is_err());
    }

    #[test]
    fn keys_pause_step_and_change_speed() {
        let mut v = View::new(3, Duration::from_millis(300));
        v.tick();
        assert_eq!((v.step, v.paused), (1, false));
        assert!(v.press(Key::PauseResume));
        v.tick();
        assert_eq!(
            (v.step, v.paused),
            (1, true),
            "paused: the clock does nothing"
        );
        v.press(Key::Forward);
        v.press(Key::Forward);
        assert_eq!(v.step, 3);
        v.press(Key::Forward);
        assert_eq!(v.step, 3, "never past the goal");
        assert!(v.finished());
        v.press(Key::Back);
        v.press(Key::Back);
        v.press(Key::Back);
        v.press(Key::Back);
        assert_eq!((v.step, v.paused), (0, true));
        v.press(Key::PauseResume);
        for _ in 0..5 {
            v.tick();
        }
        assert_eq!((v.step, v.paused), (3, true), "stops at the goal");
        v.press(Key::PauseResume);
        assert_eq!(
            (v.step, v.paused),
            (0, false),
            "space at the end plays again"
        );
        v.press(Key::Faster);
        assert_eq!(v.delay, Duration::from_millis(200));
        v.press(Key::Slower);
        v.press(Key::Slower);
        assert_eq!(v.delay, Duration::from_millis(450));
        for _ in 0..50 {
            v.press(Key::Faster);
        }
        assert_eq!(v.delay, MIN_DELAY);
        assert!(!v.press(Key::Quit));
    }
}
