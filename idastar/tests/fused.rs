//! The loop specialised for the bitboard with Manhattan distance against the generic loop: the
//! same moves and the same per-iteration counts, on both goals and non-square boards.

use npuzzle_core::{
    BitBoard, Board, Goal, Heuristic, Layout, Limits, Manhattan, Move, Outcome, Shape, Solution,
    Solver, verify,
};
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

fn solve<H: Heuristic<BitBoard>>(start: &Layout, goal: &Goal, h: &H) -> Solution {
    let b = BitBoard::from_layout(start).unwrap();
    let Outcome::Solved(s) = IdaStar::new()
        .solve(&b, goal, h, &Limits::default())
        .unwrap()
    else {
        panic!("{start} is solvable")
    };
    verify(start, &s.moves, goal.layout()).unwrap();
    s
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
