//! Duplicate pruning with a finite-state machine over move sequences (Taylor & Korf,
//! "Pruning duplicate nodes in depth-first search", AAAI 1993).
//!
//! A depth-first search of a sliding-tile puzzle re-enters the same state along many paths:
//! parent pruning removes the 2-move cycles, but a path such as a blank loop around a 2×2 block
//! reaches the state that a shorter or equally long path reaches too. This module finds, for one
//! board shape, every **minimal forbidden move string** up to a length `depth` and compiles them
//! into an Aho–Corasick automaton (Aho & Corasick 1975) that IDA* steps along its current path:
//! a child whose move completes a forbidden string is not generated.
//!
//! ## Which strings are forbidden
//! A move string `s` applied with the blank on cell `c` moves the tiles by a permutation of the
//! cells that depends only on `c` and `s`, not on the tiles' labels: two strings from the same
//! cell with the same permutation reach the same state from **every** board with the blank on
//! `c`. Order strings **shortlex** (shorter first, then lexicographically by [`Move::index`]).
//! For each cell `c`, a breadth-first enumeration of the strings from `c` in shortlex order (with
//! a hash set of the permutations reached) keeps the first string that reaches each permutation;
//! a string `p·m` (`p` kept, `|p·m| ≤ depth`) whose permutation was already reached has a
//! shortlex-smaller twin and is *forbidden*. Only the minimal ones are compiled (no proper
//! suffix forbidden; every proper prefix is kept by construction). The 2-move strings `m`,
//! `m⁻¹` are among them, so the automaton subsumes parent pruning.
//!
//! ## Why pruning them keeps every optimal path (and is independent of the goal)
//! Let `P` be the shortlex-smallest path from the root to some state `X`. If `P = x·s·y` with `s`
//! forbidden and `t` its smaller twin (same start cell, same permutation, hence legal at the same
//! place and ending on the same cell), then `x·t·y` is a path to `X` that is shortlex-smaller than
//! `P` (shorter if `|t| < |s|`, else equal up to `x` and smaller at `t`): a contradiction. So the
//! shortlex-smallest path to every state contains no forbidden string and is never pruned; it is
//! a shortest path, and each of its prefixes is the shortlex-smallest path to its own end. IDA*
//! with an admissible heuristic therefore still finds an optimal solution, with the same
//! thresholds. Nothing here depends on the goal or on the tiles: one automaton serves every goal
//! and every heuristic on a shape, which is why it is cached per (shape, depth) only.
//!
//! ## The automaton
//! The alphabet is the 4 moves, but whether a pattern applies depends on the blank's cell, so
//! every state knows the blank's cell: there is one root per cell ("no partial match, blank on
//! `c`", state number `c`) and one state per proper prefix of a pattern (the trie of the
//! patterns, which are tagged by their start cell). The failure function is Aho–Corasick's,
//! with the longest proper suffix that is a trie prefix *of the suffix's own start cell*. The
//! transition table is dense: 4 × `u32` per state, [`DEAD`] when the move completes a forbidden
//! string or is illegal. Stepping costs one table load per generated child.
//!
//! ## Size
//! [`Fsm::states`] and [`Fsm::bytes`] state it. Building it enumerates, per cell, the distinct
//! permutations within `depth` moves (about `2.1^depth`… per cell on the 15- and 24-puzzle):
//! the defaults ([`default_depth`]) build in 0.12 s of CPU on the 15-puzzle (depth 14) and
//! about 0.5 s on the 24-puzzle (depth 14; depth 16: 6 s and 0.2 GB at the peak, depth 18:
//! 40 s and 0.8 GB, depth 20: 280 s and 4.5 GB). Automata are built once per process and
//! cached in memory ([`Fsm::cached`]); the `npuzzle` facade also keeps them on disk, next to the
//! pattern databases, so that later processes load them in milliseconds
//! ([`Fsm::cached_with`]).
//!
//! ## The payload ([`Fsm::to_payload`], [`Fsm::from_payload`])
//! Little-endian: the number of patterns (`u64`), then the transition table, 4 × `u32` per
//! state. The container that holds it (the pattern-database cache, which checksums it and
//! names its shape and depth) is not this crate's; [`Fsm::from_payload`] checks the length and
//! that every transition is [`DEAD`] or a state, so that bytes of another version are rejected
//! (and the automaton rebuilt), never used.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use npuzzle_core::{Move, Shape, legal_moves};
use rustc_hash::{FxHashMap, FxHashSet};

/// The transition of a move that completes a forbidden string (or is illegal).
pub const DEAD: u32 = u32::MAX;

/// No trie child (while building).
const NONE: u32 = u32::MAX;

/// The longest forbidden string that [`Fsm::build`] accepts, in moves (strings are packed two
/// bits a move in a `u64`).
pub const MAX_DEPTH: u32 = 32;

/// The default pattern length on boards of at most 16 cells: chosen by measured time on the
/// 15-puzzle (BENCHMARKS.md, "FSM duplicate pruning"; 53,205 states, 0.85 MB, built in 0.12 s
/// of CPU on the 15-puzzle).
pub const DEFAULT_DEPTH: u32 = 14;

/// The default pattern length on boards of 17 to 25 cells: on the 24-puzzle depth 14 prunes
/// 10 % more nodes than depth 12 (260,322 states, 4.2 MB against 52,605, 0.84 MB) and, with the
/// automaton rows prefetched and the automaton kept on disk ([`Fsm::cached_with`]: 0.5 s
/// to build once, milliseconds to load), took 0.94× the search CPU seconds of depth 12 over
/// Korf's #40 #38 #25 #32 #44; depth 16 (1,229,388 states, 19.7 MB, 6 s to build now)
/// took 0.91×, within the noise of 14, for a build 12× as long (BENCHMARKS.md, "Prefetching and
/// the automaton's depth on the 24-puzzle"). Deeper lost in time: depth 18 (5,793,714 states,
/// 92.7 MB) generated 0.84× the nodes of depth 14 on Korf's ten easiest with two threads but
/// took 1.01× the search time, and depth 20 (438.7 MB) 0.93–0.95× the nodes of depth 18 at
/// 1.0–1.4× its time (BENCHMARKS.md, "Deeper automata, compact tables and child order on the
/// 24-puzzle").
pub const DEFAULT_DEPTH_LARGE: u32 = 14;

/// The default pattern length for a board of `cells` cells: [`DEFAULT_DEPTH`] up to 16 cells,
/// else [`DEFAULT_DEPTH_LARGE`].
pub const fn default_depth(cells: usize) -> u32 {
    if cells <= 16 {
        DEFAULT_DEPTH
    } else {
        DEFAULT_DEPTH_LARGE
    }
}

/// The largest board the automaton is built for: 25 cells (the packed board's limit), so that a
/// relative state fits a `u128` at 5 bits a cell.
pub const MAX_CELLS: usize = 25;

/// A duplicate-pruning automaton for one board shape (see the [module docs](self)).
#[derive(Debug)]
pub struct Fsm {
    shape: Shape,
    depth: u32,
    /// `next[4 * state + move]`: the next state, or [`DEAD`].
    next: Vec<u32>,
    patterns: usize,
}

/// Errors of [`Fsm::build`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FsmError {
    /// The board has more than [`MAX_CELLS`] cells.
    TooManyCells(Shape),
    /// The depth is below 2 or above [`MAX_DEPTH`].
    Depth(u32),
    /// Bytes that are not the payload of an automaton of the expected shape and depth
    /// ([`Fsm::from_payload`]): what is wrong.
    Corrupt(String),
}

impl std::fmt::Display for FsmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FsmError::TooManyCells(s) => write!(
                f,
                "the duplicate-pruning automaton is built for boards of at most {MAX_CELLS} cells, not {s} ({} cells)",
                s.cells()
            ),
            FsmError::Depth(d) => write!(
                f,
                "the duplicate-pruning automaton's depth must be 2 to {MAX_DEPTH} moves, not {d}"
            ),
            FsmError::Corrupt(reason) => {
                write!(f, "not a duplicate-pruning automaton's bytes: {reason}")
            }
        }
    }
}

impl std::error::Error for FsmError {}

/// Applies the blank move `m` (blank on `blank`, board `width` wide) to a relative state packed
/// 5 bits a cell; returns the new state and the blank's new cell.
#[inline]
fn step_relative(key: u128, blank: usize, m: Move, width: usize) -> (u128, usize) {
    let to = m.blank_target(blank, width);
    let label = (key >> (5 * to)) & 31;
    let blank_label = (key >> (5 * blank)) & 31;
    let key = key & !(31u128 << (5 * to)) & !(31u128 << (5 * blank));
    (key | (blank_label << (5 * to)) | (label << (5 * blank)), to)
}

/// The identity relative state: cell `i` holds label `i`.
fn identity(cells: usize) -> u128 {
    (0..cells).fold(0u128, |k, i| k | ((i as u128) << (5 * i)))
}

/// A move string: `len` moves, move `i` in bits `2i..2i+2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Word {
    cell: u8,
    len: u8,
    moves: u64,
}

impl Word {
    fn get(self, i: usize) -> Move {
        Move::from_index((self.moves >> (2 * i)) as usize & 3)
    }
}

/// The minimal forbidden strings of `shape` up to `depth` moves (see the module docs).
fn forbidden(shape: Shape, depth: u32) -> Vec<Word> {
    forbidden_with(shape, depth, false)
}

/// [`forbidden`], enumerating the strings that undo their last move as well when
/// `parent_cycles` is set (a slower reference for the tests). Such a string `p·m·m⁻¹` always
/// reaches `p·m`'s permutation again, so it is a candidate; beyond length 2 its 2-move suffix
/// `m·m⁻¹` is itself forbidden, so it is never minimal. Not enumerating them leaves the
/// minimal strings unchanged and saves storing and hashing them: depth 18 on 5×5 builds in
/// about 40 s with 0.8 GB at the peak, against about 83 s and 3.7 GB.
fn forbidden_with(shape: Shape, depth: u32, parent_cycles: bool) -> Vec<Word> {
    let (w, h, n) = (shape.width(), shape.height(), shape.cells());
    let mut candidates: Vec<Word> = Vec::new();
    let mut seen: FxHashSet<u128> = FxHashSet::default();
    for cell in 0..n {
        seen.clear();
        let root = identity(n);
        seen.insert(root);
        // One BFS level: (relative state, blank, moves), in shortlex order.
        let mut level: Vec<(u128, u8, u64)> = vec![(root, cell as u8, 0)];
        for len in 0..depth {
            let mut next = Vec::with_capacity(level.len() * 2);
            for &(key, blank, moves) in &level {
                // The last move of the string (none at the root).
                let back = (len > 0)
                    .then(|| Move::from_index((moves >> (2 * (len - 1))) as usize & 3).inverse());
                for m in legal_moves(blank as usize, w, h) {
                    if Some(m) == back && !parent_cycles {
                        // `p·m` undoes p's last move: its 2-move suffix is forbidden, so it is
                        // a candidate only at length 2 and never minimal beyond.
                        if len == 1 {
                            candidates.push(Word {
                                cell: cell as u8,
                                len: 2,
                                moves: moves | ((m.index() as u64) << 2),
                            });
                        }
                        continue;
                    }
                    let (k2, b2) = step_relative(key, blank as usize, m, w);
                    let moves2 = moves | ((m.index() as u64) << (2 * len));
                    if seen.insert(k2) {
                        if len + 1 < depth {
                            next.push((k2, b2 as u8, moves2));
                        }
                    } else {
                        candidates.push(Word {
                            cell: cell as u8,
                            len: (len + 1) as u8,
                            moves: moves2,
                        });
                    }
                }
            }
            level = next;
        }
    }
    // Keep the minimal ones: no proper suffix is itself a candidate (every proper prefix is
    // kept, hence so is every substring that is not a suffix).
    let all: FxHashSet<Word> = candidates.iter().copied().collect();
    candidates
        .into_iter()
        .filter(|word| {
            let mut blank = word.cell as usize;
            (1..word.len as usize - 1).all(|i| {
                blank = word.get(i - 1).blank_target(blank, w);
                !all.contains(&Word {
                    cell: blank as u8,
                    len: word.len - i as u8,
                    moves: word.moves >> (2 * i),
                })
            })
        })
        .collect()
}

/// This process's automata by (width, height, depth) ([`Fsm::cached_with`]).
fn memory_cache() -> &'static MemoryCache {
    static CACHE: OnceLock<MemoryCache> = OnceLock::new();
    CACHE.get_or_init(MemoryCache::default)
}

/// The type of [`memory_cache`].
type MemoryCache = Mutex<FxHashMap<(usize, usize, u32), Arc<Fsm>>>;

impl Fsm {
    /// Builds the automaton of `shape` for forbidden strings of at most `depth` moves.
    ///
    /// Time: O(cells × distinct relative states within `depth` moves of a cell × `depth`);
    /// memory: the same states, then 16 bytes per automaton state.
    ///
    /// # Errors
    /// [`FsmError::TooManyCells`] above [`MAX_CELLS`] cells; [`FsmError::Depth`] for a depth
    /// outside `2..=`[`MAX_DEPTH`].
    pub fn build(shape: Shape, depth: u32) -> Result<Fsm, FsmError> {
        Fsm::check(shape, depth)?;
        let (w, h, n) = (shape.width(), shape.height(), shape.cells());
        let patterns = forbidden(shape, depth);
        // The trie: states 0..n are the roots (blank on cell c); `children[4s+m]`, `u32::MAX`
        // for none; `cell[s]` the blank's cell in state s; `terminal[s]` a pattern ends there.
        let mut children: Vec<u32> = vec![NONE; 4 * n];
        let mut cell: Vec<u8> = (0..n as u8).collect();
        let mut terminal: Vec<bool> = vec![false; n];
        for word in &patterns {
            let mut s = word.cell as usize;
            for i in 0..word.len as usize {
                let m = word.get(i);
                let slot = 4 * s + m.index();
                if children[slot] == NONE {
                    let t = cell.len();
                    children[slot] = t as u32;
                    children.extend([NONE; 4]);
                    cell.push(m.blank_target(cell[s] as usize, w) as u8);
                    terminal.push(false);
                }
                s = children[slot] as usize;
            }
            terminal[s] = true;
        }
        // Aho–Corasick: goto over the failure links, in breadth-first order.
        let total = cell.len();
        let mut goto: Vec<u32> = vec![DEAD; 4 * total];
        let mut fail: Vec<u32> = vec![0; total];
        let mut queue: VecDeque<u32> = VecDeque::new();
        for c in 0..n {
            for m in legal_moves(c, w, h) {
                let slot = 4 * c + m.index();
                let child = children[slot];
                if child == NONE {
                    goto[slot] = m.blank_target(c, w) as u32;
                } else {
                    goto[slot] = child;
                    fail[child as usize] = cell[child as usize] as u32;
                    queue.push_back(child);
                }
            }
        }
        while let Some(s) = queue.pop_front() {
            let s = s as usize;
            let f = fail[s] as usize;
            terminal[s] |= terminal[f];
            for m in legal_moves(cell[s] as usize, w, h) {
                let slot = 4 * s + m.index();
                let child = children[slot];
                let via_fail = goto[4 * f + m.index()];
                if child == NONE {
                    goto[slot] = via_fail;
                } else {
                    goto[slot] = child;
                    fail[child as usize] = via_fail;
                    queue.push_back(child);
                }
            }
        }
        // Terminal states are dead; number the others compactly, roots first.
        let mut number: Vec<u32> = vec![DEAD; total];
        let mut live = 0u32;
        for s in 0..total {
            if !terminal[s] {
                number[s] = live;
                live += 1;
            }
        }
        let mut next = vec![DEAD; 4 * live as usize];
        for s in (0..total).filter(|&s| !terminal[s]) {
            for m in legal_moves(cell[s] as usize, w, h) {
                let t = goto[4 * s + m.index()];
                next[4 * number[s] as usize + m.index()] =
                    if t == DEAD { DEAD } else { number[t as usize] };
            }
        }
        Ok(Fsm {
            shape,
            depth,
            next,
            patterns: patterns.len(),
        })
    }

    /// Whether an automaton of `shape` and `depth` can be built.
    ///
    /// # Errors
    /// As [`Fsm::build`].
    fn check(shape: Shape, depth: u32) -> Result<(), FsmError> {
        if shape.cells() > MAX_CELLS {
            return Err(FsmError::TooManyCells(shape));
        }
        if !(2..=MAX_DEPTH).contains(&depth) {
            return Err(FsmError::Depth(depth));
        }
        Ok(())
    }

    /// The automaton of `shape` and `depth`, built on first use and then shared by every caller
    /// in this process (an in-memory cache keyed by shape and depth).
    ///
    /// # Errors
    /// As [`Fsm::build`].
    pub fn cached(shape: Shape, depth: u32) -> Result<Arc<Fsm>, FsmError> {
        Fsm::cached_with(shape, depth, || Fsm::build(shape, depth))
    }

    /// As [`Fsm::cached`], with `make` in place of [`Fsm::build`] when this process has no
    /// automaton of `shape` and `depth` yet: the facade's loads it from a cache directory, or
    /// builds and stores it there. `make` runs outside the memory cache's lock (a race makes
    /// it twice and keeps the first); what it returns must be the automaton of `shape` and
    /// `depth`.
    ///
    /// # Errors
    /// As [`Fsm::build`] (checked before `make` runs); whatever `make` returns.
    ///
    /// # Panics
    /// If `make` returns an automaton of another shape or depth.
    pub fn cached_with(
        shape: Shape,
        depth: u32,
        make: impl FnOnce() -> Result<Fsm, FsmError>,
    ) -> Result<Arc<Fsm>, FsmError> {
        Fsm::check(shape, depth)?;
        let key = (shape.width(), shape.height(), depth);
        let cache = memory_cache();
        if let Some(fsm) = cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
        {
            return Ok(Arc::clone(fsm));
        }
        let fsm = make()?;
        assert_eq!((fsm.shape, fsm.depth), (shape, depth), "another automaton");
        let mut map = cache.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(Arc::clone(map.entry(key).or_insert(Arc::new(fsm))))
    }

    /// The automaton's bytes (see the [module docs](self)): 8 + [`Fsm::bytes`]. O(states).
    pub fn to_payload(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 + self.bytes());
        out.extend_from_slice(&(self.patterns as u64).to_le_bytes());
        for &t in &self.next {
            out.extend_from_slice(&t.to_le_bytes());
        }
        out
    }

    /// The automaton of `shape` and `depth` from its bytes ([`Fsm::to_payload`]), checked:
    /// their length, and every transition [`DEAD`] or a state. O(bytes). That they are this
    /// shape's and depth's automaton is the container's to know (its key names them).
    ///
    /// # Errors
    /// As [`Fsm::build`] for the shape and depth; [`FsmError::Corrupt`] for a length that is
    /// not 8 + 16 per state, fewer states than cells, or a transition to no state.
    pub fn from_payload(bytes: &[u8], shape: Shape, depth: u32) -> Result<Fsm, FsmError> {
        Fsm::check(shape, depth)?;
        let bad = |reason: String| Err(FsmError::Corrupt(reason));
        let Some((patterns, table)) = bytes.split_first_chunk::<8>() else {
            return bad(format!("{} bytes, shorter than 8", bytes.len()));
        };
        if !table.len().is_multiple_of(16) || table.len() / 16 < shape.cells() {
            return bad(format!(
                "{} bytes of transitions, not 16 for each of at least {} states",
                table.len(),
                shape.cells()
            ));
        }
        let states = (table.len() / 16) as u64;
        let next: Vec<u32> = table
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if let Some(t) = next.iter().find(|&&t| t != DEAD && u64::from(t) >= states) {
            return bad(format!("a transition to state {t} of {states}"));
        }
        Ok(Fsm {
            shape,
            depth,
            next,
            patterns: usize::try_from(u64::from_le_bytes(*patterns))
                .map_err(|e| FsmError::Corrupt(e.to_string()))?,
        })
    }

    /// The shape it was built for.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The longest forbidden string, in moves.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The number of minimal forbidden strings compiled.
    pub fn patterns(&self) -> usize {
        self.patterns
    }

    /// The number of (live) states, roots included.
    pub fn states(&self) -> usize {
        self.next.len() / 4
    }

    /// The transition table's size in bytes (16 per state).
    pub fn bytes(&self) -> usize {
        self.next.len() * size_of::<u32>()
    }

    /// The start state for a board with the blank on `blank`.
    ///
    /// # Panics
    /// Debug-asserts that `blank` is a cell of the shape.
    #[inline]
    pub fn start(&self, blank: usize) -> u32 {
        debug_assert!(blank < self.shape.cells());
        blank as u32
    }

    /// The state after the legal move `m` from `state` (not [`DEAD`]), or [`DEAD`] if `m`
    /// completes a forbidden string. O(1): one table load.
    #[inline]
    pub fn step(&self, state: u32, m: Move) -> u32 {
        self.next[4 * state as usize + m.index()]
    }

    /// The raw transition table, `4 × states` entries, for kernels that index it themselves.
    pub fn table(&self) -> &[u32] {
        &self.next
    }

    /// Whether the automaton keeps the whole move string `moves` played with the blank first on
    /// `blank` (the moves must be legal in turn).
    pub fn keeps(&self, blank: usize, moves: &[Move]) -> bool {
        let mut s = self.start(blank);
        for &m in moves {
            s = self.step(s, m);
            if s == DEAD {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Skipping the strings that undo their last move finds the same minimal forbidden strings,
    /// in the same order, as enumerating every string (so the automata are the same).
    #[test]
    fn skipping_parent_cycles_keeps_the_minimal_strings() {
        for (w, h, depth) in [
            (2, 2, 12),
            (3, 3, 12),
            (4, 3, 12),
            (4, 4, 11),
            (5, 5, 9),
            (6, 3, 10),
        ] {
            let shape = Shape::new(w, h).unwrap();
            let fast = forbidden_with(shape, depth, false);
            let reference = forbidden_with(shape, depth, true);
            assert!(!fast.is_empty());
            assert_eq!(fast, reference, "{w}x{h} depth {depth}");
        }
    }

    #[test]
    fn parent_pruning_is_subsumed() {
        let shape = Shape::new(4, 4).unwrap();
        let fsm = Fsm::build(shape, 6).unwrap();
        for c in 0..16 {
            for m in legal_moves(c, 4, 4) {
                let s = fsm.step(fsm.start(c), m);
                assert_ne!(s, DEAD);
                assert_eq!(fsm.step(s, m.inverse()), DEAD);
            }
        }
    }

    #[test]
    fn depth_and_size_errors() {
        let shape = Shape::new(6, 5).unwrap();
        assert_eq!(
            Fsm::build(shape, 4).unwrap_err(),
            FsmError::TooManyCells(shape)
        );
        let shape = Shape::new(3, 3).unwrap();
        assert_eq!(Fsm::build(shape, 1).unwrap_err(), FsmError::Depth(1));
        assert_eq!(Fsm::build(shape, 33).unwrap_err(), FsmError::Depth(33));
    }

    #[test]
    fn cache_shares_one_automaton() {
        let shape = Shape::new(3, 3).unwrap();
        let a = Fsm::cached(shape, 8).unwrap();
        let b = Fsm::cached(shape, 8).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
    }

    #[test]
    fn payload_round_trip_and_rejections() {
        let shape = Shape::new(3, 3).unwrap();
        let fsm = Fsm::build(shape, 10).unwrap();
        let bytes = fsm.to_payload();
        assert_eq!(bytes.len(), 8 + fsm.bytes());
        let back = Fsm::from_payload(&bytes, shape, 10).unwrap();
        assert_eq!(back.next, fsm.next);
        assert_eq!(back.patterns(), fsm.patterns());
        let corrupt =
            |b: &[u8], s: Shape| matches!(Fsm::from_payload(b, s, 10), Err(FsmError::Corrupt(_)));
        // Truncated, too few states for the shape, a transition to no state.
        assert!(corrupt(&bytes[..bytes.len() - 4], shape));
        assert!(corrupt(&bytes[..5], shape));
        assert!(corrupt(&bytes[..8 + 16 * 8], shape));
        let mut bad = bytes.clone();
        bad[8..12].copy_from_slice(&(fsm.states() as u32).to_le_bytes());
        let err = Fsm::from_payload(&bad, shape, 10).unwrap_err();
        assert!(err.to_string().contains("a transition to state"), "{err}");
        assert_eq!(
            Fsm::from_payload(&bytes, shape, 40).unwrap_err(),
            FsmError::Depth(40)
        );
    }

    #[test]
    fn cached_with_makes_once() {
        // A shape and depth no other test caches in memory.
        let shape = Shape::new(2, 5).unwrap();
        let made = Fsm::build(shape, 9).unwrap();
        let next = made.next.clone();
        let a = Fsm::cached_with(shape, 9, || Ok(made)).unwrap();
        assert_eq!(a.next, next);
        let b = Fsm::cached_with(shape, 9, || panic!("made twice")).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(
            Fsm::cached_with(shape, 40, || panic!("not checked")).unwrap_err(),
            FsmError::Depth(40)
        );
    }
}
