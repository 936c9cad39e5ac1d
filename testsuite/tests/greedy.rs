//! Greedy best-first search (`npuzzle_astar::Greedy`) against the exhaustive 8-puzzle oracle:
//! never shorter than the optimum, always a valid answer, the same answer on every board type
//! (bitboard, packed board, Vec board); its limits; and long answers on large boards.

use npuzzle_astar::Greedy;
use npuzzle_core::{
    BitBoard, Board, Goal, Guarantee, Hamming, Heuristic, Layout, Limit, Limits, LinearConflict,
    Manhattan, Move, Outcome, PackedBoard, SearchError, Shape, Solver, Zero, parse_board,
};
use npuzzle_nxn::VecBoard;
use npuzzle_testsuite::BfsOracle;

/// Greedy's moves for `start` on board type `B`, replayed to the goal
/// ([`npuzzle_testsuite::solve_replayed`]), with its guarantee and bookkeeping checked.
fn greedy<B: Board, H: Heuristic<B>>(
    e: &mut Greedy<B>,
    start: &Layout,
    goal: &Goal,
    h: &H,
) -> Vec<Move> {
    let s = npuzzle_testsuite::solve_replayed(e, start, goal, h);
    let expected = if s.moves.is_empty() {
        Guarantee::Optimal
    } else {
        Guarantee::Unproven
    };
    assert_eq!(s.guarantee, expected, "{start}");
    assert_eq!(s.stats.stored_states, e.last_report().stored_states);
    assert_eq!(e.last_report().reopened, 0);
    s.moves
}

#[test]
fn never_shorter_than_the_optimum_on_every_8_puzzle_state() {
    let goal = Goal::blank_last(Shape::square(3).unwrap());
    let oracle = BfsOracle::new(&goal);
    let h = Manhattan::new(&goal);
    let mut e = Greedy::<BitBoard>::new();
    let (mut optimal, mut total, mut longest) = (0, 0u64, 0);
    let all = oracle.sample(1);
    assert_eq!(
        all.len(),
        181_440 + 1,
        "every state (and the last one again)"
    );
    for (board, d) in &all {
        let n = greedy(&mut e, board, &goal, &h).len() as u32;
        assert!(n >= *d, "{board}: {n} moves, optimum {d}");
        optimal += usize::from(n == *d);
        total += u64::from(n - d);
        longest = longest.max(n);
    }
    // Greedy is not optimal: it must be longer somewhere, and its answers stay finite.
    assert!(optimal < all.len(), "greedy matched the optimum everywhere");
    assert!(total > 0 && longest > oracle.diameter());
}

#[test]
fn every_heuristic_on_both_goals() {
    let s3 = Shape::square(3).unwrap();
    for goal in [Goal::blank_last(s3), Goal::blank_first(s3)] {
        let oracle = BfsOracle::new(&goal);
        let mut e = Greedy::<BitBoard>::new();
        for (board, d) in oracle.sample(997) {
            for n in [
                greedy(&mut e, &board, &goal, &LinearConflict::new(&goal)).len(),
                greedy(&mut e, &board, &goal, &Hamming::new(&goal)).len(),
                greedy(&mut e, &board, &goal, &Zero).len(),
            ] {
                assert!(n as u32 >= d, "{board}: {n} moves, optimum {d}");
            }
        }
    }
}

#[test]
fn every_board_type_gives_the_same_answer() {
    // The search order depends on h and on insertion order only, never on the key type.
    let goal = Goal::blank_last(Shape::square(3).unwrap());
    let oracle = BfsOracle::new(&goal);
    let h = Manhattan::new(&goal);
    let (mut bit, mut packed, mut vec) = (
        Greedy::<BitBoard>::new(),
        Greedy::<PackedBoard>::new(),
        Greedy::<VecBoard>::new(),
    );
    for (board, d) in oracle.sample(211) {
        let a = greedy(&mut bit, &board, &goal, &h);
        assert!(a.len() as u32 >= d);
        assert_eq!(greedy(&mut packed, &board, &goal, &h), a, "{board}");
        assert_eq!(greedy(&mut vec, &board, &goal, &h), a, "{board}");
    }
}

#[test]
fn larger_boards_on_the_packed_and_vec_boards() {
    // The 24-puzzle (packed board) and a random 8x8 board (Vec board), far beyond optimal A*.
    let b5 = parse_board(
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0",
        None,
    )
    .unwrap();
    let goal5 = Goal::blank_first(b5.shape());
    let h5 = LinearConflict::new(&goal5);
    let moves = greedy(&mut Greedy::<PackedBoard>::new(), &b5, &goal5, &h5);
    assert!(moves.len() >= 24);
    // A 300-move random walk on 8x8 (greedy with Manhattan gets lost on uniformly random
    // boards that large: it fills gigabytes, as any best-first search).
    let goal8 = Goal::blank_last(Shape::square(8).unwrap());
    let mut b8 = goal8.layout().clone();
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..300 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        // An illegal move leaves the board as it is.
        b8.apply(Move::from_index((state % 4) as usize));
    }
    let h8 = Manhattan::new(&goal8);
    let moves = greedy(&mut Greedy::<VecBoard>::new(), &b8, &goal8, &h8);
    let v8 = VecBoard::from_layout(&b8).unwrap();
    assert!(moves.len() as u32 >= Heuristic::<VecBoard>::estimate(&h8, &v8));
}

fn stopped(r: Result<Outcome, SearchError>) -> (Limit, npuzzle_core::Progress) {
    match r {
        Err(SearchError::LimitReached { limit, progress }) => (limit, progress),
        other => panic!("expected a limit, got {other:?}"),
    }
}

#[test]
fn memory_and_node_limits_stop_cleanly_with_progress() {
    // Greedy with h = 0 is a depth-first search over the 12!/2 states of the 4x3 board.
    let layout = parse_board("0 11 10 9 8 7 6 5 4 3 1 2", Some(Shape::new(4, 3).unwrap())).unwrap();
    let goal = Goal::blank_last(layout.shape());
    let b = BitBoard::from_layout(&layout).unwrap();
    let mut e = Greedy::<BitBoard>::new();
    let memory = Limits {
        memory_bytes: Some(1 << 20),
        ..Limits::default()
    };
    let (limit, progress) = stopped(e.solve(&b, &goal, &Zero, &memory));
    assert_eq!(limit, Limit::Memory(1 << 20));
    assert!(progress.stored_states > 1000, "{progress:?}");
    assert!(progress.expanded > 0 && progress.generated >= progress.expanded);
    let r = *e.last_report();
    assert!(r.peak_bytes <= 1 << 20, "{r:?}");
    assert_eq!(r.stored_states, progress.stored_states);
    let nodes = Limits {
        max_nodes: Some(50_000),
        ..Limits::default()
    };
    let (limit, progress) = stopped(e.solve(&b, &goal, &Zero, &nodes));
    assert_eq!(limit, Limit::Nodes(50_000));
    assert!(progress.generated >= 50_000, "{progress:?}");
    // The same engine then solves the board with a real heuristic.
    let moves = greedy(&mut e, &layout, &goal, &Manhattan::new(&goal));
    assert!(!moves.is_empty());
}

#[test]
fn unsolvable_and_goal_boards_need_no_search() {
    let goal = Goal::blank_last(Shape::square(3).unwrap());
    let mut e = Greedy::<BitBoard>::new();
    let h = Manhattan::new(&goal);
    let unsolvable =
        BitBoard::from_layout(&parse_board("2 1 3 4 5 6 7 8 0", None).unwrap()).unwrap();
    assert!(matches!(
        e.solve(&unsolvable, &goal, &h, &Limits::default()).unwrap(),
        Outcome::Unsolvable(_)
    ));
    assert!(greedy(&mut e, goal.layout(), &goal, &h).is_empty());
    assert_eq!(Solver::<BitBoard>::name(&e), "greedy");
    assert_eq!(
        Solver::<BitBoard>::guarantee(&e, npuzzle_core::HeuristicProperties::CONSISTENT),
        Guarantee::Unproven
    );
}
