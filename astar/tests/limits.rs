//! A* limits, errors, engine reuse, reopening, and property tests.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use npuzzle_astar::{AStar, DEFAULT_MEMORY_LIMIT};
use npuzzle_core::{
    BitBoard, Board, Goal, Heuristic, Layout, Limit, Limits, LinearConflict, Manhattan, Move,
    Outcome, SearchError, Shape, Solver, parse_board, verify,
};
use npuzzle_testsuite::{BfsOracle, seed15};
use proptest::prelude::*;

/// Seed15's 64-move instance: far beyond a 1 MiB or 10,000-node budget.
const HARD: &str = "cbfed67a13248095";

fn board(text: &str) -> (Layout, BitBoard, Goal) {
    let layout = parse_board(text, None).unwrap();
    let b = BitBoard::from_layout(&layout).unwrap();
    let goal = Goal::blank_last(layout.shape());
    (layout, b, goal)
}

fn stopped(r: Result<Outcome, SearchError>) -> (Limit, npuzzle_core::Progress) {
    match r {
        Err(SearchError::LimitReached { limit, progress }) => (limit, progress),
        other => panic!("expected a limit, got {other:?}"),
    }
}

#[test]
fn default_memory_limit_is_4_gib() {
    assert_eq!(DEFAULT_MEMORY_LIMIT, 4 * 1024 * 1024 * 1024);
}

#[test]
fn unsolvable_board_is_proven_without_search() {
    let (_, b, goal) = board("2 1 3 4 5 6 7 8 0");
    let mut e = AStar::new();
    let mut calls = 0;
    let out = e
        .solve_observed(
            &b,
            &goal,
            &Manhattan::new(&goal),
            &Limits::default(),
            |_| {
                calls += 1;
            },
        )
        .unwrap();
    let Outcome::Unsolvable(p) = out else {
        panic!("{out:?}")
    };
    assert!(!p.solvable);
    assert_eq!(calls, 0, "no search, no progress");
    assert_eq!(e.last_report().stored_states, 0);
}

#[test]
fn memory_limit_stops_cleanly_and_reports_progress() {
    let (_, b, goal) = board(HARD);
    let h = LinearConflict::new(&goal);
    let limits = Limits {
        memory_bytes: Some(1 << 20),
        ..Limits::default()
    };
    let mut e = AStar::new();
    let (limit, progress) = stopped(e.solve(&b, &goal, &h, &limits));
    assert_eq!(limit, Limit::Memory(1 << 20));
    assert!(progress.stored_states > 1000, "{progress:?}");
    assert!(progress.bound >= Heuristic::<BitBoard>::estimate(&h, &b));
    assert!(progress.bound <= 64);
    assert!(progress.expanded > 0 && progress.generated >= progress.expanded);
    let r = *e.last_report();
    assert_eq!(r.stored_states, progress.stored_states);
    assert!(r.peak_bytes <= 1 << 20, "{r:?}");
    assert!(r.total_bytes() <= r.peak_bytes);
    // The same engine then solves an easy board.
    let (layout, easy, goal) = board("51309af4d7b826ec");
    let Outcome::Solved(s) = e.solve(&easy, &goal, &h, &limits).unwrap() else {
        panic!("solvable")
    };
    assert_eq!(s.moves.len(), 25);
    verify(&layout, &s.moves, goal.layout()).unwrap();
}

#[test]
fn tiny_memory_limit_stores_nothing() {
    let (_, b, goal) = board(HARD);
    let limits = Limits {
        memory_bytes: Some(1000),
        ..Limits::default()
    };
    let (limit, progress) = stopped(AStar::new().solve(&b, &goal, &Manhattan::new(&goal), &limits));
    assert_eq!(limit, Limit::Memory(1000));
    assert_eq!(progress.stored_states, 0);
}

#[test]
fn node_time_and_cancel_limits() {
    let (_, b, goal) = board(HARD);
    let h = Manhattan::new(&goal);
    let mut e = AStar::new();
    let nodes = Limits {
        max_nodes: Some(10_000),
        ..Limits::default()
    };
    let (limit, progress) = stopped(e.solve(&b, &goal, &h, &nodes));
    assert_eq!(limit, Limit::Nodes(10_000));
    assert!(progress.generated >= 10_000 && progress.stored_states > 0);
    // Limits are checked every 2^12 expansions (at most 4 generated nodes each): the stop
    // comes within 2^14 generated nodes of the limit (with checks every 2^14 expansions, the
    // first check came after about 32,000 nodes).
    assert!(
        progress.generated < 10_000 + (1 << 14),
        "{}",
        progress.generated
    );
    let time = Limits {
        timeout: Some(Duration::ZERO),
        ..Limits::default()
    };
    assert!(matches!(
        stopped(e.solve(&b, &goal, &h, &time)).0,
        Limit::Time(_)
    ));
    let cancel = Limits {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..Limits::default()
    };
    assert_eq!(stopped(e.solve(&b, &goal, &h, &cancel)).0, Limit::Cancelled);
}

#[test]
fn observer_sees_progress() {
    let inst = seed15().into_iter().find(|i| i.optimal == 44).unwrap();
    let b = BitBoard::from_layout(&inst.board).unwrap();
    let mut seen = Vec::new();
    let out = AStar::new()
        .solve_observed(
            &b,
            &inst.goal,
            &Manhattan::new(&inst.goal),
            &Limits::default(),
            |p| {
                seen.push(p.clone());
            },
        )
        .unwrap();
    let Outcome::Solved(s) = out else { panic!() };
    assert!(
        seen.len() >= 2,
        "called at the start and every 2^16 expansions"
    );
    assert_eq!(seen[0].bound, s.stats.initial_h);
    assert!(
        seen.windows(2)
            .all(|w| w[0].expanded <= w[1].expanded && w[0].bound <= w[1].bound)
    );
    assert!(seen.last().unwrap().bound <= 44);
}

#[test]
fn errors_for_mismatched_goal() {
    let (_, b, _) = board("123456708");
    let goal = Goal::blank_last(Shape::square(4).unwrap());
    let r = AStar::new().solve(&b, &goal, &Manhattan::new(&goal), &Limits::default());
    assert!(matches!(r, Err(SearchError::Goal(_))), "{r:?}");
}

#[test]
fn engine_reuse_across_boards_and_shapes() {
    let mut e = AStar::new();
    for text in [
        "1f3452d8a70b96ec",
        "8 6 7 2 5 4 3 0 1",
        "2348170c56ab9def",
        "1 2 3 4 5 6 7 8 0",
        "12345dc8796eba0f",
    ] {
        let (layout, b, goal) = board(text);
        let h = LinearConflict::new(&goal);
        let Outcome::Solved(first) = e.solve(&b, &goal, &h, &Limits::default()).unwrap() else {
            panic!()
        };
        verify(&layout, &first.moves, goal.layout()).unwrap();
        // A fresh engine agrees exactly, counters included.
        let Outcome::Solved(fresh) = AStar::new()
            .solve(&b, &goal, &h, &Limits::default())
            .unwrap()
        else {
            panic!()
        };
        assert_eq!(first.moves, fresh.moves, "{text}");
        assert_eq!(first.stats.expanded, fresh.stats.expanded);
        assert_eq!(first.stats.stored_states, fresh.stats.stored_states);
    }
    e.release_memory();
    assert_eq!(e.name(), "astar");
}

/// An admissible but inconsistent heuristic: Manhattan distance scaled by 0, ½ or 1 depending
/// on a hash of the state. A* must reopen states to stay optimal.
struct Jumpy(Manhattan);

impl Heuristic<BitBoard> for Jumpy {
    type Memo = ();

    fn name(&self) -> &'static str {
        "jumpy"
    }

    fn properties(&self) -> npuzzle_core::HeuristicProperties {
        npuzzle_core::HeuristicProperties::ADMISSIBLE
    }

    fn estimate(&self, b: &BitBoard) -> u32 {
        let md = self.0.estimate(b);
        let k = b.key().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 62;
        match k {
            0 => 0,
            1 => md / 2,
            _ => md,
        }
    }

    fn update(&self, b: &BitBoard, _: u32, m: Move) -> u32 {
        self.estimate(&b.neighbor(m))
    }
}

#[test]
fn inconsistent_heuristic_reopens_and_stays_optimal() {
    let s3 = Shape::square(3).unwrap();
    let goal = Goal::blank_last(s3);
    let oracle = BfsOracle::new(&goal);
    let h = Jumpy(Manhattan::new(&goal));
    let mut e = AStar::new();
    let mut reopened = 0;
    for (layout, d) in oracle.sample(211) {
        let b = BitBoard::from_layout(&layout).unwrap();
        let Outcome::Solved(s) = e.solve(&b, &goal, &h, &Limits::default()).unwrap() else {
            panic!()
        };
        verify(&layout, &s.moves, goal.layout()).unwrap();
        assert_eq!(s.moves.len() as u32, d, "{layout}");
        reopened += e.last_report().reopened;
    }
    assert!(reopened > 0, "the test heuristic should force reopening");
}

fn oracle_3x3() -> &'static BfsOracle {
    static ORACLE: OnceLock<BfsOracle> = OnceLock::new();
    ORACLE.get_or_init(|| BfsOracle::new(&Goal::blank_last(Shape::square(3).unwrap())))
}

/// The board reached from the goal by a random walk of legal moves.
fn walk(goal: &Goal, steps: &[u8]) -> Layout {
    let mut b = BitBoard::from_layout(goal.layout()).unwrap();
    for &s in steps {
        let legal: Vec<Move> = b.legal().collect();
        b.apply(legal[s as usize % legal.len()]);
    }
    b.to_layout()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random 8-puzzle walks: A* returns a verified solution of exactly the BFS distance.
    #[test]
    fn eight_puzzle_walks_are_solved_optimally(steps in prop::collection::vec(any::<u8>(), 0..60)) {
        let oracle = oracle_3x3();
        let layout = walk(oracle.goal(), &steps);
        let b = BitBoard::from_layout(&layout).unwrap();
        let goal = oracle.goal();
        let Outcome::Solved(s) = AStar::new().solve(&b, goal, &Manhattan::new(goal), &Limits::default()).unwrap() else {
            panic!()
        };
        prop_assert!(verify(&layout, &s.moves, goal.layout()).is_ok());
        prop_assert_eq!(Some(s.moves.len() as u32), oracle.distance(&layout));
    }

    /// Random walks on the 15-puzzle and on 2×7 / 7×2: the solution replays to the goal and is
    /// no longer than the walk.
    #[test]
    fn walks_replay_to_the_goal(
        shape in prop::sample::select(vec![(4usize, 4usize), (2, 7), (7, 2), (3, 5)]),
        blank_first in any::<bool>(),
        steps in prop::collection::vec(any::<u8>(), 0..40),
    ) {
        let shape = Shape::new(shape.0, shape.1).unwrap();
        let goal = if blank_first { Goal::blank_first(shape) } else { Goal::blank_last(shape) };
        let layout = walk(&goal, &steps);
        let b = BitBoard::from_layout(&layout).unwrap();
        let Outcome::Solved(s) = AStar::new().solve(&b, &goal, &LinearConflict::new(&goal), &Limits::default()).unwrap() else {
            panic!()
        };
        prop_assert!(verify(&layout, &s.moves, goal.layout()).is_ok());
        prop_assert!(s.moves.len() <= steps.len());
        prop_assert_eq!(s.moves.len() % 2, steps.len() % 2);
    }
}
