//! Parallel IDA* (`IdaStar::threads`) with pattern databases, whose memo travels with every
//! frontier node to the worker threads: exact 8-puzzle distances (BFS oracle) on the bitboard
//! and on the Vec board, and in deterministic mode the sequential engine's moves and
//! non-final iteration counts.

use npuzzle_core::{
    BitBoard, Board, Goal, Heuristic, Layout, Limits, Outcome, Shape, Solution, Solver, verify,
};
use npuzzle_idastar::IdaStar;
use npuzzle_nxn::VecBoard;
use npuzzle_pdb::{PartitionSpec, PatternDb};
use npuzzle_testsuite::BfsOracle;

fn solve<B: Board>(e: &mut IdaStar, start: &Layout, goal: &Goal, pdb: &PatternDb) -> Solution
where
    PatternDb: Heuristic<B>,
{
    let b = B::from_layout(start).unwrap();
    let Outcome::Solved(s) = e.solve(&b, goal, pdb, &Limits::default()).unwrap() else {
        panic!("{start} is solvable")
    };
    verify(start, &s.moves, goal.layout()).unwrap();
    s
}

#[test]
fn eight_puzzle_with_pdb_on_threads_matches_bfs_and_sequential() {
    let s3 = Shape::square(3).unwrap();
    for goal in [Goal::blank_last(s3), Goal::blank_first(s3)] {
        let oracle = BfsOracle::new(&goal);
        let pdb = PatternDb::build(&goal, &PartitionSpec::Default, true, &|_| {}).unwrap();
        let mut seq = IdaStar::new();
        let mut par = IdaStar::new().threads(2).parallel_cutoff(0);
        let mut det = IdaStar::new()
            .threads(3)
            .parallel_cutoff(0)
            .deterministic(true);
        for (board, d) in oracle.sample(29) {
            let s = solve::<BitBoard>(&mut seq, &board, &goal, &pdb);
            assert_eq!(s.moves.len() as u32, d, "{board}");
            let p = solve::<BitBoard>(&mut par, &board, &goal, &pdb);
            assert_eq!(p.moves.len() as u32, d, "{board} threads");
            let q = solve::<BitBoard>(&mut det, &board, &goal, &pdb);
            assert_eq!(q.moves, s.moves, "{board} deterministic");
            let n = s.stats.iterations.len();
            assert_eq!(q.stats.iterations.len(), n);
            // The goal itself is answered before any iteration (n = 0).
            let done = n.saturating_sub(1);
            assert_eq!(q.stats.iterations[..done], s.stats.iterations[..done]);
        }
        for (board, d) in oracle.sample(211) {
            let s = solve::<VecBoard>(&mut seq, &board, &goal, &pdb);
            assert_eq!(s.moves.len() as u32, d, "{board} Vec board");
            let q = solve::<VecBoard>(&mut det, &board, &goal, &pdb);
            assert_eq!(q.moves, s.moves, "{board} Vec board deterministic");
        }
    }
}
