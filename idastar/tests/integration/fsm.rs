//! FSM duplicate pruning ([`CycleCheck::Fsm`]) against exhaustive oracles: every state stays
//! reachable by a kept path of optimal length, every pruned path has a kept twin no longer than
//! it, and IDA* with the automaton returns the optimal lengths of every test set (sequential,
//! fused kernel, generic loop and parallel engine).

use std::collections::HashMap;

use npuzzle_core::{
    BitBoard, Board, Goal, Layout, LinearConflict, Manhattan, Move, PackedBoard, Shape, legal_moves,
};
use npuzzle_idastar::fsm::DEAD;
use npuzzle_idastar::{CycleCheck, Fsm, IdaStar};
use npuzzle_testsuite::{BfsOracle, eight31, korf100, korf100_nodes, seed15};
use proptest::prelude::*;

/// A board of `shape` with the blank on `blank` and the tiles in order around it.
fn board_with_blank(shape: Shape, blank: usize) -> BitBoard {
    let n = shape.cells();
    let mut cells: Vec<usize> = (1..n).collect();
    cells.insert(blank, 0);
    BitBoard::from_layout(&Layout::new(shape, &cells).unwrap()).unwrap()
}

/// Exact distances from `start` to every reachable state (BFS).
fn distances(start: &BitBoard) -> HashMap<u64, u32> {
    let mut dist = HashMap::new();
    dist.insert(start.key(), 0);
    let mut order = vec![start.key()];
    let mut i = 0;
    while i < order.len() {
        let b = start.with_key(&order[i]);
        let d = dist[&order[i]];
        for m in b.legal() {
            let k = b.neighbor(m).key();
            if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(k) {
                e.insert(d + 1);
                order.push(k);
            }
        }
        i += 1;
    }
    dist
}

/// Breadth-first along the shortest-path graph from `start`, following only the moves the
/// automaton keeps (its state travels with the board): asserts that every state is reached at
/// its exact distance, i.e. that some kept path to it is a shortest one.
fn assert_every_state_kept_at_its_distance(fsm: &Fsm, start: &BitBoard) {
    let dist = distances(start);
    let mut reached: HashMap<u64, u32> = HashMap::new();
    reached.insert(start.key(), 0);
    let mut layer: Vec<(u64, u32)> = vec![(start.key(), fsm.start(start.blank()))];
    let mut d = 0;
    while !layer.is_empty() {
        let mut next: Vec<(u64, u32)> = Vec::new();
        let mut seen_pairs = std::collections::HashSet::new();
        for &(key, state) in &layer {
            let b = start.with_key(&key);
            for m in b.legal() {
                let s2 = fsm.step(state, m);
                if s2 == DEAD {
                    continue;
                }
                let k2 = b.neighbor(m).key();
                if dist[&k2] != d + 1 {
                    continue;
                }
                reached.entry(k2).or_insert(d + 1);
                if seen_pairs.insert((k2, s2)) {
                    next.push((k2, s2));
                }
            }
        }
        layer = next;
        d += 1;
    }
    assert_eq!(
        reached.len(),
        dist.len(),
        "{} from blank {}: states without a kept shortest path",
        start.shape(),
        start.blank()
    );
}

#[test]
fn every_state_has_a_kept_shortest_path_small_boards() {
    for (w, h, depths) in [
        (2, 2, &[2, 4, 8][..]),
        (3, 2, &[2, 6, 12, 16][..]),
        (2, 3, &[6, 12][..]),
        (4, 2, &[4, 10, 16][..]),
        (2, 4, &[10][..]),
    ] {
        let shape = Shape::new(w, h).unwrap();
        for &depth in depths {
            let fsm = Fsm::build(shape, depth).unwrap();
            for blank in 0..shape.cells() {
                assert_every_state_kept_at_its_distance(&fsm, &board_with_blank(shape, blank));
            }
        }
    }
}

#[test]
fn every_state_has_a_kept_shortest_path_eight_puzzle() {
    let shape = Shape::square(3).unwrap();
    for depth in [8, 14] {
        let fsm = Fsm::build(shape, depth).unwrap();
        // A corner, an edge and the centre: every kind of start cell.
        for blank in [0, 1, 4] {
            assert_every_state_kept_at_its_distance(&fsm, &board_with_blank(shape, blank));
        }
    }
}

/// The relative effect of `moves` played with the blank on `blank`: the permutation of a board
/// whose cells hold their own indices.
fn effect(shape: Shape, blank: usize, moves: &[Move]) -> (Vec<usize>, usize) {
    let mut cells: Vec<usize> = (0..shape.cells()).collect();
    let mut b = blank;
    for &m in moves {
        let to = m.blank_target(b, shape.width());
        cells.swap(b, to);
        b = to;
    }
    (cells, b)
}

/// Shortlex order of move strings (shorter first, then by move index).
fn shortlex_less(a: &[Move], b: &[Move]) -> bool {
    (a.len(), a.iter().map(|m| m.index()).collect::<Vec<_>>())
        < (b.len(), b.iter().map(|m| m.index()).collect::<Vec<_>>())
}

/// The depth-first search of [`kept_twin`].
struct TwinSearch<'a> {
    fsm: &'a Fsm,
    shape: Shape,
    origin: usize,
    target: (Vec<usize>, usize),
    s: &'a [Move],
    best: Option<Vec<Move>>,
}

impl TwinSearch<'_> {
    fn dfs(&mut self, cell: usize, state: u32, path: &mut Vec<Move>) {
        if path.as_slice() != self.s
            && shortlex_less(path, self.s)
            && effect(self.shape, self.origin, path) == self.target
            && self.best.as_ref().is_none_or(|b| shortlex_less(path, b))
        {
            self.best = Some(path.clone());
        }
        if path.len() == self.s.len() {
            return;
        }
        for m in legal_moves(cell, self.shape.width(), self.shape.height()) {
            let s2 = self.fsm.step(state, m);
            if s2 == DEAD {
                continue;
            }
            path.push(m);
            self.dfs(m.blank_target(cell, self.shape.width()), s2, path);
            path.pop();
        }
    }
}

/// A string kept by the automaton from `blank`, shortlex-smaller than `s`, with `s`'s effect.
fn kept_twin(fsm: &Fsm, shape: Shape, blank: usize, s: &[Move]) -> Option<Vec<Move>> {
    let mut search = TwinSearch {
        fsm,
        shape,
        origin: blank,
        target: effect(shape, blank, s),
        s,
        best: None,
    };
    search.dfs(blank, fsm.start(blank), &mut Vec::new());
    search.best
}

/// Replaces forbidden strings by their shortlex-smaller kept twins until the automaton keeps the
/// path; asserts that a twin always exists within the automaton's depth and returns the result.
fn reduce(fsm: &Fsm, shape: Shape, blank: usize, mut path: Vec<Move>) -> Vec<Move> {
    'outer: loop {
        let mut state = fsm.start(blank);
        let mut cells = vec![blank];
        for (j, &m) in path.iter().enumerate() {
            let b = *cells.last().unwrap();
            cells.push(m.blank_target(b, shape.width()));
            state = fsm.step(state, m);
            if state != DEAD {
                continue;
            }
            let lo = (j + 1).saturating_sub(fsm.depth() as usize);
            for i in (lo..j).rev() {
                if let Some(twin) = kept_twin(fsm, shape, cells[i], &path[i..=j]) {
                    let mut p = path[..i].to_vec();
                    p.extend(&twin);
                    p.extend(&path[j + 1..]);
                    assert!(shortlex_less(&p, &path));
                    path = p;
                    continue 'outer;
                }
            }
            panic!(
                "{shape}: move {j} of {path:?} from blank {blank} is pruned without a twin within depth {}",
                fsm.depth()
            );
        }
        return path;
    }
}

/// A random legal move string of `len` moves from `blank`, chosen by `choices`.
fn walk(shape: Shape, blank: usize, choices: &[u8]) -> Vec<Move> {
    let mut b = blank;
    let mut moves = Vec::new();
    for &c in choices {
        let legal: Vec<Move> = legal_moves(b, shape.width(), shape.height()).collect();
        let m = legal[c as usize % legal.len()];
        moves.push(m);
        b = m.blank_target(b, shape.width());
    }
    moves
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every path the automaton prunes has a kept twin no longer than it, reaching the same
    /// state from every board (same relative effect).
    #[test]
    fn pruned_paths_have_kept_twins(
        side in 0usize..3,
        blank_seed in 0usize..25,
        choices in proptest::collection::vec(any::<u8>(), 0..36),
    ) {
        let (shape, depth) = [
            (Shape::square(3).unwrap(), 12),
            (Shape::square(4).unwrap(), 10),
            (Shape::square(5).unwrap(), 8),
        ][side];
        let fsm = Fsm::cached(shape, depth).unwrap();
        let blank = blank_seed % shape.cells();
        let path = walk(shape, blank, &choices);
        let kept = reduce(&fsm, shape, blank, path.clone());
        prop_assert!(fsm.keeps(blank, &kept));
        prop_assert!(kept.len() <= path.len());
        prop_assert_eq!(effect(shape, blank, &kept), effect(shape, blank, &path));
        if fsm.keeps(blank, &path) {
            prop_assert_eq!(kept, path);
        }
    }
}

#[test]
fn automaton_sizes_are_stated_and_grow_with_depth() {
    for (w, h) in [(3, 3), (4, 4), (5, 5)] {
        let shape = Shape::new(w, h).unwrap();
        let a = Fsm::build(shape, 6).unwrap();
        let b = Fsm::build(shape, 10).unwrap();
        assert_eq!(a.bytes(), 16 * a.states());
        assert!(a.states() >= shape.cells());
        assert!(b.states() > a.states() && b.patterns() > a.patterns());
    }
    // The 2×2 board's only cycle is the 12-move loop: its 6-move halves from each cell are
    // the only patterns besides the 2-move back-and-forths.
    let fsm = Fsm::build(Shape::square(2).unwrap(), 6).unwrap();
    let two_moves = 4 * 2;
    assert_eq!(fsm.patterns(), two_moves + 4);
}

use crate::solve;

fn fsm_engine() -> IdaStar {
    IdaStar::new().cycle_check(CycleCheck::Fsm)
}

#[test]
fn eight_puzzle_exhaustive_lengths_with_fsm() {
    let s3 = Shape::square(3).unwrap();
    for goal in [Goal::blank_last(s3), Goal::blank_first(s3)] {
        let oracle = BfsOracle::new(&goal);
        let md = Manhattan::new(&goal);
        let lc = LinearConflict::new(&goal);
        let mut e = fsm_engine();
        let mut par = fsm_engine().threads(2).parallel_cutoff(0);
        for (board, d) in oracle.sample(23) {
            assert_eq!(
                solve::<BitBoard, _, _>(&mut e, &board, &goal, &md)
                    .moves
                    .len() as u32,
                d,
                "{board} md"
            );
            assert_eq!(
                solve::<PackedBoard, _, _>(&mut e, &board, &goal, &lc)
                    .moves
                    .len() as u32,
                d,
                "{board} lc"
            );
        }
        for (board, d) in oracle.sample(211) {
            assert_eq!(
                solve::<BitBoard, _, _>(&mut par, &board, &goal, &md)
                    .moves
                    .len() as u32,
                d,
                "{board} parallel"
            );
        }
    }
    for inst in eight31() {
        let s = solve::<BitBoard, _, _>(
            &mut fsm_engine(),
            &inst.board,
            &inst.goal,
            &Manhattan::new(&inst.goal),
        );
        assert_eq!(s.moves.len() as u32, inst.optimal);
    }
}

#[test]
fn small_non_square_boards_with_fsm_match_bfs() {
    for (w, h) in [(3, 2), (2, 3), (4, 2), (2, 4), (5, 2), (2, 5)] {
        let shape = Shape::new(w, h).unwrap();
        for goal in [Goal::blank_last(shape), Goal::blank_first(shape)] {
            let oracle = BfsOracle::new(&goal);
            let md = Manhattan::new(&goal);
            let mut e = fsm_engine().fsm_depth(12);
            let step = (oracle.len() / 200).max(1);
            for (board, d) in oracle.sample(step) {
                assert_eq!(
                    solve::<BitBoard, _, _>(&mut e, &board, &goal, &md)
                        .moves
                        .len() as u32,
                    d,
                    "{shape} {board}"
                );
            }
        }
    }
}

/// The fused kernel (bitboard + Manhattan) and the generic loop (packed board) visit the same
/// nodes with the automaton, fewer than with parent pruning, and return the same solution.
#[test]
fn seed15_and_korf100_easy_with_fsm() {
    let nodes = korf100_nodes();
    let mut checked = 0;
    for (inst, &(_, _, _, published)) in korf100().iter().zip(&nodes) {
        if published > 5_000_000 {
            continue;
        }
        let md = Manhattan::new(&inst.goal);
        let plain = solve::<BitBoard, _, _>(&mut IdaStar::new(), &inst.board, &inst.goal, &md);
        let fused = solve::<BitBoard, _, _>(&mut fsm_engine(), &inst.board, &inst.goal, &md);
        let generic = solve::<PackedBoard, _, _>(&mut fsm_engine(), &inst.board, &inst.goal, &md);
        let parallel =
            solve::<BitBoard, _, _>(&mut fsm_engine().threads(2), &inst.board, &inst.goal, &md);
        assert_eq!(fused.moves.len() as u32, inst.optimal, "#{}", inst.id);
        assert_eq!(parallel.moves.len() as u32, inst.optimal, "#{}", inst.id);
        assert_eq!(fused.moves, generic.moves);
        assert_eq!(fused.stats.generated, generic.stats.generated);
        assert_eq!(fused.stats.iterations, generic.stats.iterations);
        assert!(
            fused.stats.generated < plain.stats.generated,
            "#{}",
            inst.id
        );
        checked += 1;
    }
    assert!(checked >= 8, "{checked}");
    for inst in seed15().iter().filter(|i| i.optimal <= 40) {
        let lc = LinearConflict::new(&inst.goal);
        let s = solve::<BitBoard, _, _>(&mut fsm_engine(), &inst.board, &inst.goal, &lc);
        assert_eq!(s.moves.len() as u32, inst.optimal, "seed15 {}", inst.id);
    }
}

/// The heavy tier: Korf's 100 below 100 M Manhattan nodes, with the automaton, every length
/// exact (fused kernel, then the parallel engine).
#[test]
#[ignore = "heavy: run in release mode by .ci/run"]
fn korf100_heavy_tier_with_fsm() {
    let nodes = korf100_nodes();
    for (inst, &(_, _, _, published)) in korf100().iter().zip(&nodes) {
        if published < 100_000_000 {
            let md = Manhattan::new(&inst.goal);
            let s = solve::<BitBoard, _, _>(&mut fsm_engine(), &inst.board, &inst.goal, &md);
            assert_eq!(s.moves.len() as u32, inst.optimal, "#{}", inst.id);
            let s =
                solve::<BitBoard, _, _>(&mut fsm_engine().threads(2), &inst.board, &inst.goal, &md);
            assert_eq!(s.moves.len() as u32, inst.optimal, "#{}", inst.id);
        }
    }
}
