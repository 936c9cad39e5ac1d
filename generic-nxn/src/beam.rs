//! Beam search: breadth-first search that keeps only the `width` best states of each layer.

use std::collections::HashSet;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use npuzzle_core::{Board, Heuristic, Move};

/// Why a beam search ended without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BeamEnd {
    /// Every layer up to the upper bound was searched: this beam holds no answer shorter than
    /// the bound (other widths may).
    Exhausted,
    /// `stop` returned true (the time budget or cancellation).
    Stopped,
}

/// Bytes a beam of `width` states on a board of `cells` cells holds at its peak, besides the
/// path records: two layers of boards (the Vec board: 2 bytes a cell plus about 48 of header
/// and allocation) and the candidate children (3 a state, 16 bytes each) with their 64-bit
/// hashes in two sets. An estimate for choosing widths within a memory budget.
pub fn beam_layer_bytes(width: usize, cells: usize) -> u64 {
    let board = 48 + 2 * cells as u64 + 24;
    let per_state = board * 2 + 16 * 3 + 8 * 2 * 3 * 2;
    width as u64 * per_state
}

/// Bytes of path records a beam of `width` states keeps per layer (4 bytes a kept state).
pub const fn beam_record_bytes(width: usize) -> u64 {
    4 * width as u64
}

/// Nodes counted by [`beam`], added to as it goes (shared by the beams of an anytime search).
#[derive(Debug, Default)]
pub struct BeamCounts {
    /// States expanded (children generated from them).
    pub expanded: AtomicU64,
    /// Children generated (before duplicate detection and the width cut).
    pub generated: AtomicU64,
}

/// Zobrist hashing of a board's tiles: one pseudo-random word per (tile, cell).
struct Zobrist {
    cells: usize,
    words: Vec<u64>,
}

impl Zobrist {
    /// The words for `board`'s shape (`SplitMix64` from a fixed seed). O(N²).
    fn new<B: Board>(board: &B) -> Zobrist {
        let cells = board.shape().cells();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let words = (0..cells * cells)
            .map(|_| {
                x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = x;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            })
            .collect();
        Zobrist { cells, words }
    }

    #[inline]
    fn word(&self, tile: usize, cell: usize) -> u64 {
        self.words[tile * self.cells + cell]
    }

    /// The hash of `board`. O(N).
    fn hash<B: Board>(&self, board: &B) -> u64 {
        (0..self.cells).fold(0, |h, c| h ^ self.word(board.tile(c), c))
    }

    /// The hash after `tile` slides from `from` into the blank at `blank`. O(1).
    #[inline]
    fn moved(&self, h: u64, tile: usize, from: usize, blank: usize) -> u64 {
        h ^ self.word(tile, from)
            ^ self.word(tile, blank)
            ^ self.word(0, blank)
            ^ self.word(0, from)
    }
}

/// A hasher for keys that are already 64-bit hashes.
#[derive(Default, Clone, Copy)]
struct Identity(u64);

impl std::hash::Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

type HashSet64 = HashSet<u64, BuildHasherDefault<Identity>>;

/// A kept state of a beam layer: its board, h, the move that reached it, its Zobrist hash and
/// the heuristic's memo.
type Kept<B, M> = (B, u32, Option<Move>, u64, M);

/// Beam search (Lowerre 1976; Bisiani, "Beam search", Encyclopedia of AI, 1987) from `start`
/// to the state whose key is `goal_key`: layer `d + 1` is made of the children of layer `d`'s
/// states, without duplicates within the layer nor states of layer `d - 1` (the only earlier
/// layer of the same parity that could hold them), and only its `width` children of least h are
/// kept (ties broken by a hash of the key, so that the choice is deterministic). The first
/// layer holding the goal gives the answer: no shorter answer exists **within the beam**, but
/// nothing is proven about the optimum.
///
/// Duplicates are detected by a 64-bit Zobrist hash (Zobrist 1970: the XOR of one random word
/// per (tile, cell), updated in O(1) a move; fixed seed), and a child's key is packed only if it
/// is kept: two states with the same hash (probability about 2^-64 a pair) make the beam drop
/// one of them, which can only make its answer longer, never wrong.
///
/// `upper` is the shared length of the best answer known (the anytime search's incumbent):
/// with an admissible heuristic, a child with g + h at least `upper` is dropped, and the search
/// ends ([`BeamEnd::Exhausted`]) at depth `upper - 1`. `stop` is polled once a layer. Without
/// a bound (`u32::MAX`) a narrow beam may wander without reaching the goal (a width-64 beam on
/// a random 15×15 board did not within 120 s): give it a bound or a `stop`.
///
/// Each state carries the heuristic's memo ([`Heuristic::update_memo`]; zero bytes for Manhattan
/// distance and linear conflict).
///
/// Time: O(depth · width · 3) heuristic updates and hash probes, and one board copy a kept
/// state; memory:
/// [`beam_layer_bytes`] plus [`beam_record_bytes`] a layer.
///
/// # Errors
/// [`BeamEnd`] when there is no answer.
///
/// # Panics
/// If `width` is above 2^30.
pub fn beam<B: Board, H: Heuristic<B>>(
    start: &B,
    goal_key: &B::Key,
    heuristic: &H,
    width: usize,
    upper: &AtomicU32,
    stop: &dyn Fn() -> bool,
    counts: &BeamCounts,
) -> Result<Vec<Move>, BeamEnd> {
    assert!(width <= 1 << 30, "beam width {width} above 2^30");
    let width = width.max(1);
    let admissible = heuristic.properties().admissible;
    if start.key() == *goal_key {
        return Ok(Vec::new());
    }
    let zobrist = Zobrist::new(start);
    let goal_hash = zobrist.hash(&start.with_key(goal_key));
    // Each kept state of the current layer: (board, h, the move that reached it, Zobrist
    // hash, the heuristic's memo). Boards, not keys: a beam unpacks no key and packs one only
    // at the goal. The memo lets a heuristic such as a maximum of two update incrementally.
    let (h0, memo0) = heuristic.estimate_memo(start);
    let mut layer: Vec<Kept<B, H::Memo>> =
        vec![(start.clone(), h0, None, zobrist.hash(start), memo0)];
    let mut previous = HashSet64::default();
    // For each depth d ≥ 1: each kept state's parent index in layer d - 1 (× 4) + its move.
    let mut parents: Vec<Vec<u32>> = Vec::new();
    let mut depth: u32 = 0;
    let path_to = |parents: &[Vec<u32>], pi: usize, m: Move| {
        let mut moves = vec![m];
        let mut i = pi;
        for level in parents.iter().rev() {
            let r = level[i];
            moves.push(Move::from_index((r & 3) as usize));
            i = (r >> 2) as usize;
        }
        moves.reverse();
        moves
    };
    loop {
        if stop() {
            return Err(BeamEnd::Stopped);
        }
        let bound = upper.load(Ordering::Relaxed);
        if depth + 1 >= bound {
            return Err(BeamEnd::Exhausted);
        }
        // (h, Zobrist hash, parent index × 4 + move, memo): keys are packed for kept children
        // only.
        let mut children: Vec<(u32, u64, u32, H::Memo)> = Vec::with_capacity(layer.len() * 3);
        let mut generated = 0u64;
        let mut current =
            HashSet64::with_capacity_and_hasher(layer.len() * 3, BuildHasherDefault::default());
        counts
            .expanded
            .fetch_add(layer.len() as u64, Ordering::Relaxed);
        for (pi, (board, h, came, z, memo)) in layer.iter().enumerate() {
            let blank = board.blank();
            for m in board.legal() {
                if Some(m.inverse()) == *came {
                    continue;
                }
                let (h2, memo2) = heuristic.update_memo(board, *h, memo, m);
                generated += 1;
                if admissible && depth + 1 + h2 >= bound {
                    continue;
                }
                let from = board.tile_cell(m);
                let z2 = zobrist.moved(*z, board.tile(from), from, blank);
                if z2 == goal_hash && board.neighbor(m).key() == *goal_key {
                    counts.generated.fetch_add(generated, Ordering::Relaxed);
                    return Ok(path_to(&parents, pi, m));
                }
                if previous.contains(&z2) || !current.insert(z2) {
                    continue;
                }
                children.push((h2, z2, (pi as u32) << 2 | m.index() as u32, memo2));
            }
        }
        counts.generated.fetch_add(generated, Ordering::Relaxed);
        if children.is_empty() {
            return Err(BeamEnd::Exhausted);
        }
        if children.len() > width {
            children.select_nth_unstable_by_key(width - 1, |c| (c.0, c.1));
            children.truncate(width);
        }
        // Layer d + 2 must not repeat layer d's states.
        previous.clear();
        previous.extend(layer.iter().map(|s| s.3));
        parents.push(children.iter().map(|c| c.2).collect());
        layer = children
            .iter()
            .map(|&(h, z, r, memo)| {
                let m = Move::from_index((r & 3) as usize);
                (layer[(r >> 2) as usize].0.neighbor(m), h, Some(m), z, memo)
            })
            .collect();
        depth += 1;
    }
}
