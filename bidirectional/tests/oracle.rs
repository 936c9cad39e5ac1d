//! The bidirectional engine against exact oracles: exhaustive BFS on the 8-puzzle (both goals,
//! Manhattan distance and the zero heuristic, i.e. bidirectional breadth-first search) and on
//! small non-square boards, the 31-move 8-puzzles, and the seed15 instances' known lengths.

use npuzzle_bidirectional::Bidirectional;
use npuzzle_core::{
    BitBoard, Board, Goal, Hamming, Heuristic, Layout, Limits, LinearConflict, Manhattan, Outcome,
    Shape, Solution, Solver, Zero,
};
use npuzzle_testsuite::{BfsOracle, Instance, eight31, seed15};

/// Solves, replays the moves ([`npuzzle_testsuite::solve_replayed`]), and checks the
/// statistics' bookkeeping.
fn solve<H: Heuristic<BitBoard>>(
    e: &mut Bidirectional<BitBoard>,
    start: &Layout,
    goal: &Goal,
    h: &H,
) -> Solution {
    let s = npuzzle_testsuite::solve_replayed(e, start, goal, h);
    let bi = s.stats.bidirectional.clone().expect("per-direction stats");
    let n = s.moves.len() as u32;
    assert_eq!(bi.meeting_g_forward + bi.meeting_g_backward, n, "{start}");
    assert_eq!(bi.lower_bound, n, "the stopping rule: C = lower bound");
    assert_eq!(bi.forward_expanded + bi.backward_expanded, s.stats.expanded);
    assert_eq!(
        bi.forward_generated + bi.backward_generated,
        s.stats.generated
    );
    assert_eq!(s.stats.stored_states, e.last_report().stored_states);
    assert!(s.stats.peak_memory_bytes >= e.last_report().total_bytes());
    s
}

fn check_instance<H: Heuristic<BitBoard>>(e: &mut Bidirectional<BitBoard>, inst: &Instance, h: &H) {
    let s = solve(e, &inst.board, &inst.goal, h);
    assert_eq!(s.moves.len() as u32, inst.optimal, "instance {}", inst.id);
    assert_eq!(e.last_report().reopened, 0, "consistent heuristic reopened");
}

/// Every `step`-th state of the oracle, solved with `h`, has exactly the BFS distance.
fn against_oracle<H: Heuristic<BitBoard>>(oracle: &BfsOracle, step: usize, h: &H) {
    let mut e = Bidirectional::new();
    let goal = oracle.goal();
    for (board, d) in oracle.sample(step) {
        let s = solve(&mut e, &board, goal, h);
        assert_eq!(s.moves.len() as u32, d, "{board} with {}", h.name());
        assert_eq!(e.last_report().reopened, 0);
    }
}

#[test]
fn eight_puzzle_bfs_oracle_manhattan_both_goals() {
    let s3 = Shape::square(3).unwrap();
    for goal in [Goal::blank_last(s3), Goal::blank_first(s3)] {
        let oracle = BfsOracle::new(&goal);
        against_oracle(&oracle, 23, &Manhattan::new(&goal));
    }
}

/// The zero heuristic: bidirectional breadth-first search, the brute-force baseline.
#[test]
fn eight_puzzle_bfs_oracle_zero_both_goals() {
    let s3 = Shape::square(3).unwrap();
    for goal in [Goal::blank_last(s3), Goal::blank_first(s3)] {
        let oracle = BfsOracle::new(&goal);
        against_oracle(&oracle, 89, &Zero);
    }
}

#[test]
fn eight_puzzle_bfs_oracle_other_heuristics_and_custom_goal() {
    let s3 = Shape::square(3).unwrap();
    let custom = Goal::custom(npuzzle_core::parse_board("4 1 2 0 8 7 6 3 5", None).unwrap());
    for goal in [Goal::blank_last(s3), custom] {
        let oracle = BfsOracle::new(&goal);
        against_oracle(&oracle, 211, &LinearConflict::new(&goal));
        against_oracle(&oracle, 401, &Hamming::new(&goal));
    }
}

#[test]
fn eight_puzzle_hardest_positions() {
    let mut e = Bidirectional::new();
    for inst in eight31() {
        check_instance(&mut e, &inst, &Manhattan::new(&inst.goal));
        check_instance(&mut e, &inst, &LinearConflict::new(&inst.goal));
        check_instance(&mut e, &inst, &Zero);
    }
}

#[test]
fn non_square_boards_bfs_oracle() {
    for (w, h, step) in [(2, 3, 1), (3, 2, 1), (2, 4, 7), (4, 2, 7), (2, 5, 20_011)] {
        let shape = Shape::new(w, h).unwrap();
        for goal in [Goal::blank_last(shape), Goal::blank_first(shape)] {
            let oracle = BfsOracle::new(&goal);
            against_oracle(&oracle, step, &Manhattan::new(&goal));
            against_oracle(&oracle, step * 3, &Zero);
        }
    }
}

#[test]
fn seed15_easier_instances() {
    let mut e = Bidirectional::new();
    for inst in seed15().iter().filter(|i| i.optimal <= 44) {
        check_instance(&mut e, inst, &LinearConflict::new(&inst.goal));
        check_instance(&mut e, inst, &Manhattan::new(&inst.goal));
    }
}

#[test]
fn goal_board_needs_no_moves() {
    let goal = Goal::blank_first(Shape::square(3).unwrap());
    let mut e = Bidirectional::new();
    let s = solve(&mut e, goal.layout(), &goal, &Manhattan::new(&goal));
    assert!(s.moves.is_empty());
    // Answered before any search (npuzzle_core::start_search): nothing stored, all-zero stats.
    assert_eq!((s.stats.expanded, s.stats.stored_states), (0, 0));
    assert_eq!(s.stats.peak_memory_bytes, 0);
    assert_eq!(
        s.stats.bidirectional,
        Some(npuzzle_core::BidirectionalStats::default())
    );
}

/// The length a textbook bidirectional A\* returns when it stops at the first meeting: each
/// side is best-first on f = g + h (Manhattan distance to the other end), the two sides expand
/// one node each in turn, and the first generated node already reached by the other side ends
/// the search. Not optimal in general (the bidirectional BFS version is optimal on this
/// bipartite graph, so the heuristic is what makes the trap).
fn textbook_first_meeting(start: &Layout, goal: &Goal) -> u32 {
    use std::cmp::Reverse;
    use std::collections::{BinaryHeap, HashMap};
    let roots = [
        BitBoard::from_layout(start).unwrap(),
        BitBoard::from_layout(goal.layout()).unwrap(),
    ];
    if roots[0].key() == roots[1].key() {
        return 0;
    }
    let h = [
        Manhattan::new(goal),
        Manhattan::new(&Goal::custom(start.clone())),
    ];
    let mut seen: [HashMap<u64, u32>; 2] = [HashMap::new(), HashMap::new()];
    let mut open: [BinaryHeap<Reverse<(u32, u32, u64)>>; 2] =
        [BinaryHeap::new(), BinaryHeap::new()];
    for d in 0..2 {
        seen[d].insert(roots[d].key(), 0);
        open[d].push(Reverse((h[d].estimate(&roots[d]), 0, roots[d].key())));
    }
    loop {
        for d in 0..2 {
            let Reverse((_, g, key)) = open[d].pop().expect("a solvable board meets");
            if seen[d][&key] < g {
                continue; // stale
            }
            let b = roots[0].with_key(&key);
            for m in b.legal() {
                let c = b.neighbor(m);
                if let Some(&other) = seen[1 - d].get(&c.key()) {
                    return g + 1 + other;
                }
                if seen[d].get(&c.key()).is_none_or(|&old| old > g + 1) {
                    seen[d].insert(c.key(), g + 1);
                    open[d].push(Reverse((g + 1 + h[d].estimate(&c), g + 1, c.key())));
                }
            }
        }
    }
}

/// The stopping rule: on 8-puzzle boards where a textbook bidirectional A* that stops at
/// the first meeting returns a path longer than the optimum, GBFHS returns the optimum with
/// every heuristic. (GBFHS only expands states with g below its g-limits, whose sum is the
/// proven lower bound, so any meeting it finds is already no longer than that bound: its own
/// first meeting is optimal, which `first_meeting` confirms.)
#[test]
fn boards_where_the_first_meeting_is_not_optimal() {
    let oracle = BfsOracle::new(&Goal::blank_last(Shape::square(3).unwrap()));
    let goal = oracle.goal();
    let md = Manhattan::new(goal);
    let mut e = Bidirectional::new();
    let mut traps = 0;
    for (board, d) in oracle.sample(53) {
        let naive = textbook_first_meeting(&board, goal);
        assert!(naive >= d);
        if naive == d {
            continue;
        }
        traps += 1;
        for s in [
            solve(&mut e, &board, goal, &md),
            solve(&mut e, &board, goal, &Zero),
        ] {
            assert_eq!(s.moves.len() as u32, d, "{board}: textbook {naive}");
            assert_eq!(s.stats.bidirectional.unwrap().first_meeting, d);
        }
    }
    println!("{traps} sampled boards where the first meeting is longer than optimal");
    assert!(traps > 100, "only {traps} boards: the test lost its teeth");
}

/// An admissible but inconsistent heuristic: Manhattan distance on about half of the states
/// (chosen by a hash of the state), 0 on the others.
#[derive(Clone)]
struct Patchy(Manhattan);

impl Heuristic<BitBoard> for Patchy {
    type Memo = ();

    fn name(&self) -> &'static str {
        "patchy-manhattan"
    }

    fn properties(&self) -> npuzzle_core::HeuristicProperties {
        npuzzle_core::HeuristicProperties::ADMISSIBLE
    }

    fn estimate(&self, board: &BitBoard) -> u32 {
        if board.key().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63 == 1 {
            self.0.estimate(board)
        } else {
            0
        }
    }

    fn update(&self, board: &BitBoard, _h: u32, m: npuzzle_core::Move) -> u32 {
        self.estimate(&board.neighbor(m))
    }

    fn for_goal(&self, goal: &Goal) -> Option<Self> {
        Some(Patchy(Manhattan::new(goal)))
    }
}

/// Admissible is enough: with an inconsistent heuristic (states reached again by shorter
/// paths are reopened) every answer is still the BFS distance.
#[test]
fn inconsistent_admissible_heuristic_stays_optimal() {
    let oracle = BfsOracle::new(&Goal::blank_last(Shape::square(3).unwrap()));
    let goal = oracle.goal();
    let h = Patchy(Manhattan::new(goal));
    let mut e = Bidirectional::new();
    for (board, d) in oracle.sample(29) {
        let s = solve(&mut e, &board, goal, &h);
        assert_eq!(s.moves.len() as u32, d, "{board}");
    }
}

/// Agreement with A* (same heuristic) on the five easiest of Korf's 100 (blank-first goal) and
/// their known optimal lengths.
#[test]
fn korf100_easiest_agree_with_astar() {
    let nodes = npuzzle_testsuite::korf100_nodes();
    let mut easiest: Vec<Instance> = npuzzle_testsuite::korf100();
    let count = |i: &Instance| {
        nodes
            .iter()
            .find(|&&(id, _, _, _)| id.to_string() == i.id)
            .map_or(u64::MAX, |&(_, _, _, n)| n)
    };
    easiest.sort_by_key(count);
    let mut e = Bidirectional::new();
    let mut a = npuzzle_astar::AStar::new();
    for inst in &easiest[..5] {
        let h = Manhattan::new(&inst.goal);
        check_instance(&mut e, inst, &h);
        let b = BitBoard::from_layout(&inst.board).unwrap();
        let Outcome::Solved(s) = a.solve(&b, &inst.goal, &h, &Limits::default()).unwrap() else {
            panic!("A* called {} unsolvable", inst.id)
        };
        assert_eq!(s.moves.len() as u32, inst.optimal, "A* on {}", inst.id);
    }
}

/// Unsolvable boards are decided by parity before any search; limits stop the search with an
/// error that names the limit and the progress, never "no solution".
#[test]
fn parity_and_limits() {
    let goal = Goal::blank_last(Shape::square(4).unwrap());
    let unsolvable = npuzzle_core::parse_board("123456789abcdfe0", None).unwrap();
    let b = BitBoard::from_layout(&unsolvable).unwrap();
    let h = Manhattan::new(&goal);
    let mut e = Bidirectional::new();
    match e.solve(&b, &goal, &h, &Limits::default()).unwrap() {
        Outcome::Unsolvable(p) => assert!(!p.solvable),
        Outcome::Solved(_) => panic!("an unsolvable board was solved"),
    }
    let hard = npuzzle_core::parse_board("cbfed67a13248095", None).unwrap();
    let b = BitBoard::from_layout(&hard).unwrap();
    let limits = Limits {
        memory_bytes: Some(1 << 20),
        ..Limits::default()
    };
    match e.solve(&b, &goal, &h, &limits) {
        Err(npuzzle_core::SearchError::LimitReached { limit, progress }) => {
            assert!(matches!(limit, npuzzle_core::Limit::Memory(_)), "{limit}");
            assert!(progress.stored_states > 0);
        }
        other => panic!("expected the memory limit, got {other:?}"),
    }
    let limits = Limits {
        max_nodes: Some(10_000),
        ..Limits::default()
    };
    match e.solve(&b, &goal, &h, &limits) {
        Err(npuzzle_core::SearchError::LimitReached { limit, progress }) => {
            assert!(
                matches!(limit, npuzzle_core::Limit::Nodes(10_000)),
                "{limit}"
            );
            assert!(progress.generated >= 10_000, "{}", progress.generated);
            // Checked every 2^12 expansions: within 2^14 generated nodes of the limit.
            assert!(
                progress.generated < 10_000 + (1 << 14),
                "{}",
                progress.generated
            );
        }
        other => panic!("expected the node limit, got {other:?}"),
    }
}
