//! IDA\*'s threshold loop, written once for every IDA\* variant of this crate: the plain and
//! parallel engine ([`crate::IdaStar`]), the multi-tile metric ([`crate::MtmIdaStar`]), every
//! optimal solution ([`crate::AllOptimal`]) and the IDA\* phase of [`crate::AStarIdaStar`].
//!
//! The loop (Korf 1985): the first threshold is h(start) (A\*+IDA\*: the smallest f of its
//! frontier); each iteration is a depth-first search bounded by the threshold on f = g + h;
//! the next threshold is the smallest f that exceeded it. Before an iteration the driver checks
//! the depth limit and calls the observer; after it, it records the iteration's nodes, and
//! then either returns the answer with its [`Stats`], reports the limit that stopped the search
//! with the threshold reached, or raises the threshold. What differs between the variants, how
//! one iteration searches, is their [`Iterations`] implementation.

use npuzzle_core::{BoundKind, Iteration, Limit, LimitClock, Move, Progress, SearchError, Stats};

/// What one iteration ended with.
pub(crate) enum IterationEnd<F = Vec<Move>> {
    /// A goal within the threshold: what the variant returns for it (the moves, by default).
    Found(F),
    /// No goal within the threshold; the smallest f above it.
    Exceeded(u32),
    /// A limit was hit.
    Stopped(Limit),
}

/// One IDA\* variant's iterations, as [`drive`] runs them.
pub(crate) trait Iterations {
    /// What a goal found in an iteration gives (moves, or moves and a count).
    type Found;

    /// The nodes counted so far, the seconds since the search started, and `bound` as the
    /// threshold reached.
    fn progress(&self, bound: u32) -> Progress;

    /// Calls the search's observer.
    fn observe(&mut self, progress: &Progress);

    /// An answer at `threshold` that needs no search (A\*+IDA\*'s frontier holds a goal of
    /// f ≤ threshold); checked after the observer call, before the iteration, which is then
    /// neither run nor recorded. `None` by default.
    fn answered(&mut self, _threshold: u32) -> Option<Self::Found> {
        None
    }

    /// One depth-first iteration bounded by `threshold` on f = g + h; `previous` is the last
    /// recorded iteration (the parallel engine runs small iterations on the calling thread).
    fn iterate(
        &mut self,
        threshold: u32,
        previous: Option<&Iteration>,
    ) -> IterationEnd<Self::Found>;

    /// States the search holds and their bytes, for [`Stats::stored_states`],
    /// [`Stats::peak_memory_bytes`] and a limit's [`Progress::stored_states`]: `(0, 0)` by
    /// default (plain IDA\* stores none).
    fn stored(&self) -> (u64, u64) {
        (0, 0)
    }
}

/// Runs `search`'s iterations from threshold `first` until one finds a goal or a limit stops
/// the search; `initial_h` is h(start) for the statistics. With `max_depth`, no iteration runs
/// with a threshold above it: every threshold up to it was searched to the end, so the search
/// stops with [`Limit::Depth`], proven, and the progress's bound (the next threshold) is a lower
/// bound on the optimum.
///
/// Returns what the iteration found with the search's [`Stats`] (one [`Iteration`] per
/// iteration run). Time: the iterations'; memory: O(iterations) beyond them.
///
/// # Errors
/// [`SearchError::LimitReached`] with the limit (nodes, time, cancel, depth) and the progress at
/// the threshold reached.
///
/// # Panics
/// If an iteration ends with no goal and no f above its threshold: a solvable board's tree is
/// infinite, so this never happens once [`npuzzle_core::start_search`] has checked parity.
pub(crate) fn drive<I: Iterations>(
    search: &mut I,
    first: u32,
    initial_h: u32,
    max_depth: Option<u32>,
) -> Result<(I::Found, Stats), SearchError> {
    let mut iterations: Vec<Iteration> = Vec::new();
    let mut threshold = first;
    loop {
        assert!(
            threshold < u32::MAX,
            "a solvable board's search tree always exceeds the threshold"
        );
        if let Some(depth) = max_depth
            && threshold > depth
        {
            return Err(limit_reached(search, Limit::Depth(depth), threshold));
        }
        let before = search.progress(threshold);
        search.observe(&before);
        if let Some(found) = search.answered(threshold) {
            return Ok((found, stats(search, initial_h, iterations)));
        }
        let end = search.iterate(threshold, iterations.last());
        let after = search.progress(threshold);
        iterations.push(Iteration {
            threshold,
            expanded: after.expanded - before.expanded,
            generated: after.generated - before.generated,
        });
        match end {
            IterationEnd::Found(found) => {
                return Ok((found, stats(search, initial_h, iterations)));
            }
            IterationEnd::Stopped(limit) => return Err(limit_reached(search, limit, threshold)),
            IterationEnd::Exceeded(next) => threshold = next,
        }
    }
}

/// The statistics of a search that ended now.
fn stats<I: Iterations>(search: &I, initial_h: u32, iterations: Vec<Iteration>) -> Stats {
    let now = search.progress(0);
    let (stored_states, peak_memory_bytes) = search.stored();
    Stats {
        expanded: now.expanded,
        generated: now.generated,
        seconds: now.seconds,
        initial_h,
        iterations,
        stored_states,
        peak_memory_bytes,
        bidirectional: None,
    }
}

/// The error of a search stopped by `limit` at `threshold`.
fn limit_reached<I: Iterations>(search: &I, limit: Limit, threshold: u32) -> SearchError {
    let mut progress = search.progress(threshold);
    progress.stored_states = search.stored().0;
    SearchError::LimitReached { limit, progress }
}

/// The progress of a depth-first search that stores no state: `expanded` and `generated`
/// nodes so far, the seconds since `clock` started, and `bound` as the threshold reached.
pub(crate) fn progress(clock: &LimitClock, expanded: u64, generated: u64, bound: u32) -> Progress {
    Progress {
        expanded,
        generated,
        seconds: clock.seconds(),
        bound,
        stored_states: 0,
        bound_kind: BoundKind::FBound,
    }
}
