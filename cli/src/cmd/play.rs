//! `npuzzle play`: solves one board through the facade, then plays the solution back. On a
//! terminal: raw mode and the alternate screen (crossterm), the board redrawn in place per move,
//! keys from [`crate::playback::Key`]; the terminal is restored on exit, on error and on panic.
//! Otherwise the plain frames of [`Playback::write_plain`]. The frames themselves are built in
//! [`crate::playback`]; this module only does the I/O.

use std::io::{self, IsTerminal, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::style::{
    Attribute, Color, Print, ResetColor, SetAttribute, SetBackgroundColor, SetForegroundColor,
};
use crossterm::terminal::{self, ClearType};
use crossterm::{cursor, execute, queue};
use npuzzle::{Answer, MAX_PRINTED_CELLS, Metric, Notation, parse_board};

use crate::args::{NotationChoice, PlayArgs, SolveFormat};
use crate::output::{Position, write_answer};
use crate::plan::play_config;
use crate::playback::{Key, Line, Playback, Style, View};
use crate::progress::Terminal;
use crate::status::Status;

/// Runs `npuzzle play`.
///
/// # Errors
/// Bad options or board, a limit reached, a board too large for the terminal, terminal I/O
/// errors (a closed pipe included, which `main` ends quietly).
pub fn run(args: &PlayArgs) -> Result<Status> {
    let npz = play_config(args, Arc::new(Terminal::new(true)))?;
    let layout = parse_board(&args.board_text, args.search.board.size)
        .with_context(|| format!("bad board {:?}", args.board_text))?;
    let answer = npz.solve(&layout)?;
    let notation = NotationChoice::or_default(args.notation, args.search.metric);
    let mut out = io::stdout().lock();
    let Some(solution) = &answer.solution else {
        write_answer(
            &mut out,
            SolveFormat::Text,
            notation,
            &answer,
            Position {
                index: 1,
                total: Some(1),
            },
        )?;
        return Ok(Status::Unsolvable);
    };
    let playback = Playback::new(
        &answer.layout,
        &solution.moves,
        answer.metric,
        notation,
        &title(&answer, notation),
    )
    .map_err(|i| anyhow!("internal error: move {} of the answer is illegal", i + 1))?;
    if !io::stdout().is_terminal() {
        let cells = answer.layout.shape().cells();
        if (playback.len() + 1).saturating_mul(cells) > MAX_PRINTED_CELLS {
            bail!(
                "the solution has {} moves on a {} board: too many boards to print as frames \
                 (more than {MAX_PRINTED_CELLS} cells); play it on a terminal, or use npuzzle solve",
                playback.len(),
                answer.layout.shape()
            );
        }
        let mut buffered = io::BufWriter::new(&mut out);
        playback.write_plain(&mut buffered)?;
        buffered.flush()?;
        return Ok(Status::Success);
    }
    drop(out);
    let (cols, rows) = terminal::size().context("cannot read the terminal's size")?;
    let view = View::new(playback.len(), Duration::from_millis(args.delay));
    playback.screen(&view, cols.into(), rows.into())?;
    interactive(&playback, view)?;
    let mut out = io::stdout().lock();
    write_answer(
        &mut out,
        SolveFormat::Text,
        notation,
        &answer,
        Position {
            index: 1,
            total: Some(1),
        },
    )?;
    Ok(Status::Success)
}

/// The first line of the screen and of the plain output: the board, the length in the
/// answer's metric and what is proven, the engine, the moves in `notation`
/// (`BOARD: 31 moves (optimal) by idastar + pdb: LDDR...`; in MTM `BOARD: 20 MTM moves (optimal
/// in the multi-tile metric; 31 single-tile moves) by idastar + mtm-pdb: LD2RURUL2...`).
fn title(answer: &Answer, notation: Notation) -> String {
    let Some(s) = &answer.solution else {
        return String::new();
    };
    let proven = if s.guarantee.is_optimal() {
        "optimal"
    } else {
        "not proven optimal"
    };
    let n = answer.length();
    let length = match answer.metric {
        Metric::Stm => format!("{n} moves ({proven})"),
        Metric::Mtm => format!(
            "{n} MTM moves ({proven} in the multi-tile metric; {} single-tile moves)",
            s.moves.len()
        ),
    };
    format!(
        "{}: {length} by {} + {}: {}",
        answer.layout,
        answer.engine.name(),
        answer.heuristic.name(),
        notation.format(&s.moves)
    )
}

/// Puts the terminal back: cursor shown, main screen, cooked mode. Safe to call twice.
fn restore() {
    let _ = execute!(
        io::stdout(),
        ResetColor,
        cursor::Show,
        terminal::LeaveAlternateScreen
    );
    let _ = terminal::disable_raw_mode();
}

/// Raw mode and the alternate screen for as long as it lives; [`restore`] when dropped, and
/// from the panic hook (with `panic = "abort"`, drops do not run).
struct Screen;

impl Screen {
    fn enter() -> io::Result<Screen> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        terminal::enable_raw_mode()?;
        let screen = Screen;
        execute!(io::stdout(), terminal::EnterAlternateScreen, cursor::Hide)?;
        Ok(screen)
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore();
    }
}

/// The playback key of a terminal key press, if any.
fn decode(k: KeyEvent) -> Option<Key> {
    if k.kind == KeyEventKind::Release {
        return None;
    }
    match k.code {
        KeyCode::Char(' ') => Some(Key::PauseResume),
        KeyCode::Left => Some(Key::Back),
        KeyCode::Right => Some(Key::Forward),
        KeyCode::Char('+' | '=') => Some(Key::Faster),
        KeyCode::Char('-' | '_') => Some(Key::Slower),
        KeyCode::Char('q' | 'Q') | KeyCode::Esc => Some(Key::Quit),
        KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => Some(Key::Quit),
        _ => None,
    }
}

/// The interactive loop: draw, wait for a key or the next tick, until `q`.
fn interactive(playback: &Playback, mut view: View) -> Result<()> {
    let _screen = Screen::enter().context("cannot set up the terminal")?;
    let mut next = Instant::now() + view.delay;
    loop {
        draw(playback, &view)?;
        let wait = if view.paused {
            Duration::from_mins(1)
        } else {
            next.saturating_duration_since(Instant::now())
        };
        if event::poll(wait)? {
            // A resize (or any other event) just redraws.
            if let Event::Key(k) = event::read()?
                && let Some(key) = decode(k)
            {
                let was_paused = view.paused;
                if !view.press(key) {
                    return Ok(());
                }
                if was_paused && !view.paused {
                    next = Instant::now() + view.delay;
                }
            }
        } else if !view.paused {
            view.tick();
            next = Instant::now() + view.delay;
        }
    }
}

/// Draws the screen for `view` at the terminal's current size (a message instead when the
/// terminal was made too small).
fn draw(playback: &Playback, view: &View) -> io::Result<()> {
    let (cols, rows) = terminal::size()?;
    let lines: Vec<Line> = match playback.screen(view, cols.into(), rows.into()) {
        Ok(lines) => lines,
        Err(e) => {
            let text: String = format!("{e} (q quits)");
            let chunk = usize::from(cols).max(1);
            let chars: Vec<char> = text.chars().collect();
            chars
                .chunks(chunk)
                .take(usize::from(rows))
                .map(|c| {
                    vec![crate::playback::Span {
                        text: c.iter().collect(),
                        style: Style::Plain,
                    }]
                })
                .collect()
        }
    };
    let mut out = io::stdout().lock();
    for (row, line) in lines.iter().enumerate() {
        queue!(
            out,
            cursor::MoveTo(0, row as u16),
            terminal::Clear(ClearType::CurrentLine)
        )?;
        for span in line {
            match span.style {
                Style::Plain => queue!(out, Print(&span.text))?,
                Style::Moved => queue!(
                    out,
                    SetAttribute(Attribute::Bold),
                    SetBackgroundColor(Color::DarkYellow),
                    SetForegroundColor(Color::Black),
                    Print(&span.text),
                    SetAttribute(Attribute::Reset),
                    ResetColor
                )?,
                Style::Current => queue!(
                    out,
                    SetAttribute(Attribute::Bold),
                    SetForegroundColor(Color::DarkYellow),
                    Print(&span.text),
                    SetAttribute(Attribute::Reset),
                    ResetColor
                )?,
                Style::Dim => queue!(
                    out,
                    SetForegroundColor(Color::DarkGrey),
                    Print(&span.text),
                    ResetColor
                )?,
            }
        }
    }
    queue!(
        out,
        cursor::MoveTo(0, lines.len() as u16),
        terminal::Clear(ClearType::FromCursorDown)
    )?;
    out.flush()
}
