//! Anytime search for boards beyond optimal search: beam searches of growing widths on several
//! threads, sharing the incumbent, with path shortening of every answer.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::time::Instant;

use npuzzle_core::{
    Board, Goal, Guarantee, Heuristic, HeuristicProperties, Limit, Limits, Move, Outcome, Progress,
    SearchError, SearchStart, Solution, Solver, Stats, start_search,
};

use crate::Constructive;

use crate::beam::{BeamEnd, beam, beam_layer_bytes, beam_record_bytes};
use crate::shorten::shorten;

/// The anytime search's settings.
#[derive(Clone, Debug)]
pub struct AnytimeOptions {
    /// The first beam width; each later beam is twice as wide.
    pub first_width: usize,
    /// The widest beam tried (besides the memory limit).
    pub max_width: usize,
    /// Threads searching at once (at least 1), each running its own beams.
    pub threads: usize,
    /// Memory of all the beams at once, in bytes (each thread gets an equal share, and a
    /// thread stops before a beam that would not fit in it).
    pub memory_bytes: u64,
    /// Moves per window of the path shortening ([`crate::shorten`]); below 2: loops only.
    pub window: usize,
    /// Generated nodes per window of the path shortening.
    pub window_nodes: u64,
}

impl Default for AnytimeOptions {
    /// Widths 64, 128, ... up to 2^22; 2 threads; 4 GiB; windows of 24 moves with 50,000
    /// nodes each.
    fn default() -> AnytimeOptions {
        AnytimeOptions {
            first_width: 64,
            max_width: 1 << 22,
            threads: 2,
            memory_bytes: 4 << 30,
            window: 24,
            window_nodes: 50_000,
        }
    }
}

/// The anytime search's answer: the shortest path found and how it was found. Beam search
/// proves no bound on the optimum: the answer's only guarantee is the lower bound.
#[derive(Clone, Debug)]
pub struct AnytimeAnswer {
    /// The moves, from the start to the goal.
    pub moves: Vec<Move>,
    /// The heuristic's estimate of the start: a lower bound on the optimum when the heuristic
    /// is admissible, else 0.
    pub lower_bound: u32,
    /// The widest beam that finished (with or without an answer), 0 if none did.
    pub widest: usize,
    /// One line per beam: its width and its length, or why it has none.
    pub log: Vec<String>,
}

/// Anytime beam search: from the answer `initial` (for instance the constructive solver's),
/// beam searches ([`beam`]) of widths `first_width`, 2·`first_width`, 4·`first_width`, ...
/// run on `options.threads` threads at once (each thread takes the next width when its beam
/// ends); each beam prunes the children with g + h at least the incumbent's length (with an
/// admissible heuristic), and every answer is shortened ([`shorten`]) before it is compared.
/// Stops at `limits.timeout` (the anytime budget), cancellation, `limits.max_nodes` is not
/// used. A wider beam is slower and its answer usually shorter (measured on the `DeepCubeA`
/// 35- and 48-puzzle sets, BENCHMARKS.md); this anytime scheme follows Zhou & Hansen's beam
/// widening ("Beam-stack search", ICAPS 2005, and "Breadth-first heuristic search", 2006),
/// without their completeness machinery: it proves nothing about the optimum.
///
/// Returns the shortest answer found; it is never longer than `initial`. Each beam is
/// deterministic (given the incumbent it starts with), and a longer budget lets every thread
/// finish the same beams and more, so a longer budget does not give a longer answer unless the
/// thread timing changes the incumbents that the beams prune with.
///
/// Time: the budget (plus up to one beam layer and one shortening window past it); memory: at
/// most `options.memory_bytes` for the beams, besides the caller's.
///
/// # Errors
/// [`SearchError::LimitReached`] with [`Limit::Cancelled`] when `limits.cancel` is set.
///
/// # Panics
/// If `initial` is not a legal path from `start` (a caller bug).
#[expect(
    clippy::too_many_lines,
    reason = "one scope: the worker closure shares the incumbent, the log and the width counter"
)]
pub fn anytime<B: Board, H: Heuristic<B>>(
    start: &B,
    goal: &Goal,
    heuristic: &H,
    initial: &[Move],
    options: &AnytimeOptions,
    limits: &Limits,
) -> Result<AnytimeAnswer, SearchError> {
    let begun = Instant::now();
    let deadline = limits.timeout.map(|t| begun + t);
    let cancelled = || {
        limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    };
    let stop = || cancelled() || deadline.is_some_and(|d| Instant::now() >= d);
    let lower_bound = if heuristic.properties().admissible {
        heuristic.estimate(start)
    } else {
        0
    };
    let goal_key = B::from_layout(goal.layout())
        .expect("the goal has the board's shape")
        .key();
    let cells = goal.shape().cells();
    let initial = shorten(
        start,
        initial,
        options.window,
        options.window_nodes,
        deadline,
    );
    let upper = AtomicU32::new(initial.len() as u32);
    let best = Mutex::new(initial);
    let log = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let widest = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let threads = options.threads.max(1);
    let share = limits
        .memory_bytes
        .map_or(options.memory_bytes, |m| m.min(options.memory_bytes))
        / threads as u64;
    let worker = || {
        while !halt.load(Ordering::Relaxed) && !stop() {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(width) = u32::try_from(i)
                .ok()
                .and_then(|i| options.first_width.max(1).checked_shl(i))
                .filter(|&w| w <= options.max_width && w <= 1 << 30)
            else {
                return;
            };
            let depth = u64::from(upper.load(Ordering::Relaxed));
            let bytes = beam_layer_bytes(width, cells) + depth * beam_record_bytes(width);
            if bytes > share {
                log.lock().expect("no panics").push(format!(
                    "width {width}: not run, {bytes} bytes would exceed the memory share of {share}"
                ));
                halt.store(true, Ordering::Relaxed);
                return;
            }
            let t = Instant::now();
            let line = match beam(start, &goal_key, heuristic, width, &upper, &stop) {
                Ok(moves) => {
                    let found = moves.len();
                    let short = shorten(
                        start,
                        &moves,
                        options.window,
                        options.window_nodes,
                        deadline,
                    );
                    let mut b = best.lock().expect("no panics");
                    if short.len() < b.len() {
                        *b = short;
                        upper.fetch_min(b.len() as u32, Ordering::Relaxed);
                    }
                    widest.fetch_max(width, Ordering::Relaxed);
                    format!(
                        "width {width}: {found} moves, {} after shortening ({:.2} s)",
                        b.len().min(found),
                        t.elapsed().as_secs_f64()
                    )
                }
                Err(BeamEnd::Exhausted) => {
                    widest.fetch_max(width, Ordering::Relaxed);
                    format!(
                        "width {width}: nothing shorter than {} moves ({:.2} s)",
                        upper.load(Ordering::Relaxed),
                        t.elapsed().as_secs_f64()
                    )
                }
                Err(BeamEnd::Stopped) => format!(
                    "width {width}: stopped by the time budget ({:.2} s)",
                    t.elapsed().as_secs_f64()
                ),
            };
            log.lock().expect("no panics").push(line);
        }
    };
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(worker);
        }
        worker();
    });
    if cancelled() {
        return Err(SearchError::LimitReached {
            limit: Limit::Cancelled,
            progress: Progress {
                expanded: 0,
                generated: 0,
                seconds: begun.elapsed().as_secs_f64(),
                bound: lower_bound,
                stored_states: 0,
            },
        });
    }
    let mut moves = best.into_inner().expect("no panics");
    // Time left after every beam: shorten with longer windows.
    let mut window = options.window;
    while window >= 2 && window < moves.len() && !stop() {
        window += window / 2;
        moves = shorten(start, &moves, window, options.window_nodes, deadline);
    }
    Ok(AnytimeAnswer {
        moves,
        lower_bound,
        widest: widest.into_inner(),
        log: log.into_inner().expect("no panics"),
    })
}

/// [`anytime`] as a [`Solver`]: the constructive solver's answer ([`Constructive`]), then
/// beams of growing widths until the time limit (`Limits::timeout`; without one, up to width
/// [`AnytimeBeam::UNTIMED_MAX_WIDTH`]), shortened. Never proven optimal
/// ([`Guarantee::Unproven`]); [`Stats::initial_h`] is the heuristic's lower bound and
/// [`Stats::expanded`] the widest finished beam.
#[derive(Clone, Debug, Default)]
pub struct AnytimeBeam {
    /// The settings (the memory share comes from `Limits::memory_bytes` when smaller).
    pub options: AnytimeOptions,
}

impl AnytimeBeam {
    /// The widest beam run when the search has no time limit.
    pub const UNTIMED_MAX_WIDTH: usize = 1 << 14;

    /// The engine with [`AnytimeOptions::default`] and `threads` threads.
    pub fn new(threads: usize) -> AnytimeBeam {
        AnytimeBeam {
            options: AnytimeOptions {
                threads: threads.max(1),
                ..AnytimeOptions::default()
            },
        }
    }
}

impl<B: Board> Solver<B> for AnytimeBeam {
    fn name(&self) -> &'static str {
        "beam"
    }

    /// Nothing: beam search drops states and proves no bound on its answer's length.
    fn guarantee(&self, _heuristic: HeuristicProperties) -> Guarantee {
        Guarantee::Unproven
    }

    /// Solves `start`; unsolvable boards are answered by parity without search.
    ///
    /// # Errors
    /// [`SearchError::LimitReached`] with [`Limit::Cancelled`] on cancellation (the other
    /// limits end the search with the best answer so far); [`SearchError::Goal`] when the
    /// goal's shape differs from the board's.
    fn solve_observed<H: Heuristic<B>, O: FnMut(&Progress)>(
        &mut self,
        start: &B,
        goal: &Goal,
        heuristic: &H,
        limits: &Limits,
        _observer: O,
    ) -> Result<Outcome, SearchError> {
        let clock = Instant::now();
        if let SearchStart::Answered(outcome) = start_search(start, goal)? {
            return Ok(outcome);
        }
        let Outcome::Solved(first) = Constructive.solve(start, goal, heuristic, limits)? else {
            unreachable!("start_search answered unsolvable boards")
        };
        let mut options = self.options.clone();
        if limits.timeout.is_none() {
            options.max_width = options.max_width.min(Self::UNTIMED_MAX_WIDTH);
        }
        let a = anytime(start, goal, heuristic, &first.moves, &options, limits)?;
        Ok(Outcome::Solved(Solution {
            moves: a.moves,
            guarantee: Guarantee::Unproven,
            stats: Stats {
                expanded: a.widest as u64,
                seconds: clock.elapsed().as_secs_f64(),
                initial_h: a.lower_bound,
                ..Stats::default()
            },
        }))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use npuzzle_core::{BitBoard, LinearConflict, Manhattan, Shape, parse_board, verify};

    use super::*;
    use crate::VecBoard;
    use crate::beam::beam;

    /// A beam wider than any layer of the 8-puzzle is breadth-first search: it finds the
    /// optimum (31 moves, the exhaustive BFS oracle's value for this board); narrow beams find
    /// valid, longer-or-equal answers.
    #[test]
    fn a_wide_beam_is_breadth_first_search() {
        let layout = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
        let goal = Goal::blank_last(layout.shape());
        let b = BitBoard::from_layout(&layout).unwrap();
        let goal_key = BitBoard::from_layout(goal.layout()).unwrap().key();
        let h = Manhattan::new(&goal);
        let none = AtomicU32::new(u32::MAX);
        let moves = beam(&b, &goal_key, &h, 1 << 20, &none, &|| false).unwrap();
        assert_eq!(moves.len(), 31);
        verify(&layout, &moves, goal.layout()).unwrap();
        for width in [1, 2, 8, 100] {
            match beam(&b, &goal_key, &h, width, &none, &|| false) {
                Ok(m) => {
                    assert!(m.len() >= 31, "width {width}");
                    verify(&layout, &m, goal.layout()).unwrap();
                }
                Err(e) => assert_eq!(e, BeamEnd::Exhausted, "width {width}"),
            }
        }
        // An upper bound of 31 leaves nothing shorter; 32 leaves the optimum.
        let at = AtomicU32::new(31);
        assert_eq!(
            beam(&b, &goal_key, &h, 1 << 20, &at, &|| false),
            Err(BeamEnd::Exhausted)
        );
        let above = AtomicU32::new(32);
        assert_eq!(
            beam(&b, &goal_key, &h, 1 << 20, &above, &|| false)
                .unwrap()
                .len(),
            31
        );
        assert_eq!(
            beam(&b, &goal_key, &h, 4, &none, &|| true),
            Err(BeamEnd::Stopped)
        );
    }

    fn random_board(side: usize, seed: u64) -> (npuzzle_core::Layout, Goal) {
        use rand::{Rng, SeedableRng};
        let shape = Shape::square(side).unwrap();
        let goal = Goal::blank_last(shape);
        let mut b = VecBoard::from_layout(goal.layout()).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..2000 {
            let legal: Vec<Move> = b.legal().into_iter().collect();
            b.apply(legal[rng.random_range(0..legal.len())]);
        }
        (b.to_layout(), goal)
    }

    /// Anytime answers replay to the goal, are never longer than the first answer nor below
    /// the lower bound, and more beams (a larger maximum width, as a longer budget allows)
    /// never give a longer answer: with one thread the runs are deterministic.
    #[test]
    fn anytime_answers_replay_and_more_beams_never_lengthen_them() {
        for (side, seed) in [(4, 1), (5, 2), (6, 3), (7, 4)] {
            let (layout, goal) = random_board(side, seed);
            let b = VecBoard::from_layout(&layout).unwrap();
            let h = LinearConflict::new(&goal);
            let first = Constructive::solve_layout(&layout, &goal);
            let mut last = usize::MAX;
            for max_width in [64, 512, 4096] {
                let options = AnytimeOptions {
                    max_width,
                    threads: 1,
                    ..AnytimeOptions::default()
                };
                let a = anytime(&b, &goal, &h, &first, &options, &Limits::default()).unwrap();
                verify(&layout, &a.moves, goal.layout()).unwrap();
                assert!(a.moves.len() <= first.len());
                assert_eq!(a.lower_bound, h.estimate(&b));
                assert!(a.moves.len() as u32 >= a.lower_bound);
                assert!(a.moves.len() <= last, "{side}x{side}: width {max_width}");
                assert_eq!(a.widest, max_width, "{:?}", a.log);
                last = a.moves.len();
            }
        }
    }

    /// Two threads and a time budget: the answer still replays, and the budget is kept.
    #[test]
    fn threads_and_budget() {
        let (layout, goal) = random_board(6, 9);
        let b = VecBoard::from_layout(&layout).unwrap();
        let h = LinearConflict::new(&goal);
        let first = Constructive::solve_layout(&layout, &goal);
        let limits = Limits {
            timeout: Some(Duration::from_millis(300)),
            ..Limits::default()
        };
        let t = Instant::now();
        let a = anytime(&b, &goal, &h, &first, &AnytimeOptions::default(), &limits).unwrap();
        assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
        verify(&layout, &a.moves, goal.layout()).unwrap();
        assert!(a.moves.len() < first.len());
        // Cancellation is an error naming it.
        let cancel = std::sync::Arc::new(AtomicBool::new(true));
        let limits = Limits {
            cancel: Some(cancel),
            ..Limits::default()
        };
        let e = anytime(&b, &goal, &h, &first, &AnytimeOptions::default(), &limits).unwrap_err();
        assert!(matches!(
            e,
            SearchError::LimitReached {
                limit: Limit::Cancelled,
                ..
            }
        ));
    }

    /// The engine form: unsolvable boards by parity, answers replayed, never proven optimal.
    #[test]
    fn the_solver_answers_like_the_others() {
        let (layout, goal) = random_board(5, 5);
        let b = VecBoard::from_layout(&layout).unwrap();
        let h = LinearConflict::new(&goal);
        let Outcome::Solved(s) = AnytimeBeam::new(2)
            .solve(&b, &goal, &h, &Limits::default())
            .unwrap()
        else {
            panic!("solvable")
        };
        verify(&layout, &s.moves, goal.layout()).unwrap();
        assert_eq!(s.guarantee, Guarantee::Unproven);
        assert_eq!(s.stats.initial_h, h.estimate(&b));
        assert_eq!(s.stats.expanded, AnytimeBeam::UNTIMED_MAX_WIDTH as u64);
    }
}
