//! `npuzzle solve`: validates the options into an [`npuzzle::Npuzzle`], reads the boards, solves
//! each through the facade, and prints the answers.

use std::collections::HashSet;
use std::io::{self, Write};
use std::sync::Arc;

use anyhow::Result;
use npuzzle::{Answer, Layout, Limit, Notation, Progress, SearchError};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::args::{SolveArgs, SolveFormat};
use crate::input::{Boards, with_total};
use crate::interrupt;
use crate::output::{OptimalSet, Position, median, write_answer, write_optimal_set};
use crate::plan::solve_config;
use crate::progress::Terminal;
use crate::status::Status;

/// Runs `npuzzle solve`.
///
/// # Errors
/// Bad options or input; with a single board, also that board's error (limit reached, too
/// large). With several boards, each board's error is reported on stderr as it happens and the
/// run goes on; the status is then [`Status::Failed`].
pub fn run(args: &SolveArgs) -> Result<Status> {
    let npz = solve_config(args, Arc::new(Terminal::new(true)))?;
    let all_optimal = args.all_optimal || args.count || args.within.is_some();
    if all_optimal && args.format == SolveFormat::Boards {
        anyhow::bail!(
            "--all-optimal, --within and --count print text or json, not --format boards"
        );
    }
    let within = args.within.unwrap_or(0);
    if within > 0 && args.search.max_depth.is_some() {
        anyhow::bail!(
            "--max-depth applies to the search for optimal solutions only, not to --within {within}"
        );
    }
    let limit = if args.count {
        0
    } else {
        usize::try_from(args.limit.unwrap_or(DEFAULT_LIST_LIMIT)).unwrap_or(usize::MAX)
    };
    let boards = Boards::new(&args.boards, args.file.as_deref(), args.search.board.size)?;
    // Only text output names boards, which needs to know whether there are several; typed
    // boards are answered at once all the same (named `Board N:`).
    let read_ahead = args.format == SolveFormat::Text && !boards.is_interactive();
    let (mut total, boards) = interrupt::waiting(|| with_total(boards, read_ahead))?;
    let mut out = io::stdout().lock();
    let mut tally = Tally::default();
    // Pattern databases are opened on the first board of each shape, before it is solved, so
    // that a table problem stops the run instead of failing every board.
    let mut shapes = HashSet::new();
    let mut boards = boards.enumerate().peekable();
    while let Some((i, layout)) = interrupt::waiting(|| boards.next()) {
        let layout = layout?;
        // Unsolvable boards and boards at their goal are answered without tables (and before
        // any table is built); the first board of a shape that needs a search opens them.
        if !npz.answers_without_search(&layout) && shapes.insert(layout.shape()) {
            npz.prepare(std::slice::from_ref(&layout))?;
        }
        let (answer, set) = if all_optimal {
            match npz.solutions_within(&layout, within, limit, &npz.settings()) {
                Ok(all) => (Ok(all.answer.clone()), Some(all)),
                Err(e) => (Err(e), None),
            }
        } else {
            (npz.solve(&layout), None)
        };
        if let Err(npuzzle::Error::Search(SearchError::LimitReached {
            limit: Limit::Cancelled,
            progress,
        })) = &answer
        {
            out.flush()?;
            eprintln!(
                "{}",
                interrupted_message(i, &layout, progress, npz.proves_bound_when_stopped())
            );
            return Ok(tally.interrupted());
        }
        if i == 0 && total.is_none() && answer.is_err() {
            // Whether the first board's error is the run's error (a single board) or one
            // board's among several: an error waits for the next board, an answer never does.
            if interrupt::waiting(|| boards.peek().is_none()) {
                total = Some(1);
            }
        }
        let set = set.as_ref().map(|all| OptimalSet {
            all,
            listed: !args.count,
        });
        tally.record(
            answer.map_err(anyhow::Error::from),
            set.as_ref(),
            (
                args.format,
                crate::args::NotationChoice::or_default(args.notation, args.search.metric),
            ),
            i,
            total,
            &layout,
            &mut out,
        )?;
        if interrupt::interrupted() {
            eprintln!("interrupted after board {}", i + 1);
            return Ok(tally.interrupted());
        }
    }
    if let Some(line) = tally.summary() {
        eprintln!("{line}");
    }
    Ok(tally.status())
}

/// The stderr line for board `i` (0-based) interrupted with `progress`: the f-bound reached
/// (greedy search and hill climbing: the start's estimate),
/// the nodes and the seconds, and, when `proves` (the registry's rule:
/// [`npuzzle::Npuzzle::proves_bound_when_stopped`]), the lower bound it proves.
fn interrupted_message(i: usize, layout: &Layout, progress: &Progress, proves: bool) -> String {
    let bound = if proves {
        format!(
            "; lower bound: every solution has at least {} moves",
            progress.bound
        )
    } else {
        String::new()
    };
    format!(
        "interrupted: board {} ({layout}): {}, {} nodes generated, {} expanded, in {:.2} s{bound}",
        i + 1,
        progress.bound_text(),
        progress.generated,
        progress.expanded,
        progress.seconds
    )
}

/// How many optimal solutions `--all-optimal` lists without `--limit`.
pub const DEFAULT_LIST_LIMIT: u64 = 1000;

/// How many search times [`Tally`] keeps for the median: every one up to this many solved
/// boards, then a uniform sample of this many (512 KiB), so that memory stays flat on a stream
/// of millions of boards.
const MEDIAN_SAMPLE: usize = 1 << 16;

/// How the boards of one run ended.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    solved: usize,
    unsolvable: usize,
    failed: usize,
    /// Search time of the solved boards, in seconds: every one, or past [`MEDIAN_SAMPLE`]
    /// boards a uniform sample of that many (reservoir sampling, Algorithm R).
    seconds: Vec<f64>,
    /// Search time summed over the solved boards, in seconds.
    total_seconds: f64,
    /// Nodes generated, summed over the solved boards.
    generated: u64,
    /// The sampling's random choices (fixed seed: the same run gives the same summary).
    rng: Option<StdRng>,
}

impl Tally {
    /// The run's summary line, for runs that solved more than one board: counts, total and
    /// median search time (seconds; the median of a uniform sample of [`MEDIAN_SAMPLE`] boards
    /// when more were solved), total generated nodes.
    pub fn summary(&self) -> Option<String> {
        if self.solved < 2 {
            return None;
        }
        let mut t = self.seconds.clone();
        t.sort_by(f64::total_cmp);
        let median = median(&t).unwrap_or(0.0);
        Some(format!(
            "summary: {} solved, {} unsolvable, {} failed; search time {:.3} s total, {:.4} s median; {} nodes generated",
            self.solved, self.unsolvable, self.failed, self.total_seconds, median, self.generated
        ))
    }

    /// Counts the search time of one more solved board (`self.solved` already counts it).
    fn add_time(&mut self, seconds: f64) {
        self.total_seconds += seconds;
        if self.seconds.len() < MEDIAN_SAMPLE {
            self.seconds.push(seconds);
            return;
        }
        let rng = self.rng.get_or_insert_with(|| StdRng::seed_from_u64(13));
        let j = rng.random_range(0..self.solved);
        if let Some(slot) = self.seconds.get_mut(j) {
            *slot = seconds;
        }
    }

    /// Ends an interrupted run: prints the summary of the boards answered before (if any) and
    /// gives [`Status::Interrupted`].
    pub fn interrupted(&self) -> Status {
        if self.solved + self.unsolvable + self.failed > 0 {
            eprintln!(
                "summary of the boards answered before the interrupt: {} solved, {} unsolvable, {} failed; {} nodes generated",
                self.solved, self.unsolvable, self.failed, self.generated
            );
        }
        Status::Interrupted
    }

    /// Exit status: failed if any board failed, else unsolvable if any was, else success.
    pub fn status(&self) -> Status {
        if self.failed > 0 {
            Status::Failed
        } else if self.unsolvable > 0 {
            Status::Unsolvable
        } else {
            Status::Success
        }
    }
}

impl Tally {
    /// Counts and prints the answer for board `i` (0-based) of `total` (`None`: several, how
    /// many is not known yet), or reports its error: on stderr when there are several boards,
    /// as this function's error when there is one.
    ///
    /// # Errors
    /// Write errors, and the board's error when it is the only board.
    /// With `set`, every optimal solution is written with the answer.
    #[expect(
        clippy::too_many_arguments,
        reason = "record's arguments plus the optimal set"
    )]
    pub fn record(
        &mut self,
        answer: Result<Answer>,
        set: Option<&OptimalSet<'_>>,
        (format, notation): (SolveFormat, Notation),
        i: usize,
        total: Option<usize>,
        layout: &Layout,
        out: &mut impl Write,
    ) -> Result<()> {
        match answer {
            Ok(answer) => {
                if let Some(s) = &answer.solution {
                    self.solved += 1;
                    self.add_time(s.stats.seconds);
                    self.generated += s.stats.generated;
                } else {
                    self.unsolvable += 1;
                }
                let pos = Position {
                    index: i + 1,
                    total,
                };
                match set {
                    Some(set) => write_optimal_set(out, format, notation, &answer, pos, set)?,
                    None => write_answer(out, format, notation, &answer, pos)?,
                }
                out.flush()?;
            }
            Err(e) if total == Some(1) => return Err(e),
            Err(e) => {
                self.failed += 1;
                out.flush()?;
                let of = total.map(|n| format!(" of {n}")).unwrap_or_default();
                eprintln!(
                    "error: board {}{of} ({layout}): {}",
                    i + 1,
                    crate::status::one_line(&e)
                );
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tally_status() {
        let t = |solved, unsolvable, failed| {
            Tally {
                solved,
                unsolvable,
                failed,
                ..Tally::default()
            }
            .status()
        };
        assert_eq!(t(3, 0, 0), Status::Success);
        assert_eq!(t(3, 1, 0), Status::Unsolvable);
        assert_eq!(t(3, 1, 1), Status::Failed);
        assert_eq!(t(0, 0, 1), Status::Failed);
    }

    #[test]
    fn summary_only_for_several_solved_boards() {
        let mut t = Tally {
            solved: 1,
            seconds: vec![0.5],
            generated: 10,
            ..Tally::default()
        };
        assert_eq!(t.summary(), None);
        t.solved = 4;
        t.unsolvable = 1;
        t.seconds = vec![0.4, 0.1, 0.3, 0.2];
        t.total_seconds = 1.0;
        t.generated = 1234;
        assert_eq!(
            t.summary().unwrap(),
            "summary: 4 solved, 1 unsolvable, 0 failed; search time 1.000 s total, 0.2500 s median; 1234 nodes generated"
        );
    }

    #[test]
    fn times_kept_for_the_median_stay_bounded() {
        let mut t = Tally::default();
        for i in 0..3 * MEDIAN_SAMPLE {
            t.solved += 1;
            t.add_time(if i % 2 == 0 { 1.0 } else { 3.0 });
        }
        assert_eq!(t.seconds.len(), MEDIAN_SAMPLE);
        assert!((t.total_seconds - 6.0 * MEDIAN_SAMPLE as f64).abs() < 1e-6);
        // A uniform sample of half 1 s and half 3 s boards: about half of each.
        let ones = t.seconds.iter().filter(|&&s| s < 2.0).count();
        assert!(
            ones.abs_diff(MEDIAN_SAMPLE / 2) < MEDIAN_SAMPLE / 50,
            "{ones}"
        );
    }
}
