//! Property tests: every incremental cache equals its from-scratch twin after random walks.

use npuzzle_core::{
    BitBoard, Board, Goal, Hamming, Heuristic, Layout, LinearConflict, Manhattan, Metric, Move,
    MtmManhattan, Shape, WalkingDistance, legal_moves,
};
use proptest::prelude::*;

/// Every shape the bitboard holds: W, H >= 2 and W*H <= 16.
fn shapes() -> Vec<Shape> {
    let mut v = Vec::new();
    for w in 2..=8 {
        for h in 2..=8 {
            if w * h <= 16 {
                v.push(Shape::new(w, h).unwrap());
            }
        }
    }
    v
}

fn goals(shape: Shape, perm_seed: u64) -> Vec<Goal> {
    // A custom goal: a pseudo-random walk away from blank-last, so it is a real position.
    let mut l = Layout::blank_last(shape);
    let mut x = perm_seed | 1;
    for _ in 0..50 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        l.apply(Move::from_index((x % 4) as usize));
    }
    vec![
        Goal::blank_last(shape),
        Goal::blank_first(shape),
        Goal::custom(l),
    ]
}

fn check_walk<H: Heuristic<BitBoard>>(h: &H, start: &BitBoard, walk: &[u8]) {
    let mut b = *start;
    let mut hv = h.estimate(&b);
    for &r in walk {
        let legal: Vec<Move> = b.legal().collect();
        let m = legal[r as usize % legal.len()];
        let next = h.update(&b, hv, m);
        let before = b;
        b.apply(m);
        hv = next;
        assert_eq!(hv, h.estimate(&b), "{} after {m} from {before:?}", h.name());
        // Cached blank equals the from-scratch blank; legal moves equal the geometry.
        let layout = b.to_layout();
        assert_eq!(b.blank(), layout.blank());
        let s = b.shape();
        assert_eq!(
            b.legal(),
            legal_moves(layout.blank(), s.width(), s.height())
        );
        // Keys round-trip.
        assert_eq!(b.with_key(&b.key()), b);
        // Apply then inverse restores the board.
        let mut c = b;
        for m2 in b.legal() {
            c.apply(m2);
            c.apply(m2.inverse());
            assert_eq!(c, b);
        }
        // Consistency with unit move costs: h changes by at most 1 per move (true for all three:
        // linear conflict gains 2 only when Manhattan drops by 1, and vice versa).
        assert!(
            hv.abs_diff(h.estimate(&before)) <= 1,
            "{} inconsistent",
            h.name()
        );
    }
}

/// The memo path IDA\* takes (`estimate_memo`, then `update_memo` per move) equals the estimate
/// from scratch after every move, and changes by at most 1 per single-tile move.
fn check_memo_walk<H: Heuristic<BitBoard>>(h: &H, start: &BitBoard, walk: &[u8]) {
    let mut b = *start;
    let (mut hv, mut memo) = h.estimate_memo(&b);
    assert_eq!(hv, h.estimate(&b));
    for &r in walk {
        let legal: Vec<Move> = b.legal().collect();
        let m = legal[r as usize % legal.len()];
        let (next, next_memo) = h.update_memo(&b, hv, &memo, m);
        assert_eq!(next, h.update(&b, hv, m), "{} update", h.name());
        b.apply(m);
        assert!(next.abs_diff(hv) <= 1, "{} inconsistent", h.name());
        (hv, memo) = (next, next_memo);
        assert_eq!(hv, h.estimate(&b), "{} after {m}", h.name());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn memo_equals_scratch(seed in any::<u64>(), walk in prop::collection::vec(any::<u8>(), 0..200)) {
        for shape in shapes() {
            for goal in goals(shape, seed) {
                let start = BitBoard::from_layout(goal.layout()).unwrap();
                check_memo_walk(&MtmManhattan::new(&goal), &start, &walk);
                if WalkingDistance::supports(shape) {
                    for metric in [Metric::Stm, Metric::Mtm] {
                        check_memo_walk(&WalkingDistance::new(&goal, metric).unwrap(), &start, &walk);
                    }
                }
            }
        }
    }

    #[test]
    fn incremental_equals_scratch(seed in any::<u64>(), walk in prop::collection::vec(any::<u8>(), 0..200)) {
        for shape in shapes() {
            for goal in goals(shape, seed) {
                let start = BitBoard::from_layout(goal.layout()).unwrap();
                check_walk(&Manhattan::new(&goal), &start, &walk);
                check_walk(&LinearConflict::new(&goal), &start, &walk);
                check_walk(&Hamming::new(&goal), &start, &walk);
            }
        }
    }

    #[test]
    fn walks_stay_solvable_and_swaps_are_not(seed in any::<u64>(), walk in prop::collection::vec(any::<u8>(), 0..100)) {
        for shape in shapes() {
            for goal in goals(shape, seed) {
                let mut l = goal.layout().clone();
                for &r in &walk {
                    l.apply(Move::from_index(r as usize));
                }
                prop_assert!(goal.parity(&l).unwrap().solvable);
                // Swapping two tiles (not the blank) flips solvability.
                let mut cells: Vec<usize> = l.cells().iter().map(|&t| t as usize).collect();
                let nz: Vec<usize> = (0..cells.len()).filter(|&c| cells[c] != 0).take(2).collect();
                cells.swap(nz[0], nz[1]);
                let swapped = Layout::new(shape, &cells).unwrap();
                prop_assert!(!goal.parity(&swapped).unwrap().solvable);
            }
        }
    }
}
