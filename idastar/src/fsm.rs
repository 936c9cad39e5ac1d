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
//! cached in memory ([`Fsm::cached`]); [`Fsm::cached_in`] also keeps them on disk, next to the
//! pattern databases, so that later processes load them in milliseconds.
//!
//! ## The file ([`Fsm::to_bytes`], [`Fsm::from_bytes`])
//! `{W}x{H}-fsm-{depth}.fsm`, little-endian: a 64-byte header (the magic `NPZFSM\0\0`, the format
//! version [`FORMAT_VERSION`], width, height, depth, the number of patterns, the number of
//! states, the payload's size in bytes and its XXH3-64 checksum, then zeros) followed by the
//! transition table, 4 × `u32` per state. Loading checks every field, the checksum and that
//! every transition is [`DEAD`] or a state, so a damaged file is rejected (and rebuilt), never
//! used; files are written to a temporary name in the same directory and renamed into place,
//! so a reader never sees half a file.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
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
/// automaton rows prefetched and the automaton kept on disk ([`Fsm::cached_in`]: 0.5 s
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
    /// An automaton file could not be read or written.
    Io {
        /// The file (or directory).
        path: PathBuf,
        /// What the operating system said.
        message: String,
    },
    /// Bytes that are not a valid automaton file of the expected shape and depth.
    Corrupt {
        /// Where the bytes came from (empty for [`Fsm::from_bytes`]).
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
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
            FsmError::Io { path, message } => write!(
                f,
                "duplicate-pruning automaton file {}: {message}",
                path.display()
            ),
            FsmError::Corrupt { path, reason } => write!(
                f,
                "duplicate-pruning automaton file {}: {reason}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for FsmError {}

/// The version of the automaton file format ([`Fsm::to_bytes`]); files of another version
/// are rejected and rebuilt.
pub const FORMAT_VERSION: u32 = 1;

/// The first 8 bytes of an automaton file.
const MAGIC: &[u8; 8] = b"NPZFSM\0\0";

/// The header's length in bytes.
pub const HEADER_LEN: usize = 64;

/// The file extension of automaton files.
pub const EXTENSION: &str = "fsm";

/// Where [`Fsm::cached_in`] found the automaton.
#[derive(Debug)]
pub enum Origin {
    /// In this process's memory cache.
    Memory,
    /// Loaded from this file.
    Loaded(PathBuf),
    /// Built; `stored` says where it was written, or why it could not be, and `rejected` why
    /// an existing file was not used (missing files are not reported).
    Built {
        /// The file written, or the error that prevented it.
        stored: Result<PathBuf, FsmError>,
        /// Why the existing file was unusable, if there was one.
        rejected: Option<FsmError>,
    },
}

/// The fields of an automaton file's header (see the [module docs](self)), read by
/// [`Fsm::from_bytes`] and [`Fsm::read_header`].
struct RawHeader {
    width: u32,
    height: u32,
    depth: u32,
    patterns: u64,
    states: u64,
    /// The payload's length in bytes, as the header says.
    size: u64,
    /// The payload's XXH3-64 checksum.
    sum: u64,
}

impl RawHeader {
    /// The header at the start of `bytes`, after checking its magic and format version; the
    /// other fields are the callers' to check. Errors are the [`FsmError::Corrupt`] reason.
    fn parse(bytes: &[u8]) -> Result<RawHeader, String> {
        if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
            return Err("not an automaton file (no NPZFSM header)".into());
        }
        // In the header, which is long enough.
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let u64_at = |i: usize| u64::from(u32_at(i)) | (u64::from(u32_at(i + 4)) << 32);
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return Err(format!(
                "format version {version}, expected {FORMAT_VERSION}"
            ));
        }
        Ok(RawHeader {
            width: u32_at(12),
            height: u32_at(16),
            depth: u32_at(20),
            patterns: u64_at(24),
            states: u64_at(32),
            size: u64_at(40),
            sum: u64_at(48),
        })
    }
}

/// An automaton file's header ([`Fsm::read_header`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FsmFile {
    /// The board shape it serves.
    pub shape: Shape,
    /// Its longest forbidden string, in moves.
    pub depth: u32,
    /// Its minimal forbidden strings.
    pub patterns: u64,
    /// Its states (16 bytes each).
    pub states: u64,
    /// The file's length in bytes.
    pub bytes: u64,
}

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

/// This process's automata by (width, height, depth), shared by [`Fsm::cached`] and
/// [`Fsm::cached_in`].
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
        if shape.cells() > MAX_CELLS {
            return Err(FsmError::TooManyCells(shape));
        }
        if !(2..=MAX_DEPTH).contains(&depth) {
            return Err(FsmError::Depth(depth));
        }
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

    /// The automaton of `shape` and `depth`, built on first use and then shared by every caller
    /// in this process (an in-memory cache keyed by shape and depth).
    ///
    /// # Errors
    /// As [`Fsm::build`].
    pub fn cached(shape: Shape, depth: u32) -> Result<Arc<Fsm>, FsmError> {
        let key = (shape.width(), shape.height(), depth);
        let cache = memory_cache();
        if let Some(fsm) = cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
        {
            return Ok(Arc::clone(fsm));
        }
        // Built outside the lock; a race builds twice and keeps the first.
        let fsm = Arc::new(Fsm::build(shape, depth)?);
        let mut map = cache.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(Arc::clone(map.entry(key).or_insert(fsm)))
    }

    /// The automaton of `shape` and `depth`, as [`Fsm::cached`], but kept on disk in `dir`
    /// too (the pattern databases' cache directory): from this process's memory if there,
    /// else loaded from `dir`'s [`Fsm::file_name`] (milliseconds; checked in full), else
    /// built and stored there (written to a temporary file and renamed into place). A missing,
    /// damaged or unwritable file is no error: the automaton is built, and [`Origin`] says
    /// what happened. Time: O(file) to load, as [`Fsm::build`] to build.
    ///
    /// # Errors
    /// As [`Fsm::build`] (before touching `dir`).
    pub fn cached_in(shape: Shape, depth: u32, dir: &Path) -> Result<(Arc<Fsm>, Origin), FsmError> {
        if shape.cells() > MAX_CELLS {
            return Err(FsmError::TooManyCells(shape));
        }
        if !(2..=MAX_DEPTH).contains(&depth) {
            return Err(FsmError::Depth(depth));
        }
        let key = (shape.width(), shape.height(), depth);
        if let Some(fsm) = memory_cache()
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
        {
            return Ok((Arc::clone(fsm), Origin::Memory));
        }
        let path = dir.join(Fsm::file_name(shape, depth));
        let (fsm, origin) = match Fsm::load(&path, shape, depth) {
            Ok(fsm) => (fsm, Origin::Loaded(path)),
            Err(e) => {
                let rejected = match &e {
                    FsmError::Io { .. } if !path.exists() => None,
                    _ => Some(e),
                };
                let fsm = Fsm::build(shape, depth)?;
                let stored = fsm.store(dir);
                (fsm, Origin::Built { stored, rejected })
            }
        };
        let mut map = memory_cache()
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        Ok((Arc::clone(map.entry(key).or_insert(Arc::new(fsm))), origin))
    }

    /// The file name of the automaton of `shape` and `depth` in a cache directory:
    /// `{W}x{H}-fsm-{depth}.fsm`.
    pub fn file_name(shape: Shape, depth: u32) -> String {
        format!(
            "{}x{}-fsm-{depth}.{EXTENSION}",
            shape.width(),
            shape.height()
        )
    }

    /// The automaton as an automaton file (see the [module docs](self)): [`HEADER_LEN`] +
    /// [`Fsm::bytes`] bytes. O(states).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(self.bytes());
        for &t in &self.next {
            payload.extend_from_slice(&t.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
        out.extend_from_slice(MAGIC);
        for v in [
            FORMAT_VERSION,
            self.shape.width() as u32,
            self.shape.height() as u32,
            self.depth,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [
            self.patterns as u64,
            self.states() as u64,
            payload.len() as u64,
            xxhash_rust::xxh3::xxh3_64(&payload),
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.resize(HEADER_LEN, 0);
        out.extend_from_slice(&payload);
        out
    }

    /// Reads an automaton file's bytes back, checking that they hold the automaton of `shape`
    /// and `depth`. O(bytes).
    ///
    /// # Errors
    /// [`FsmError::Corrupt`] (with an empty path) for a wrong magic, version, shape, depth or
    /// size, a checksum mismatch, a transition to no state, or fewer states than cells.
    pub fn from_bytes(bytes: &[u8], shape: Shape, depth: u32) -> Result<Fsm, FsmError> {
        let bad = |reason: String| FsmError::Corrupt {
            path: PathBuf::new(),
            reason,
        };
        let RawHeader {
            width: w,
            height: h,
            depth: d,
            patterns,
            states,
            size,
            sum,
        } = RawHeader::parse(bytes).map_err(bad)?;
        if (w as usize, h as usize, d) != (shape.width(), shape.height(), depth) {
            return Err(bad(format!(
                "holds the {w}x{h} automaton of depth {d}, expected {shape} depth {depth}"
            )));
        }
        let payload = &bytes[HEADER_LEN..];
        if Some(size) != states.checked_mul(16) || payload.len() as u64 != size {
            return Err(bad(format!(
                "{} payload bytes for {states} states (header says {size}; 16 per state)",
                payload.len()
            )));
        }
        if xxhash_rust::xxh3::xxh3_64(payload) != sum {
            return Err(bad("checksum mismatch (damaged file)".into()));
        }
        if states < shape.cells() as u64 {
            return Err(bad(format!(
                "{states} states, fewer than the {} roots",
                shape.cells()
            )));
        }
        let next: Vec<u32> = payload
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if let Some(t) = next.iter().find(|&&t| t != DEAD && u64::from(t) >= states) {
            return Err(bad(format!("a transition to state {t} of {states}")));
        }
        Ok(Fsm {
            shape,
            depth,
            next,
            patterns: patterns as usize,
        })
    }

    /// What an automaton file's header says, with its length checked against it (for listing
    /// a cache directory: reads [`HEADER_LEN`] bytes, not the table). [`Fsm::load`] with the
    /// returned shape and depth checks the whole file.
    ///
    /// # Errors
    /// [`FsmError::Io`] if it cannot be read; [`FsmError::Corrupt`] (naming `path`) for a
    /// wrong magic or version, a shape of more than [`MAX_CELLS`] cells, a depth out of range,
    /// or a length that is not the header's.
    pub fn read_header(path: &Path) -> Result<FsmFile, FsmError> {
        use std::io::Read;
        let io = |e: std::io::Error| FsmError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        let bad = |reason: String| FsmError::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        let mut file = std::fs::File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let mut head = [0u8; HEADER_LEN];
        // A file shorter than a header leaves `head` zeroed, which the parse refuses (no magic).
        if len >= HEADER_LEN as u64 {
            file.read_exact(&mut head).map_err(io)?;
        }
        let RawHeader {
            width: w,
            height: h,
            depth,
            patterns,
            states,
            ..
        } = RawHeader::parse(&head).map_err(bad)?;
        let shape = Shape::new(w as usize, h as usize)
            .ok()
            .filter(|s| s.cells() <= MAX_CELLS)
            .ok_or_else(|| {
                bad(format!(
                    "a {w}x{h} board, not one of 2 to {MAX_CELLS} cells"
                ))
            })?;
        if !(2..=MAX_DEPTH).contains(&depth) {
            return Err(bad(format!("depth {depth}, not 2 to {MAX_DEPTH}")));
        }
        if states
            .checked_mul(16)
            .and_then(|b| b.checked_add(HEADER_LEN as u64))
            != Some(len)
        {
            return Err(bad(format!(
                "{len} bytes for {states} states (expected {HEADER_LEN} + 16 per state)"
            )));
        }
        Ok(FsmFile {
            shape,
            depth,
            patterns,
            states,
            bytes: len,
        })
    }

    /// The automaton files in the cache directory `dir`, sorted by name: every file named
    /// `*.fsm` ([`Fsm::file_name`]), with `temporary` also the temporary files that
    /// [`Fsm::store`] leaves when a process dies while writing. A missing directory has none.
    ///
    /// # Errors
    /// [`FsmError::Io`] if the directory exists but cannot be read.
    pub fn files_in(dir: &Path, temporary: bool) -> Result<Vec<PathBuf>, FsmError> {
        let rd = match std::fs::read_dir(dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => {
                return Err(FsmError::Io {
                    path: dir.to_path_buf(),
                    message: e.to_string(),
                });
            }
        };
        let suffix = format!(".{EXTENSION}");
        let mut files: Vec<PathBuf> = rd
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| !t.is_dir()))
            .map(|e| e.path())
            .filter(|p| {
                let name = p
                    .file_name()
                    .map_or(String::new(), |n| n.to_string_lossy().into());
                (name.ends_with(&suffix) && !name.starts_with('.'))
                    || (temporary
                        && name.starts_with('.')
                        && name.contains(&format!("{suffix}.tmp-")))
            })
            .collect();
        files.sort();
        Ok(files)
    }

    /// Loads the automaton of `shape` and `depth` from the file `path` ([`Fsm::from_bytes`]).
    ///
    /// # Errors
    /// [`FsmError::Io`] if it cannot be read; [`FsmError::Corrupt`] (naming `path`) as
    /// [`Fsm::from_bytes`].
    pub fn load(path: &Path, shape: Shape, depth: u32) -> Result<Fsm, FsmError> {
        let bytes = std::fs::read(path).map_err(|e| FsmError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Fsm::from_bytes(&bytes, shape, depth).map_err(|e| match e {
            FsmError::Corrupt { reason, .. } => FsmError::Corrupt {
                path: path.to_path_buf(),
                reason,
            },
            e => e,
        })
    }

    /// Writes the automaton into the directory `dir` (created if missing) as
    /// [`Fsm::file_name`], atomically: to a temporary file in `dir`, flushed, then renamed
    /// over the final name. Returns the file's path. O(states).
    ///
    /// # Errors
    /// [`FsmError::Io`] naming the directory or file when it cannot be written (the temporary
    /// file is removed).
    pub fn store(&self, dir: &Path) -> Result<PathBuf, FsmError> {
        use std::io::Write;
        let io = |path: &Path, e: std::io::Error| FsmError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        let path = dir.join(Fsm::file_name(self.shape, self.depth));
        let tmp = dir.join(format!(
            ".{}.tmp-{}-{:?}",
            Fsm::file_name(self.shape, self.depth),
            std::process::id(),
            std::thread::current().id()
        ));
        let written = std::fs::File::create_new(&tmp).and_then(|mut f| {
            f.write_all(&self.to_bytes())?;
            f.sync_all()
        });
        let renamed = written.and_then(|()| std::fs::rename(&tmp, &path));
        if let Err(e) = renamed {
            let _ = std::fs::remove_file(&tmp);
            return Err(io(&path, e));
        }
        Ok(path)
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
    fn file_round_trip_and_rejections() {
        let shape = Shape::new(3, 3).unwrap();
        let fsm = Fsm::build(shape, 10).unwrap();
        let bytes = fsm.to_bytes();
        assert_eq!(bytes.len(), HEADER_LEN + fsm.bytes());
        let back = Fsm::from_bytes(&bytes, shape, 10).unwrap();
        assert_eq!(back.next, fsm.next);
        assert_eq!(back.patterns(), fsm.patterns());
        // Wrong depth or shape asked for, damaged payload, truncated, bad magic, bad version.
        assert!(matches!(
            Fsm::from_bytes(&bytes, shape, 8),
            Err(FsmError::Corrupt { .. })
        ));
        assert!(matches!(
            Fsm::from_bytes(&bytes, Shape::new(4, 3).unwrap(), 10),
            Err(FsmError::Corrupt { .. })
        ));
        let mut damaged = bytes.clone();
        *damaged.last_mut().unwrap() ^= 1;
        let err = Fsm::from_bytes(&damaged, shape, 10).unwrap_err();
        assert!(err.to_string().contains("checksum"), "{err}");
        assert!(Fsm::from_bytes(&bytes[..bytes.len() - 4], shape, 10).is_err());
        assert!(Fsm::from_bytes(&bytes[..10], shape, 10).is_err());
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert!(Fsm::from_bytes(&bad, shape, 10).is_err());
        let mut bad = bytes;
        bad[8] = 99;
        let err = Fsm::from_bytes(&bad, shape, 10).unwrap_err();
        assert!(err.to_string().contains("version 99"), "{err}");
    }

    #[test]
    fn cached_in_builds_stores_then_loads() {
        let dir = std::env::temp_dir().join(format!("npuzzle-fsm-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // A shape and depth no other test caches in memory.
        let shape = Shape::new(2, 5).unwrap();
        let (a, origin) = Fsm::cached_in(shape, 9, &dir).unwrap();
        let Origin::Built { stored, rejected } = origin else {
            panic!("expected a build, got {origin:?}");
        };
        let path = stored.unwrap();
        assert!(rejected.is_none());
        assert_eq!(path, dir.join("2x5-fsm-9.fsm"));
        let (b, origin) = Fsm::cached_in(shape, 9, &dir).unwrap();
        assert!(matches!(origin, Origin::Memory));
        assert!(Arc::ptr_eq(&a, &b));
        let loaded = Fsm::load(&path, shape, 9).unwrap();
        assert_eq!(loaded.next, a.next);
        // A damaged file is rejected by load (cached_in would rebuild and replace it).
        let mut bytes = std::fs::read(&path).unwrap();
        let n = bytes.len();
        bytes[n - 1] ^= 0xff;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            Fsm::load(&path, shape, 9),
            Err(FsmError::Corrupt { .. })
        ));
        // No temporary files left behind.
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        // The header names the file's automaton without reading its table; a truncated file
        // is rejected by its length.
        let header = Fsm::read_header(&path).unwrap();
        assert_eq!(
            header,
            FsmFile {
                shape,
                depth: 9,
                patterns: a.patterns() as u64,
                states: a.states() as u64,
                bytes: (HEADER_LEN + a.bytes()) as u64,
            }
        );
        std::fs::write(&path, &bytes[..n - 16]).unwrap();
        assert!(matches!(
            Fsm::read_header(&path),
            Err(FsmError::Corrupt { .. })
        ));
        std::fs::write(&path, b"not an automaton").unwrap();
        assert!(matches!(
            Fsm::read_header(&path),
            Err(FsmError::Corrupt { .. })
        ));
        // Listing: automaton files, and temporary ones only when asked; no directories, no
        // other files.
        let tmp = dir.join(".2x5-fsm-9.fsm.tmp-1-ThreadId(1)");
        std::fs::write(&tmp, b"x").unwrap();
        std::fs::write(dir.join("5x5-1.2.3.pdb"), b"x").unwrap();
        std::fs::create_dir(dir.join("3x3-fsm-9.fsm")).unwrap();
        assert_eq!(Fsm::files_in(&dir, false).unwrap(), vec![path.clone()]);
        assert_eq!(Fsm::files_in(&dir, true).unwrap(), vec![tmp, path]);
        assert!(
            Fsm::files_in(&dir.join("missing"), true)
                .unwrap()
                .is_empty()
        );
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(matches!(
            Fsm::cached_in(shape, 40, &dir),
            Err(FsmError::Depth(40))
        ));
    }
}
