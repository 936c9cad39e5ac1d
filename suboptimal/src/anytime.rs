//! Anytime search for boards beyond optimal search: beam searches of growing widths on several
//! threads, one chain for every budget (each beam pruning with the incumbent at its place in the
//! chain), with path shortening of every answer.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::time::Instant;

use npuzzle_core::{
    Board, Goal, Guarantee, Heuristic, HeuristicProperties, Limits, LinearConflict, Move, Outcome,
    Progress, SearchError, SearchStart, Solution, Solver, Stats, StopAt, start_search,
};
use npuzzle_nxn::Constructive;

use crate::beam::{BeamCounts, BeamEnd, Ties, beam_layer_bytes, beam_record_bytes, beam_ties};
use crate::learned::{LearnedRanking, RankMemo};
use crate::shorten::shorten;

/// The side of the corner that boards beyond it are reduced to before the beams
/// ([`AnytimeOptions::corner`]): 7, the largest side the beams were measured on
/// (BENCHMARKS.md, "Anytime beam search on 6×6 and 7×7" and "Beyond 7×7").
pub const DEFAULT_CORNER: usize = 7;

/// Moves before the corner that the reduced answer's shortening revisits on boards of more
/// than [`SHORTEN_ALL_MAX_CELLS`] cells (the junction of the constructive prefix and the
/// corner's answer).
const JUNCTION: usize = 256;

/// Boards up to this many cells get their whole reduced answer shortened; above, only the
/// junction and the corner (shortening costs O(moves × cells) a pass, and the constructive
/// prefix of a large board has thousands of moves).
const SHORTEN_ALL_MAX_CELLS: usize = 400;

/// The first beam width of the line placement in a reduction
/// ([`Constructive::reduce_with_beams`]); each next one is 4× wider.
const FIRST_LINE_WIDTH: usize = 64;
/// The widest line beam without a time limit.
const UNTIMED_LINE_WIDTH: usize = 1024;
/// The widest line beam.
const MAX_LINE_WIDTH: usize = 1 << 16;

/// Whether the search was cancelled.
fn cancelled(limits: &Limits) -> bool {
    limits
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(Ordering::Relaxed))
}

/// Boards of at most this many cells (10×10) beyond the corner get both: the reduced answer
/// within [`CORNER_SHARE`] of the budget, then beams over the whole board for the rest, pruned
/// with the reduced answer (measured on 8×8 and 10×10: BENCHMARKS.md, "Beyond 7×7").
const WHOLE_MAX_CELLS: usize = 100;

/// The part of the time budget the corner gets when the whole board is searched after it.
const CORNER_SHARE: f64 = 0.3;

/// A beam of the chain is started when its predicted time (about proportional to width ×
/// layers, from the last beam that ended) is at most this many times the time left: one that
/// might end is worth starting, since the chain's later steps are wider still, and one stopped
/// by the budget costs only the time it ran.
const START_MARGIN: f64 = 1.25;

/// The anytime search's settings.
#[derive(Clone, Debug)]
pub struct AnytimeOptions {
    /// The first beam width; each later beam is twice as wide.
    pub first_width: usize,
    /// The widest beam tried (besides the memory limit).
    pub max_width: usize,
    /// Threads searching at once (at least 1): each runs its own beams below `parallel_width`,
    /// and all of them run each wider width together (on two or more, as a pair of beams, one
    /// on the board and one on the reversed instance, each on half of the threads:
    /// [`anytime`]).
    pub threads: usize,
    /// The narrowest width run on all threads at once; narrower beams run one a thread.
    pub parallel_width: usize,
    /// Memory of all the beams at once, in bytes (each thread gets an equal share, and a
    /// thread stops before a beam that would not fit in it).
    pub memory_bytes: u64,
    /// Moves per window of the path shortening ([`crate::shorten`]); below 2: loops only.
    pub window: usize,
    /// Generated nodes per window of the path shortening.
    pub window_nodes: u64,
    /// Boards wider or taller than this many cells are first reduced to a corner of at most
    /// `corner` × `corner` cells by the constructive solver ([`Constructive::reduce`]); the
    /// beams then search the corner only. 0: never reduce.
    pub corner: usize,
    /// With a heuristic other than linear conflict: every other beam (the same widths) ranks
    /// states by linear conflict instead, a portfolio of the two. Pattern databases maxed with
    /// linear conflict give shorter answers at a given width on 6×6 and 7×7 but narrow beams
    /// ranked by them can wander to the incumbent's length without an answer where linear
    /// conflict's find one (BENCHMARKS.md, "Pattern databases on 6×6 and 7×7").
    pub portfolio: bool,
    /// The widest beam ranked by linear conflict in the portfolio: wider ones use the
    /// heuristic only (a beam's cost doubles with its width, so the narrow linear-conflict
    /// beams are cheap insurance, and a long budget goes to the better-ranked wide beams).
    pub portfolio_max_width: usize,
    /// With linear conflict as the heuristic, on a board whose shape has a shipped learned
    /// ranking ([`LearnedRanking::shipped`]: 6×6 and 7×7), the beams rank by it instead (the
    /// reversed instance's beams by the same weights for their goal), linear conflict still
    /// pruning and bounding; the narrow beams alternate with linear conflict's, as in the
    /// portfolio (a learned ranking's narrow beams more often end without an answer).
    /// Corners of larger boards ([`AnytimeOptions::corner`]) keep linear conflict.
    pub learned: bool,
}

impl Default for AnytimeOptions {
    /// Widths 64, 128, ... up to 2^22; 2 threads, together from width 2,048; 4 GiB; windows of 24 moves with 50,000
    /// nodes each; boards beyond 7×7 reduced to a 7×7 corner ([`DEFAULT_CORNER`]); the
    /// linear-conflict portfolio on, up to width 1,024; the learned ranking on.
    fn default() -> AnytimeOptions {
        AnytimeOptions {
            first_width: 64,
            max_width: 1 << 22,
            threads: 2,
            parallel_width: 2048,
            memory_bytes: 4 << 30,
            window: 24,
            window_nodes: 50_000,
            corner: DEFAULT_CORNER,
            portfolio: true,
            portfolio_max_width: 1024,
            learned: true,
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
    /// States expanded and children generated by all the beams.
    pub expanded: u64,
    /// See `expanded`.
    pub generated: u64,
}

/// Anytime beam search: from the answer `initial` (for instance the constructive solver's),
/// beam searches ([`crate::beam`]) of widths `first_width`, 2·`first_width`, 4·`first_width`,
/// ...: below `options.parallel_width` one a thread on `options.threads` threads at once (each
/// thread takes the next width when its beam ends), wider ones one width at a time on every
/// thread, while the next is predicted to end in the time left (from the last beam's seconds
/// per width × layer; see **Budgets** below). On one thread a
/// wide width is one beam; on two or more it is a **pair** of beams at once, each on half of
/// the threads ([`crate::beam_ties`]): one from `start` to the goal, and one on the
/// **reversed instance**, from the goal to `start` with the heuristic rebuilt for `start` as
/// its goal ([`Heuristic::for_goal`]), its answer reversed and each move inverted (where the
/// heuristic cannot be rebuilt, the second beam breaks ties by cubed distances instead,
/// [`crate::Ties`]). One beam on two threads runs only 1.2–1.3× faster than on one, while two
/// beams run at full speed, and two different beams of a width give a shorter best answer
/// than one beam of that width; the reversed instance's beams are the better partner (7×7,
/// 40 states at width 4,096: the shorter of each pair 1.4 % shorter than with cubed ties;
/// BENCHMARKS.md, "A pair of beams", "The reversed instance as the pair's second beam");
/// each beam prunes the children with g + h at least the incumbent's length (h: the
/// heuristic's admissible [`Heuristic::lower_bound`]), and every answer is shortened
/// ([`shorten`]) before it is compared. With linear conflict on 6×6 and 7×7 the beams rank by
/// the shipped learned ranking ([`LearnedRanking::shipped`], [`AnytimeOptions::learned`]): on
/// the `DeepCubeA` dev sets at a 1 s budget, answers 1.4 % (6×6) and 1.7 % (7×7) shorter than
/// with the former 7×7 model and linear conflict on 6×6 (BENCHMARKS.md, "The learned ranking at
/// linear conflict's speed"; the first 7×7 model: "A learned ranking for the beams"), since
/// the models are fitted across the beam's layer, 0.6 % and 3.0 % shorter again (BENCHMARKS.md,
/// "The learned ranking fitted across the beam's layer"), and since they rank each stage of
/// the solve by weights of its own, 0.9 % shorter again on 7×7, as short on 6×6
/// ("Learned rankings by stage of the solve").
/// Stops at `limits.timeout` (the anytime budget) or on cancellation (`limits.cancel`, checked
/// every beam layer and every shortening window), with the best answer so far either way;
/// `limits.max_nodes` is not used. A wider beam is slower and its answer usually shorter
/// (measured on the `DeepCubeA` 35- and 48-puzzle sets, BENCHMARKS.md); this anytime scheme
/// follows Zhou & Hansen's beam widening ("Beam-stack search", ICAPS 2005, and "Breadth-first
/// heuristic search", 2006), without their completeness machinery: it proves nothing about the
/// optimum.
///
/// Returns the shortest answer found (the earliest in the chain among equals); it is never
/// longer than `initial`.
///
/// **Budgets.** The beams form one chain that does not depend on the budget: the widths and
/// rankings above, in that order, each beam pruning with the incumbent at a fixed place of the
/// chain (phase 1's beams with the incumbent the phase starts with, each pair with the one it
/// starts with), never with a bound that another thread's timing decides. Each beam is
/// deterministic given that bound, so a budget runs a prefix of the chain and its answer is
/// the shortest of the prefix's: a longer budget runs the same prefix and more, and never gives
/// a longer answer; the same budget gives the same answer, run after run, wherever the same
/// beams end (on a machine as fast; a beam stopped by the deadline adds nothing, and the one
/// shortening under way at the deadline stops where it is). A beam is started when it is
/// predicted to end within 1.25 times the time left (`START_MARGIN`). Before, the last beam
/// was sized to the time left, so a longer budget ran other widths, and one 7×7 state got 331
/// moves at 30 s against 327 at 1 s (BENCHMARKS.md, "One chain of beams for every budget").
///
/// Time: the budget (plus up to one beam layer and one shortening window past it); memory: at
/// most `options.memory_bytes` for the beams, besides the caller's.
///
/// # Errors
/// None today (the `Result` keeps room for failures of the searches it runs); a cancelled
/// search returns the best answer so far, its log's last line saying so.
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
    // A budget beyond what the clock can represent is no deadline (never a panic).
    let stop_at = StopAt::new(limits, begun);
    let deadline = stop_at.deadline;
    let stop = || stop_at.reached();
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
        &stop_at,
    );
    // The length of the shortest answer so far (the incumbent), and every answer (shortened)
    // with its place in the chain.
    let upper = AtomicU32::new(initial.len() as u32);
    let answers = Mutex::new(vec![(0usize, initial)]);
    let log = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let widest = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let counts = BeamCounts::default();
    let threads = options.threads.max(1);
    let share = limits
        .memory_bytes
        .map_or(options.memory_bytes, |m| m.min(options.memory_bytes))
        / threads as u64;
    let lc = LinearConflict::new(goal);
    // The learned ranking (and its weights for the reversed instance's goal, `start`), where
    // the heuristic is linear conflict and the shape has a shipped model.
    let learned = (options.learned && heuristic.name() == Heuristic::<B>::name(&lc))
        .then(|| LearnedRanking::shipped(goal))
        .flatten();
    let learned_back = learned
        .as_ref()
        .and_then(|l| Heuristic::<B>::for_goal(l, &Goal::custom(start.to_layout())));
    // The reversed instance, for the second beam of each pair: from the goal to `start`, the
    // heuristic rebuilt with `start` as its goal (`None` where it cannot be: the pair's second
    // beam then breaks ties by cubed distances instead). Its answers are reversed, each move
    // inverted.
    let reversed = heuristic
        .for_goal(&Goal::custom(start.to_layout()))
        .map(|h| {
            (
                B::from_layout(goal.layout()).expect("the goal has the board's shape"),
                h,
            )
        });
    let start_key = start.key();
    // With the portfolio, beams 2j and 2j + 1 (j < pairs) have the same width, the second
    // ranked by linear conflict; the widths past `portfolio_max_width` are the heuristic's.
    let portfolio_pairs = (options.portfolio
        && (heuristic.name() != Heuristic::<B>::name(&lc) || learned.is_some()))
    .then(|| {
        let mut pairs = 0usize;
        while options.first_width.max(1) << pairs <= options.portfolio_max_width && pairs < 30 {
            pairs += 1;
        }
        pairs
    });
    // Seconds of one thread per (width × layer), from the last single-thread beam that ended;
    // and the wall seconds per (width × layer) of the last beam on every thread.
    let rate_one = Mutex::new(None::<f64>);
    let mut rate_all = None::<f64>;
    let parallel_from = options.parallel_width.max(1);
    let left = || deadline.map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64());
    // Whether a beam of `width` is predicted to end within the time left, at `rate` seconds
    // per (width × layer) and at most the incumbent's length in layers (with a margin of
    // [`START_MARGIN`]: a beam that might end is worth starting, as the chain has nothing
    // else to run). Without a deadline or a rate yet, every beam is started.
    let fits = |width: usize, rate: Option<f64>| match (left(), rate) {
        (Some(left), Some(rate)) => {
            let layers = f64::from(upper.load(Ordering::Relaxed).max(1));
            rate * width as f64 * layers <= START_MARGIN * left
        }
        _ => true,
    };
    // Runs one beam of `width` on `on` threads, pruning with `bound` (a copy of the incumbent
    // taken where the chain says, so that the beam does not depend on the thread timing), and
    // logs it at `order` (its place in the chain); returns its wall seconds and layers when it
    // ended (with or without an answer).
    let run = |order: usize,
               width: usize,
               by_lc: bool,
               back: bool,
               on: usize,
               ties: Ties,
               bound: &AtomicU32| {
        let t = Instant::now();
        let found = match (&reversed, by_lc, back) {
            (Some((from, h)), false, true) => match &learned_back {
                Some(l) => beam_ties(from, &start_key, l, width, on, ties, bound, &stop, &counts),
                None => beam_ties(from, &start_key, h, width, on, ties, bound, &stop, &counts),
            }
            .map(|moves| {
                let moves: Vec<Move> = moves.iter().rev().map(|m| m.inverse()).collect();
                debug_assert!(
                    npuzzle_core::verify(&start.to_layout(), &moves, goal.layout()).is_ok(),
                    "a reversed answer leads to the goal"
                );
                moves
            }),
            (_, true, _) => beam_ties(
                start, &goal_key, &lc, width, on, ties, bound, &stop, &counts,
            ),
            _ => match &learned {
                Some(l) => beam_ties(start, &goal_key, l, width, on, ties, bound, &stop, &counts),
                None => beam_ties(
                    start, &goal_key, heuristic, width, on, ties, bound, &stop, &counts,
                ),
            },
        };
        let by = match (by_lc, back, ties) {
            (true, _, _) => " (linear conflict)",
            (false, true, _) if learned_back.is_some() => {
                " (reversed: from the goal; learned ranking)"
            }
            (false, true, _) => " (reversed: from the goal)",
            (false, false, _) if learned.is_some() => " (learned ranking)",
            (false, false, Ties::Cubes) => " (cubed-distance ties)",
            (false, false, Ties::Squares) => "",
        };
        let on_text = if on > 1 {
            format!(" on {on} threads")
        } else {
            String::new()
        };
        let (line, ended) = match found {
            Ok(moves) => {
                let found = moves.len();
                let seconds = t.elapsed().as_secs_f64();
                let short = shorten(
                    start,
                    &moves,
                    options.window,
                    options.window_nodes,
                    &stop_at,
                );
                let short_len = short.len();
                answers.lock().expect("no panics").push((order, short));
                upper.fetch_min(short_len as u32, Ordering::Relaxed);
                widest.fetch_max(width, Ordering::Relaxed);
                (
                    format!(
                        "width {width}{by}{on_text}: {found} moves, {short_len} after shortening ({seconds:.2} s)",
                    ),
                    Some((seconds, found)),
                )
            }
            Err(BeamEnd::Exhausted) => {
                widest.fetch_max(width, Ordering::Relaxed);
                let seconds = t.elapsed().as_secs_f64();
                let bound = bound.load(Ordering::Relaxed);
                (
                    format!(
                        "width {width}{by}{on_text}: nothing shorter than {bound} moves ({seconds:.2} s)"
                    ),
                    Some((seconds, bound.saturating_sub(1) as usize)),
                )
            }
            Err(BeamEnd::Stopped) => (
                format!(
                    "width {width}{by}{on_text}: stopped by the time budget ({:.2} s)",
                    t.elapsed().as_secs_f64()
                ),
                None,
            ),
        };
        log.lock().expect("no panics").push((order, line));
        ended.map(|(seconds, layers)| seconds / (width * layers.max(1)) as f64)
    };
    let bytes_of = |width: usize| {
        let depth = u64::from(upper.load(Ordering::Relaxed));
        // The heuristic's memo rides with each kept state and each candidate child.
        let memo_size = if learned.is_some() {
            std::mem::size_of::<H::Memo>().max(std::mem::size_of::<RankMemo>())
        } else {
            std::mem::size_of::<H::Memo>()
        };
        let memo = 5 * memo_size as u64 * width as u64;
        beam_layer_bytes(width, cells) + memo + depth * beam_record_bytes(width)
    };
    // Phase 1: the beams narrower than `parallel_width`, one a thread at once, the chain's
    // first steps in the order of `next`; each prunes with the incumbent the phase starts
    // with. The first that is predicted not to end in time, or not to fit in memory, ends the
    // chain.
    let phase_one_bound = upper.load(Ordering::Relaxed);
    let worker = || {
        while !halt.load(Ordering::Relaxed) && !stop() {
            let order = next.fetch_add(1, Ordering::Relaxed);
            let (i, by_lc) = match portfolio_pairs {
                Some(pairs) if order < 2 * pairs => (order / 2, order % 2 == 1),
                Some(pairs) => (order - pairs, false),
                None => (order, false),
            };
            let Some(width) = u32::try_from(i)
                .ok()
                .and_then(|i| options.first_width.max(1).checked_shl(i))
                .filter(|&w| w <= options.max_width && w <= 1 << 30 && w < parallel_from)
            else {
                return;
            };
            if !fits(width, *rate_one.lock().expect("no panics")) {
                log.lock().expect("no panics").push((
                    order,
                    format!("width {width}: not run, it would not end within the time budget"),
                ));
                halt.store(true, Ordering::Relaxed);
                return;
            }
            let bytes = bytes_of(width);
            if bytes > share {
                log.lock().expect("no panics").push((
                    order,
                    format!(
                        "width {width}: not run, {bytes} bytes would exceed the memory share of {share}"
                    ),
                ));
                halt.store(true, Ordering::Relaxed);
                return;
            }
            let bound = AtomicU32::new(phase_one_bound);
            if let Some(r) = run(order, width, by_lc, false, 1, Ties::Squares, &bound) {
                *rate_one.lock().expect("no panics") = Some(r);
            }
        }
    };
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(worker);
        }
        worker();
    });
    // Phase 2: the wider widths, doubling, one at a time on every thread (a pair of beams on
    // two threads or more, both pruning with the incumbent the pair starts with), while the
    // next is predicted to end in the time left.
    let mut width = options.first_width.max(1);
    while width < parallel_from {
        width *= 2;
    }
    let memory = limits
        .memory_bytes
        .map_or(options.memory_bytes, |m| m.min(options.memory_bytes));
    // The chain's places of phase 2's beams come after every place phase 1 can take.
    let mut order = 1 << 20;
    while !halt.load(Ordering::Relaxed) && !stop() && width <= options.max_width.min(1 << 30) {
        // Before a beam on every thread has ended, assume no gain from the threads (other
        // processes may hold the cores).
        if !fits(
            width,
            rate_all.or_else(|| *rate_one.lock().expect("no panics")),
        ) {
            log.lock().expect("no panics").push((
                order,
                format!("width {width}: not run, it would not end within the time budget"),
            ));
            break;
        }
        // On two threads or more, two beams of this width at once (one a half of the threads):
        // this instance and the reversed one (or, where the heuristic cannot be rebuilt for the
        // reversed instance, ties by squared and by cubed distances).
        let pair = threads >= 2;
        let bytes = bytes_of(width) * if pair { 2 } else { 1 };
        if bytes > memory {
            log.lock().expect("no panics").push((
                order,
                format!(
                    "width {width}: not run, {bytes} bytes would exceed the memory limit of {memory}"
                ),
            ));
            break;
        }
        let incumbent = upper.load(Ordering::Relaxed);
        let rate = if pair {
            let on = threads / 2;
            // The second beam: the reversed instance, else this one with cubed-distance ties.
            let (back, ties) = if reversed.is_some() {
                (true, Ties::Squares)
            } else {
                (false, Ties::Cubes)
            };
            let (mine, other) = std::thread::scope(|s| {
                let other = s.spawn(|| {
                    let bound = AtomicU32::new(incumbent);
                    run(order + 1, width, false, back, threads - on, ties, &bound)
                });
                let bound = AtomicU32::new(incumbent);
                let mine = run(order, width, false, false, on, Ties::Squares, &bound);
                (mine, other.join().expect("no panics"))
            });
            // The pair's rate is its slower beam's.
            mine.zip(other).map(|(a, b)| a.max(b))
        } else {
            let bound = AtomicU32::new(incumbent);
            run(order, width, false, false, threads, Ties::Squares, &bound)
        };
        if let Some(r) = rate {
            rate_all = Some(r);
        }
        width = width.saturating_mul(2);
        order += 2;
    }
    let mut log = log.into_inner().expect("no panics");
    // The log in the chain's order (phase 1's beams end in the order the threads finish them).
    log.sort_by_key(|(order, _)| *order);
    let mut log: Vec<String> = log.into_iter().map(|(_, line)| line).collect();
    if stop_at.cancelled() {
        log.push(format!(
            "interrupted after {:.2} s: the best answer so far",
            begun.elapsed().as_secs_f64()
        ));
    }
    // The shortest answer, the earliest in the chain among equals: the chain's steps do not
    // depend on the budget, so a longer budget's answers include a shorter one's.
    let moves = answers
        .into_inner()
        .expect("no panics")
        .into_iter()
        .min_by_key(|(order, moves)| (moves.len(), *order))
        .map(|(_, moves)| moves);
    let moves = moves.expect("the initial answer is always among the answers");
    Ok(AnytimeAnswer {
        moves,
        lower_bound,
        widest: widest.into_inner(),
        log,
        expanded: counts.expanded.into_inner(),
        generated: counts.generated.into_inner(),
    })
}

/// [`anytime`] as a [`Solver`]: the constructive solver's answer ([`Constructive`]), then
/// beams of growing widths until the time limit (`Limits::timeout`; without one, up to width
/// [`AnytimeBeam::UNTIMED_MAX_WIDTH`]), shortened. Up to 7×7 a longer budget never answers
/// longer ([`anytime`]'s **Budgets**); on larger boards, first reduced to a corner, the
/// reduction (and so the corner's puzzle) depends on the budget, and it need not hold. Never proven optimal
/// ([`Guarantee::Unproven`]); [`Stats::initial_h`] is the heuristic's lower bound, and
/// [`Stats::expanded`] and [`Stats::generated`] count the beams' nodes.
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
    /// [`SearchError::Goal`] when the goal's shape differs from the board's. Every limit
    /// (the time budget, cancellation) ends the search with the best answer so far: a search
    /// cancelled by Ctrl-C answers within a beam layer or a shortening window.
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
        let mut options = self.options.clone();
        if limits.timeout.is_none() {
            options.max_width = options.max_width.min(Self::UNTIMED_MAX_WIDTH);
        }
        let shape = goal.shape();
        let mut first = None;
        if options.corner > 0 && (shape.width() > options.corner || shape.height() > options.corner)
        {
            // Up to WHOLE_MAX_CELLS cells the whole board's beams finish within seconds and
            // beat the reduction's constructive part: the reduced answer is the first one and
            // the incumbent they prune with. Above, the corner's beams get all the time.
            let whole = shape.cells() <= WHOLE_MAX_CELLS;
            let share = if whole { CORNER_SHARE } else { 1.0 };
            match reduced(start, goal, heuristic, &options, limits, clock, share)? {
                Some(a) if whole => first = Some(a),
                Some(a) => return Ok(answered(a, clock)),
                None => {}
            }
        }
        let initial = match &first {
            Some(a) => a.moves.clone(),
            None => Constructive::solve_layout(&start.to_layout(), goal),
        };
        let mut limits = limits.clone();
        limits.timeout = limits.timeout.map(|t| t.saturating_sub(clock.elapsed()));
        let mut a = anytime(start, goal, heuristic, &initial, &options, &limits)?;
        if let Some(corner) = first {
            // The corner's beams count too.
            a.expanded += corner.expanded;
            a.generated += corner.generated;
        }
        Ok(answered(a, clock))
    }
}

/// The engine's outcome for an anytime answer found since `clock`: never proven optimal.
fn answered(a: AnytimeAnswer, clock: Instant) -> Outcome {
    Outcome::Solved(Solution {
        moves: a.moves,
        guarantee: Guarantee::Unproven,
        stats: Stats {
            expanded: a.expanded,
            generated: a.generated,
            seconds: clock.elapsed().as_secs_f64(),
            initial_h: a.lower_bound,
            ..Stats::default()
        },
    })
}

/// The anytime answer of a board reduced to a corner: [`Constructive::reduce`] and
/// [`Constructive::reduce_with_beams`] with growing line beams within half of `share` of the
/// budget (the shortest reduction kept), then
/// [`anytime`] on the corner (its own puzzle, with the heuristic rebuilt for the corner's goal by
/// [`Heuristic::for_goal`]) within 90 % of `share` of the time budget, then the board's answer
/// (the reduction's moves and the corner's) shortened until `share` of the budget has passed
/// (loops only without a budget): all of it on boards of at most
/// [`SHORTEN_ALL_MAX_CELLS`] cells, else the last [`JUNCTION`] moves of the reduction and the
/// corner's. `None` when the heuristic cannot be rebuilt for the corner (the caller searches the
/// whole board instead). The lower bound is the heuristic's estimate of the whole board.
fn reduced<B: Board, H: Heuristic<B>>(
    start: &B,
    goal: &Goal,
    heuristic: &H,
    options: &AnytimeOptions,
    limits: &Limits,
    begun: Instant,
    share: f64,
) -> Result<Option<AnytimeAnswer>, SearchError> {
    let layout = start.to_layout();
    // The lines: by the rules, then by beams of widths 64, 256, 1,024, … while the next one is
    // expected to end within half of the share (each takes about 4× the one before); untimed,
    // up to 1,024 (no beams above 400 cells). The shortest reduction is kept.
    let whole = StopAt::new(limits, begun);
    let reduce_until = limits
        .timeout
        .and_then(|t| begun.checked_add(t.mul_f64(share / 2.0)));
    let reducing = whole.with_deadline(reduce_until);
    // The rules first (no beam: instant), then the beams.
    let mut reduction = Constructive::reduce(&layout, goal, options.corner, options.corner);
    let mut width = FIRST_LINE_WIDTH;
    // Untimed on a board of more than SHORTEN_ALL_MAX_CELLS cells: the rules only (a line beam
    // costs O(k) a child for k tiles a line, up to 126).
    let mut beams = reduce_until.is_some() || goal.shape().cells() <= SHORTEN_ALL_MAX_CELLS;
    while beams {
        let t = Instant::now();
        let r = Constructive::reduce_with_beams(
            &layout,
            goal,
            options.corner,
            options.corner,
            width,
            &reducing,
        );
        if r.moves.len() < reduction.moves.len() {
            reduction = r;
        }
        let next = width * 4;
        let fits = match reduce_until {
            Some(d) => Instant::now() + t.elapsed() * 5 <= d,
            None => next <= UNTIMED_LINE_WIDTH,
        };
        beams = fits && next <= MAX_LINE_WIDTH && !cancelled(limits);
        width = next;
    }
    let Some(corner_h) = heuristic.for_goal(&reduction.goal) else {
        return Ok(None);
    };
    let corner = B::from_layout(&reduction.start)?;
    let deadline = limits
        .timeout
        .and_then(|t| begun.checked_add(t.mul_f64(share)));
    let mut corner_limits = limits.clone();
    corner_limits.timeout = limits
        .timeout
        .map(|t| t.mul_f64(0.9 * share).saturating_sub(begun.elapsed()));
    let initial = Constructive::solve_layout(&reduction.start, &reduction.goal);
    // The corner keeps linear conflict: the learned ranking was measured on whole boards only.
    let corner_options = AnytimeOptions {
        learned: false,
        ..options.clone()
    };
    let a = anytime(
        &corner,
        &reduction.goal,
        &corner_h,
        &initial,
        &corner_options,
        &corner_limits,
    )?;
    let mut moves = reduction.moves;
    let cells = goal.shape().cells();
    let keep = if cells <= SHORTEN_ALL_MAX_CELLS {
        0
    } else {
        moves.len().saturating_sub(JUNCTION)
    };
    let mut from = start.clone();
    for &m in &moves[..keep] {
        from.apply(m);
    }
    moves.extend_from_slice(&a.moves);
    let window = if deadline.is_some() {
        options.window
    } else {
        0
    };
    let tail = shorten(
        &from,
        &moves[keep..],
        window,
        options.window_nodes,
        &whole.with_deadline(deadline),
    );
    moves.truncate(keep);
    moves.extend(tail);
    Ok(Some(AnytimeAnswer {
        moves,
        lower_bound: if heuristic.properties().admissible {
            heuristic.estimate(start)
        } else {
            0
        },
        widest: a.widest,
        log: a.log,
        expanded: a.expanded,
        generated: a.generated,
    }))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use npuzzle_core::{BitBoard, LinearConflict, Manhattan, Shape, parse_board, verify};
    use npuzzle_nxn::VecBoard;

    use super::*;
    use crate::beam::{BeamCounts, beam};

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
        let moves = beam(
            &b,
            &goal_key,
            &h,
            1 << 20,
            &none,
            &|| false,
            &BeamCounts::default(),
        )
        .unwrap();
        assert_eq!(moves.len(), 31);
        verify(&layout, &moves, goal.layout()).unwrap();
        for width in [1, 2, 8, 100] {
            match beam(
                &b,
                &goal_key,
                &h,
                width,
                &none,
                &|| false,
                &BeamCounts::default(),
            ) {
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
            beam(
                &b,
                &goal_key,
                &h,
                1 << 20,
                &at,
                &|| false,
                &BeamCounts::default()
            ),
            Err(BeamEnd::Exhausted)
        );
        let above = AtomicU32::new(32);
        assert_eq!(
            beam(
                &b,
                &goal_key,
                &h,
                1 << 20,
                &above,
                &|| false,
                &BeamCounts::default()
            )
            .unwrap()
            .len(),
            31
        );
        assert_eq!(
            beam(
                &b,
                &goal_key,
                &h,
                4,
                &none,
                &|| true,
                &BeamCounts::default()
            ),
            Err(BeamEnd::Stopped)
        );
    }

    /// A beam on several threads keeps the same states in every layer as on one (two different
    /// codes: one thread deduplicates only the children that can make the cut, several threads
    /// every child): the same answer length (or the same end), replayed to the goal, at widths
    /// that use 1–4 threads, with both tie-breaks.
    #[test]
    fn threaded_beams_match_the_single_thread_beam() {
        let mut answered = 0;
        for (side, seed) in [(5, 1), (6, 2), (7, 3)] {
            let (layout, goal) = random_board(side, seed);
            let b = VecBoard::from_layout(&layout).unwrap();
            let goal_key = VecBoard::from_layout(goal.layout()).unwrap().key();
            let lc = LinearConflict::new(&goal);
            // Bounded by the constructive answer, so that no beam wanders.
            let bound = Constructive::solve_layout(&layout, &goal).len() as u32 + 1;
            for (width, ties) in [
                (300, Ties::Squares),
                (3000, Ties::Squares),
                (5000, Ties::Cubes),
            ] {
                let run = |threads: usize| {
                    let upper = AtomicU32::new(bound);
                    beam_ties(
                        &b,
                        &goal_key,
                        &lc,
                        width,
                        threads,
                        ties,
                        &upper,
                        &|| false,
                        &BeamCounts::default(),
                    )
                };
                let one = run(1);
                if let Ok(moves) = &one {
                    npuzzle_core::verify(&layout, moves, goal.layout()).unwrap();
                    answered += 1;
                }
                for threads in [2, 3] {
                    let many = run(threads);
                    assert_eq!(
                        many.as_ref().map(Vec::len),
                        one.as_ref().map(Vec::len),
                        "{side}x{side}, width {width}, {threads} threads"
                    );
                    if let Ok(moves) = &many {
                        npuzzle_core::verify(&layout, moves, goal.layout()).unwrap();
                    }
                    assert_eq!(many, run(threads), "deterministic at {threads} threads");
                }
            }
        }
        assert!(answered >= 6, "{answered} of 9 beams reached the goal");
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

    /// On two threads the beams still form one chain that the thread timing does not change:
    /// the same run twice gives the same moves and the same log (times aside), and a larger
    /// maximum width (as a longer budget allows) runs the same beams first and then more, so
    /// its answer is never longer. Before the chain, phase 1's beams pruned with whatever
    /// incumbent the other thread had found, and the budget sized the last beam.
    #[test]
    fn two_threads_run_one_chain_whatever_the_timing() {
        // A log line without its time ("... (0.12 s)").
        let untimed = |log: &[String]| -> Vec<String> {
            log.iter()
                .map(|l| match l.rsplit_once(" (") {
                    Some((head, tail)) if tail.ends_with(" s)") => head.to_owned(),
                    _ => l.clone(),
                })
                .collect()
        };
        for (side, seed) in [(6, 21), (7, 22)] {
            let (layout, goal) = random_board(side, seed);
            let b = VecBoard::from_layout(&layout).unwrap();
            let h = LinearConflict::new(&goal);
            let first = Constructive::solve_layout(&layout, &goal);
            let run = |max_width: usize| {
                let options = AnytimeOptions {
                    max_width,
                    threads: 2,
                    ..AnytimeOptions::default()
                };
                let a = anytime(&b, &goal, &h, &first, &options, &Limits::default()).unwrap();
                verify(&layout, &a.moves, goal.layout()).unwrap();
                a
            };
            let (short, long, again) = (run(1024), run(4096), run(4096));
            assert_eq!(long.moves, again.moves, "{side}x{side}");
            assert_eq!(untimed(&long.log), untimed(&again.log), "{side}x{side}");
            let (short_log, long_log) = (untimed(&short.log), untimed(&long.log));
            assert!(
                long_log.len() > short_log.len() && long_log.starts_with(&short_log),
                "{side}x{side}: {short_log:?} is not a prefix of {long_log:?}"
            );
            assert!(long.moves.len() <= short.moves.len(), "{side}x{side}");
        }
    }

    /// On two threads each width from 2,048 on is a pair: this instance and the reversed one
    /// (from the goal to the board, its answers reversed; in test builds each is replayed to
    /// the goal by a debug assertion). The answers replay, stay between the lower bound and the
    /// first answer, and a reversed beam runs at each width of the pairs.
    #[test]
    fn pairs_search_the_reversed_instance_too() {
        for (side, seed) in [(5, 6), (6, 7), (7, 8)] {
            let (layout, goal) = random_board(side, seed);
            let b = VecBoard::from_layout(&layout).unwrap();
            let h = LinearConflict::new(&goal);
            let first = Constructive::solve_layout(&layout, &goal);
            let run = |threads: usize| {
                let options = AnytimeOptions {
                    max_width: 4096,
                    threads,
                    ..AnytimeOptions::default()
                };
                anytime(&b, &goal, &h, &first, &options, &Limits::default()).unwrap()
            };
            let (one, two) = (run(1), run(2));
            for a in [&one, &two] {
                verify(&layout, &a.moves, goal.layout()).unwrap();
                assert!(a.moves.len() <= first.len());
                assert!(a.moves.len() as u32 >= a.lower_bound);
            }
            let reversed = two.log.iter().filter(|l| l.contains("reversed")).count();
            assert_eq!(reversed, 2, "widths 2,048 and 4,096: {:?}", two.log);
            assert!(!one.log.iter().any(|l| l.contains("reversed")));
        }
    }

    /// On 6×6 and 7×7 with linear conflict the beams rank by the shipped learned ranking
    /// (the narrow ones alternating with linear conflict's, the reversed instance's by the same
    /// weights), its answers replay and stay within the bounds; with the option off, and on
    /// shapes without a model, no beam is learned.
    #[test]
    fn the_learned_ranking_ranks_6x6_and_7x7_beams() {
        for (side, seed) in [(5, 11), (6, 12), (7, 13)] {
            let (layout, goal) = random_board(side, seed);
            let b = VecBoard::from_layout(&layout).unwrap();
            let h = LinearConflict::new(&goal);
            let first = Constructive::solve_layout(&layout, &goal);
            for learned in [true, false] {
                let options = AnytimeOptions {
                    max_width: 4096,
                    threads: 2,
                    learned,
                    ..AnytimeOptions::default()
                };
                let a = anytime(&b, &goal, &h, &first, &options, &Limits::default()).unwrap();
                verify(&layout, &a.moves, goal.layout()).unwrap();
                assert!(a.moves.len() <= first.len());
                assert_eq!(a.lower_bound, h.estimate(&b));
                assert!(a.moves.len() as u32 >= a.lower_bound);
                let by_learned = a.log.iter().filter(|l| l.contains("learned")).count();
                let by_lc = a
                    .log
                    .iter()
                    .filter(|l| l.contains("(linear conflict)"))
                    .count();
                if learned && side >= 6 {
                    // Widths 64..1,024 twice (learned and linear conflict), 2,048 and 4,096 as
                    // pairs (this instance and the reversed one, both learned).
                    assert_eq!((by_learned, by_lc), (9, 5), "{side}x{side}: {:?}", a.log);
                } else {
                    assert_eq!((by_learned, by_lc), (0, 0), "{side}x{side}: {:?}", a.log);
                }
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
        // Cancellation ends the search at once with the best answer so far (issue 52, case
        // 6: it was an error, which dropped the answers found).
        let cancel = std::sync::Arc::new(AtomicBool::new(true));
        let limits = Limits {
            cancel: Some(cancel),
            ..Limits::default()
        };
        let t = Instant::now();
        let a = anytime(&b, &goal, &h, &first, &AnytimeOptions::default(), &limits).unwrap();
        assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
        verify(&layout, &a.moves, goal.layout()).unwrap();
        assert!(a.moves.len() <= first.len());
        assert_eq!(a.widest, 0);
        assert!(
            a.log.last().is_some_and(|l| l.contains("interrupted")),
            "{:?}",
            a.log
        );
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
        assert!(s.stats.generated >= s.stats.expanded && s.stats.expanded > 0);
    }

    /// Boards beyond the corner side are reduced first: on 9×9, 8×10 and a 21×21 board (above
    /// [`SHORTEN_ALL_MAX_CELLS`], so only the junction is shortened), with and without a time
    /// budget, the answer replays to the goal, is at least the whole board's lower bound, and is
    /// shorter than the constructive solver's. A heuristic that cannot be rebuilt for the corner
    /// (here: a wrapper without `for_goal`) falls back to the whole board.
    #[test]
    fn boards_beyond_the_corner_are_reduced_first() {
        struct Fixed(LinearConflict);
        impl Heuristic<VecBoard> for Fixed {
            type Memo = ();
            fn name(&self) -> &'static str {
                "fixed"
            }
            fn estimate(&self, b: &VecBoard) -> u32 {
                self.0.estimate(b)
            }
            fn update(&self, b: &VecBoard, _: u32, m: Move) -> u32 {
                let mut c = b.clone();
                c.apply(m);
                self.0.estimate(&c)
            }
            fn properties(&self) -> HeuristicProperties {
                <LinearConflict as Heuristic<VecBoard>>::properties(&self.0)
            }
        }
        for (shape, timeout) in [
            (Shape::square(9).unwrap(), None),
            (Shape::new(8, 10).unwrap(), Some(Duration::from_millis(400))),
            (Shape::square(21).unwrap(), Some(Duration::from_millis(600))),
        ] {
            let goal = Goal::blank_last(shape);
            let mut b = VecBoard::from_layout(goal.layout()).unwrap();
            let mut x = 0x9e37_79b9_7f4a_7c15_u64;
            for _ in 0..3000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let legal: Vec<Move> = b.legal().into_iter().collect();
                b.apply(legal[(x % legal.len() as u64) as usize]);
            }
            let layout = b.to_layout();
            let h = LinearConflict::new(&goal);
            let limits = Limits {
                timeout,
                ..Limits::default()
            };
            let constructive = Constructive::solve_layout(&layout, &goal).len();
            let Outcome::Solved(s) = AnytimeBeam::new(2).solve(&b, &goal, &h, &limits).unwrap()
            else {
                panic!("solvable")
            };
            verify(&layout, &s.moves, goal.layout()).unwrap();
            assert_eq!(s.stats.initial_h, h.estimate(&b));
            assert!(s.moves.len() as u32 >= s.stats.initial_h);
            assert!(
                s.moves.len() < constructive,
                "{shape}: {} >= {constructive}",
                s.moves.len()
            );
            assert!(s.stats.expanded > 0, "{shape}: the corner's beams ran");
            let Outcome::Solved(whole) = AnytimeBeam::new(1)
                .solve(
                    &b,
                    &goal,
                    &Fixed(h.clone()),
                    &Limits {
                        timeout: Some(Duration::from_millis(200)),
                        ..Limits::default()
                    },
                )
                .unwrap()
            else {
                panic!("solvable")
            };
            verify(&layout, &whole.moves, goal.layout()).unwrap();
        }
    }
}
