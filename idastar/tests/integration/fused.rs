//! The loop specialised for the bitboard with Manhattan distance against the generic loop: the
//! same moves and the same per-iteration counts, on both goals and non-square boards.

use npuzzle_core::{BitBoard, Board, Goal, Heuristic, Layout, Manhattan, Move, Shape, Solution};
use npuzzle_idastar::IdaStar;
use npuzzle_testsuite::{BfsOracle, korf100, seed15};

/// Manhattan distance that does not say it is one ([`Heuristic::as_manhattan`] is `None`), so
/// IDA* runs its generic loop.
struct Generic(Manhattan);

impl<B: Board> Heuristic<B> for Generic {
    type Memo = ();

    fn name(&self) -> &'static str {
        "manhattan-generic"
    }

    fn properties(&self) -> npuzzle_core::HeuristicProperties {
        npuzzle_core::HeuristicProperties::CONSISTENT
    }

    fn estimate(&self, board: &B) -> u32 {
        self.0.estimate(board)
    }

    fn update(&self, board: &B, h: u32, m: Move) -> u32 {
        self.0.update(board, h, m)
    }
}

/// [`crate::solve`] on the bitboard with a new IDA\* engine.
fn solve<H: Heuristic<BitBoard>>(start: &Layout, goal: &Goal, h: &H) -> Solution {
    crate::solve::<BitBoard, _, _>(&mut IdaStar::new(), start, goal, h)
}

fn same(start: &Layout, goal: &Goal) {
    let md = Manhattan::new(goal);
    assert!(Heuristic::<BitBoard>::as_manhattan(&md).is_some());
    let fused = solve(start, goal, &md);
    let generic = solve(start, goal, &Generic(md));
    assert_eq!(fused.moves, generic.moves, "{start}");
    assert_eq!(fused.stats.iterations, generic.stats.iterations, "{start}");
    assert_eq!(fused.stats.generated, generic.stats.generated, "{start}");
}

#[test]
fn fused_loop_equals_generic_loop() {
    for inst in seed15().iter().filter(|i| i.optimal <= 44) {
        same(&inst.board, &inst.goal);
    }
    for inst in korf100()
        .iter()
        .filter(|i| ["12", "42", "55", "79", "97"].contains(&i.id.as_str()))
    {
        same(&inst.board, &inst.goal);
    }
    for (w, h) in [(3, 3), (2, 5), (5, 2), (4, 2), (2, 4)] {
        let shape = Shape::new(w, h).unwrap();
        for goal in [Goal::blank_last(shape), Goal::blank_first(shape)] {
            let oracle = BfsOracle::new(&goal);
            let step = (oracle.len() / 200).max(1);
            for (board, d) in oracle.sample(step) {
                same(&board, &goal);
                assert_eq!(
                    solve(&board, &goal, &Manhattan::new(&goal)).moves.len() as u32,
                    d
                );
            }
        }
    }
}

/// A random walk of `k` moves from the goal (never undoing the previous move), from a seeded
/// linear congruential generator: reproducible boards on any shape.
fn walk(goal: &Goal, k: usize, seed: u64) -> Layout {
    let mut board = BitBoard::from_layout(goal.layout()).unwrap();
    let mut state = seed;
    let mut last: Option<Move> = None;
    for _ in 0..k {
        let moves: Vec<Move> = board
            .legal()
            .filter(|m| last.is_none_or(|l| *m != l.inverse()))
            .collect();
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let m = moves[(state >> 33) as usize % moves.len()];
        board.apply(m);
        last = Some(m);
    }
    board.to_layout()
}

/// Every width the kernel is monomorphised for (2 to 8: every bitboard shape), on boards too
/// large for the BFS oracle: the same moves and counts as the generic loop.
#[test]
fn fused_loop_equals_generic_loop_on_every_width() {
    let shapes = [
        (6, 2),
        (2, 6),
        (7, 2),
        (2, 7),
        (8, 2),
        (2, 8),
        (5, 3),
        (3, 5),
        (4, 4),
        (3, 4),
        (4, 3),
    ];
    for (w, h) in shapes {
        let shape = Shape::new(w, h).unwrap();
        for goal in [Goal::blank_last(shape), Goal::blank_first(shape)] {
            for seed in 1..=4 {
                let board = walk(&goal, 40, seed * 7919 + w as u64);
                same(&board, &goal);
            }
        }
    }
}
