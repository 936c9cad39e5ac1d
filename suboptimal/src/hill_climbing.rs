//! Hill climbing with a visited record and random escapes: the teaching notes' local search.

use std::collections::HashMap;

use npuzzle_core::{
    Board, BoundKind, Goal, Guarantee, Heuristic, HeuristicProperties, Limit, LimitClock, Limits,
    Move, Outcome, Progress, SearchError, SearchStart, Solution, Solver, Stats, start_search,
};

/// Steps between two checks of the time, node and cancel limits.
const CHECK_INTERVAL: u64 = 1 << 10;

/// Hill climbing (steepest-ascent local search; Russell & Norvig, *Artificial Intelligence: A
/// Modern Approach*, §4.1) as the teaching notes this project grew from present it, beside
/// greedy best-first search and A\*:
///
/// 1. From the current board, look at every neighbour (one legal move away) that is **not in
///    the visited record**, and move to the one of least h (ties: Korf's move order, `D R L U`)
///    — if its h is no worse than the current board's.
/// 2. When every neighbour is worse (a local minimum of h) or already seen (a dead end), make
///    a **random move** instead (uniform over the legal moves, from a seeded generator:
///    [`HillClimbing::seed`]), the notes' "random strategy" for escaping.
/// 3. Record every board reached; stop at the goal.
///
/// It keeps no open list, so it is not complete in bounded memory and proves nothing about
/// the length of its answers ([`Guarantee::Unproven`], whatever the heuristic). Two caps
/// keep it finite: at most [`HillClimbing::max_steps`] steps (moves made; default
/// [`HillClimbing::DEFAULT_MAX_STEPS`]; reported as [`Limit::Steps`]) and a visited record of
/// at most [`Limits::memory_bytes`] bytes (default [`HillClimbing::DEFAULT_MEMORY`]; reported
/// as [`Limit::Memory`]), plus the usual node (neighbours evaluated), time and cancel limits.
/// A limit error says how far it got: steps taken (`expanded`), neighbours evaluated
/// (`generated`), boards recorded (`stored_states`), and the start board's h as the bound.
///
/// The walk may cross itself (random moves, revisits); the answer is the walk with its loops
/// cut out (the path from the start to the goal that the walk's last visit of each board
/// leaves), so it never holds the same board twice; [`Stats::expanded`] is the walk's length.
///
/// Same seed, same board, same heuristic: the same answer on every run.
///
/// ```
/// use npuzzle_suboptimal::HillClimbing;
/// use npuzzle_core::{BitBoard, Board, Goal, Guarantee, Limits, Manhattan, Outcome, Solver, parse_board, verify};
///
/// let start = parse_board("1 2 3 4 0 6 7 5 8", None)?;
/// let goal = Goal::blank_last(start.shape());
/// let mut hc = HillClimbing::new().seed(7);
/// let outcome = hc.solve(&BitBoard::from_layout(&start)?, &goal, &Manhattan::new(&goal), &Limits::default())?;
/// let Outcome::Solved(s) = outcome else { panic!("solvable") };
/// verify(&start, &s.moves, goal.layout())?;
/// assert_eq!(s.moves.len(), 2);  // straight downhill
/// assert_eq!(s.guarantee, Guarantee::Unproven);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct HillClimbing {
    seed: u64,
    max_steps: u64,
}

impl Default for HillClimbing {
    fn default() -> HillClimbing {
        HillClimbing {
            seed: HillClimbing::DEFAULT_SEED,
            max_steps: HillClimbing::DEFAULT_MAX_STEPS,
        }
    }
}

impl HillClimbing {
    /// The default cap on steps: 1,000,000 moves.
    pub const DEFAULT_MAX_STEPS: u64 = 1_000_000;
    /// The default cap on the visited record when [`Limits::memory_bytes`] is not set: 1 GiB.
    pub const DEFAULT_MEMORY: u64 = 1 << 30;
    /// The default seed of the random moves.
    pub const DEFAULT_SEED: u64 = 0;

    /// An engine with the default seed and caps.
    pub fn new() -> HillClimbing {
        HillClimbing::default()
    }

    /// The seed of the random moves (`SplitMix64`; Steele, Lea & Flood 2014).
    #[must_use]
    pub fn seed(mut self, seed: u64) -> HillClimbing {
        self.seed = seed;
        self
    }

    /// The cap on steps (moves made, random ones included), at least 1.
    #[must_use]
    pub fn max_steps(mut self, steps: u64) -> HillClimbing {
        self.max_steps = steps.max(1);
        self
    }

    /// The configured seed.
    pub fn seed_value(&self) -> u64 {
        self.seed
    }

    /// The configured cap on steps.
    pub fn max_steps_value(&self) -> u64 {
        self.max_steps
    }

    /// Bytes a board recorded is charged, for boards like `board`: its map slot (the key, the
    /// index value and the control byte at the hash map's worst load, 7/8, rounded up) three
    /// times (at a growth's high point the old table and the new one, twice as large, are both
    /// held), its place on the loop-erased path (a key and a move, twice for the vectors'
    /// doubling), and the heap bytes of its key twice (the record's copy and the path's,
    /// [`Board::key_heap_bytes`]: 32,288 bytes a key on 127×127). 63 bytes for a bitboard;
    /// 64,814 on 127×127.
    pub fn bytes_per_state<B: Board>(board: &B) -> u64 {
        let key = size_of::<B::Key>() as u64;
        let slot = ((key + size_of::<u32>() as u64 + 1) * 8).div_ceil(7);
        3 * slot + 2 * (key + 1) + 2 * board.key_heap_bytes()
    }
}

/// `SplitMix64` (Steele, Lea & Flood, OOPSLA 2014): a tiny, seedable, well-mixed generator.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl<B: Board> Solver<B> for HillClimbing {
    fn name(&self) -> &'static str {
        "hill-climbing"
    }

    /// Always [`Guarantee::Unproven`]: a local search proves nothing about the length.
    fn guarantee(&self, heuristic: HeuristicProperties) -> Guarantee {
        let _ = heuristic;
        Guarantee::Unproven
    }

    /// Runs hill climbing (see [`HillClimbing`]). Time: O(steps) neighbour evaluations (four
    /// heuristic updates and map probes a step); memory: the visited record, one entry per
    /// distinct board reached.
    ///
    /// # Errors
    /// [`SearchError::LimitReached`] with [`Limit::Steps`] after [`HillClimbing::max_steps`]
    /// steps, [`Limit::Memory`] when the visited record would exceed the memory limit, or the
    /// node, time and cancel limits; [`SearchError::Goal`] / [`SearchError::Board`] when the
    /// goal does not fit.
    #[expect(
        clippy::too_many_lines,
        reason = "one loop: the climb, its visited record, loop erasure and every limit's check"
    )]
    fn solve_observed<H: Heuristic<B>, O: FnMut(&Progress)>(
        &mut self,
        start: &B,
        goal: &Goal,
        heuristic: &H,
        limits: &Limits,
        mut observer: O,
    ) -> Result<Outcome, SearchError> {
        let goal_board = match start_search(start, goal)? {
            SearchStart::Answered(outcome) => return Ok(outcome),
            SearchStart::Search { goal_board, .. } => goal_board,
        };
        let goal_key = goal_board.key();
        let clock = LimitClock::new(limits);
        let per_state = HillClimbing::bytes_per_state(start);
        let memory = limits.memory_bytes.unwrap_or(HillClimbing::DEFAULT_MEMORY);
        let max_states = (memory / per_state).max(1);
        let mut rng = self.seed;
        let mut board = start.clone();
        let h0 = heuristic.estimate(start);
        let mut h = h0;
        // The visited record: each board's index in the loop-erased path when last left.
        let mut visited: HashMap<B::Key, u32> = HashMap::new();
        visited.insert(board.key(), 0);
        // The loop-erased path: moves, and the key of each board on it (for truncation).
        let mut path: Vec<Move> = Vec::new();
        let mut on_path: Vec<B::Key> = vec![board.key()];
        let (mut steps, mut generated) = (0u64, 0u64);
        let progress = |steps, generated, stored: usize, seconds| Progress {
            expanded: steps,
            generated,
            seconds,
            bound: h0,
            stored_states: stored as u64,
            bound_kind: BoundKind::StartEstimate,
        };
        observer(&progress(0, 0, 1, 0.0));
        // The step (counted from 1) at which to check the limits next: every CHECK_INTERVAL
        // steps, and within 4 nodes of the node limit (a step generates at most 4).
        let mut next_check = clock.next_expansion_check(0, 0, CHECK_INTERVAL, 4);
        loop {
            if steps >= self.max_steps {
                return Err(SearchError::LimitReached {
                    limit: Limit::Steps(self.max_steps),
                    progress: progress(steps, generated, visited.len(), clock.seconds()),
                });
            }
            if steps + 1 >= next_check {
                next_check = clock.next_expansion_check(steps + 1, generated, CHECK_INTERVAL, 4);
                let p = progress(steps, generated, visited.len(), clock.seconds());
                observer(&p);
                if let Some(limit) = clock.check(generated) {
                    return Err(SearchError::LimitReached { limit, progress: p });
                }
            }
            // The best unvisited neighbour by h (Korf's order breaks ties).
            let mut best: Option<(u32, Move)> = None;
            for m in board.legal() {
                generated += 1;
                let h2 = heuristic.update(&board, h, m);
                let key = board.neighbor(m).key();
                if visited.contains_key(&key) {
                    continue;
                }
                if best.is_none_or(|(bh, _)| h2 < bh) {
                    best = Some((h2, m));
                }
            }
            let (m, h2) = match best {
                Some((h2, m)) if h2 <= h => (m, h2),
                // Every neighbour is worse or already seen: a random legal move.
                _ => {
                    let legal = board.legal();
                    let k = (splitmix(&mut rng) % legal.len() as u64) as usize;
                    let m = legal.into_iter().nth(k).unwrap_or(Move::Down);
                    (m, heuristic.update(&board, h, m))
                }
            };
            board.apply(m);
            h = h2;
            steps += 1;
            let key = board.key();
            // Cut the loop the walk just closed, if it did.
            if let Some(&i) = visited.get(&key)
                && (i as usize) < on_path.len()
                && on_path[i as usize] == key
            {
                path.truncate(i as usize);
                on_path.truncate(i as usize + 1);
            } else {
                if !visited.contains_key(&key) && visited.len() as u64 >= max_states {
                    return Err(SearchError::LimitReached {
                        limit: Limit::Memory(memory),
                        progress: progress(steps, generated, visited.len(), clock.seconds()),
                    });
                }
                path.push(m);
                on_path.push(key.clone());
                visited.insert(key.clone(), path.len() as u32);
            }
            if h == 0 && key == goal_key {
                observer(&progress(steps, generated, visited.len(), clock.seconds()));
                return Ok(Outcome::Solved(Solution {
                    moves: path,
                    guarantee: Guarantee::Unproven,
                    stats: Stats {
                        expanded: steps,
                        generated,
                        seconds: clock.seconds(),
                        initial_h: h0,
                        iterations: Vec::new(),
                        stored_states: visited.len() as u64,
                        peak_memory_bytes: visited.len() as u64 * per_state,
                        bidirectional: None,
                    },
                }));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{BitBoard, Layout, LinearConflict, Manhattan, parse_board, verify};

    fn run(text: &str, hc: &mut HillClimbing, limits: &Limits) -> Result<Outcome, SearchError> {
        let l = parse_board(text, None).unwrap();
        let goal = Goal::blank_last(l.shape());
        hc.solve(
            &BitBoard::from_layout(&l).unwrap(),
            &goal,
            &Manhattan::new(&goal),
            limits,
        )
    }

    #[test]
    fn solves_replays_and_repeats_with_the_seed() {
        for text in [
            "8 6 7 2 5 4 3 0 1",
            "6 4 7 8 5 0 3 2 1",
            "1 2 3 4 5 6 0 7 8",
        ] {
            let l: Layout = parse_board(text, None).unwrap();
            let goal = Goal::blank_last(l.shape());
            for seed in 0..5 {
                let mut hc = HillClimbing::new().seed(seed);
                let a = run(text, &mut hc, &Limits::default()).unwrap();
                let b = run(text, &mut hc, &Limits::default()).unwrap();
                assert_eq!(a, b.clone().with_seconds_of(&a), "same seed, same answer");
                let Outcome::Solved(s) = a else { panic!() };
                verify(&l, &s.moves, goal.layout()).unwrap();
                assert_eq!(s.guarantee, Guarantee::Unproven);
                assert!(s.stats.expanded >= s.moves.len() as u64);
                // Loop-erased: no board twice on the answer.
                let mut seen = std::collections::HashSet::new();
                let mut board = l.clone();
                assert!(seen.insert(board.clone()));
                for &m in &s.moves {
                    board.apply(m);
                    assert!(seen.insert(board.clone()), "a board twice on the answer");
                }
            }
        }
    }

    /// What a recorded board is charged (issue 52, case 4: on 127×127 it was 52 bytes, and
    /// hill climbing took 6 GB in 20 s against its default 1 GiB).
    #[test]
    fn a_recorded_board_is_charged_its_heap_bytes() {
        let board = |w, h| {
            npuzzle_nxn::VecBoard::from_layout(&Layout::blank_last(
                npuzzle_core::Shape::new(w, h).unwrap(),
            ))
            .unwrap()
        };
        let bit = BitBoard::from_layout(&parse_board("8 6 7 2 5 4 3 0 1", None).unwrap()).unwrap();
        assert_eq!(HillClimbing::bytes_per_state(&bit), 63);
        assert_eq!(HillClimbing::bytes_per_state(&board(127, 127)), 64_814);
        assert_eq!(
            HillClimbing::bytes_per_state(&board(5, 5)),
            HillClimbing::bytes_per_state(&board(6, 6))
        );
    }

    #[test]
    fn caps_say_how_far_it_got() {
        let mut hc = HillClimbing::new().max_steps(10);
        let Err(SearchError::LimitReached { limit, progress }) =
            run("8 6 7 2 5 4 3 0 1", &mut hc, &Limits::default())
        else {
            panic!("10 steps cannot solve a 31-move board")
        };
        assert_eq!(limit, Limit::Steps(10));
        assert_eq!(progress.expanded, 10);
        assert!(progress.stored_states >= 2 && progress.stored_states <= 11);
        let small = Limits {
            memory_bytes: Some(
                HillClimbing::bytes_per_state(
                    &BitBoard::from_layout(&parse_board("8 6 7 2 5 4 3 0 1", None).unwrap())
                        .unwrap(),
                ) * 5,
            ),
            ..Limits::default()
        };
        let Err(SearchError::LimitReached { limit, progress }) =
            run("8 6 7 2 5 4 3 0 1", &mut HillClimbing::new(), &small)
        else {
            panic!("5 boards cannot solve a 31-move board")
        };
        assert!(matches!(limit, Limit::Memory(_)), "{limit}");
        assert_eq!(progress.stored_states, 5);
    }

    #[test]
    fn linear_conflict_and_a_larger_board() {
        let l = parse_board("2 3 4 8 1 6 7 12 5 10 11 0 9 13 14 15", None).unwrap();
        let goal = Goal::blank_last(l.shape());
        let Outcome::Solved(s) = HillClimbing::new()
            .seed(3)
            .solve(
                &BitBoard::from_layout(&l).unwrap(),
                &goal,
                &LinearConflict::new(&goal),
                &Limits::default(),
            )
            .unwrap()
        else {
            panic!()
        };
        verify(&l, &s.moves, goal.layout()).unwrap();
    }

    trait SameTime {
        fn with_seconds_of(self, other: &Outcome) -> Outcome;
    }
    impl SameTime for Outcome {
        fn with_seconds_of(mut self, other: &Outcome) -> Outcome {
            if let (Outcome::Solved(a), Outcome::Solved(b)) = (&mut self, other) {
                a.stats.seconds = b.stats.seconds;
            }
            self
        }
    }
}
