//! The memory-bounded node store of the engines that keep every state they meet (A*,
//! bidirectional search, weighted A*): an [`Arena`] of keys and meta values, a visited map from
//! key to arena index, and the byte accounting that keeps both (and the engine's open list)
//! within a memory limit, checked *before* every allocation.
//!
//! Units: bytes are bytes reserved (capacity × element size, what the allocator is asked for),
//! states are distinct stored states. The open list is the engine's own (a binary heap, buckets
//! by g and h): the engine passes its bytes in as `outside` so that one limit bounds the whole
//! search.

use std::hash::{BuildHasher, Hash, Hasher};
use std::mem::size_of;

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;
use rustc_hash::FxHasher;

use crate::arena::{ARENA_CHUNK, Arena};

/// The memory limit of the engines that store states (A*, greedy best-first, bidirectional
/// search, weighted A*) when [`Limits::memory_bytes`](crate::Limits::memory_bytes) is `None`:
/// 4 GiB (4 × 2^30 bytes) of arena, visited map and open list.
pub const DEFAULT_MEMORY_LIMIT: u64 = 4 << 30;

/// Expansions between two checks of the node, time and cancel limits in the engines that store
/// states (a power of two): 2^12, a few milliseconds at their rates, so that a time limit T
/// stops them within T + 10 % even for T = 0.5 s on a loaded machine (BENCHMARKS.md, "Limits
/// honoured"; 2^14 overshot).
pub const STORING_CHECK_INTERVAL: u64 = 1 << 12;

/// Expansions between two observer calls in the engines that store states (a power of two, a
/// multiple of [`STORING_CHECK_INTERVAL`]): 2^16.
pub const STORING_OBSERVE_INTERVAL: u64 = 1 << 16;

/// Scratch storage larger than this (32 MiB) is freed after a search rather than kept for the
/// next one, by the engines that keep their storage between searches (A*, bidirectional).
pub const RETAIN_BYTES: u64 = 32 << 20;

/// Open-list entries reserved at least per growth of a binary-heap open list (A*, weighted
/// A*): 2^12.
pub const MIN_OPEN_GROWTH: usize = 1 << 12;

/// The default hasher of a [`NodeStore`]: [`FxHasher`] over the key, then a folded
/// 64 × 64 → 128-bit multiply.
///
/// Fx alone is a multiply and a rotation: for a `u64` key, the bits hashbrown takes a bucket
/// from come from the product's top bits and, above 2^26 buckets, from its *lowest* bits,
/// which depend only on the key's lowest bits (the tile on cell 0 of a bitboard). In large
/// searches where that tile is skewed, half the buckets went unused and probe sequences grew
/// without bound (an A* search of 117 million states with Hamming slowed from 500,000 to 5,000
/// expansions a second). The fold makes every output bit depend on every input bit, for one
/// extra multiply.
#[derive(Clone, Copy, Debug, Default)]
pub struct FoldedFx;

/// The [`Hasher`] of [`FoldedFx`]: an [`FxHasher`] whose result is folded on
/// [`Hasher::finish`].
#[derive(Clone, Default)]
pub struct FoldedFxHasher(FxHasher);

impl std::fmt::Debug for FoldedFxHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("FoldedFxHasher")
            .field(&self.0.finish())
            .finish()
    }
}

impl BuildHasher for FoldedFx {
    type Hasher = FoldedFxHasher;

    #[inline]
    fn build_hasher(&self) -> FoldedFxHasher {
        FoldedFxHasher(FxHasher::default())
    }
}

impl Hasher for FoldedFxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.0.write_u8(i);
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.0.write_u16(i);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.0.write_u32(i);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0.write_u64(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.0.write_usize(i);
    }
    /// Fx's result folded: the high and low halves of its product with 2^64 / φ, xored.
    #[inline]
    fn finish(&self) -> u64 {
        let p = u128::from(self.0.finish()) * 0x9E37_79B9_7F4A_7C15;
        (p as u64) ^ ((p >> 64) as u64)
    }
}

/// Buckets hashbrown allocates for a table of capacity at least `cap` items (its growth rule:
/// 4, 8 or 16 buckets for small tables, else the next power of two of 8/7 × `cap`).
fn table_buckets(cap: usize) -> usize {
    match cap {
        0..4 => 4,
        4..8 => 8,
        8..15 => 16,
        _ => (cap * 8 / 7).next_power_of_two(),
    }
}

/// Bytes of a `HashTable<u32>` of `buckets` buckets: 4-byte slots (rounded up to 16 bytes),
/// one control byte per bucket and one trailing group of control bytes (16 bytes with SSE2;
/// an upper bound where groups are 8 bytes).
fn table_bytes(buckets: usize) -> u64 {
    ((buckets * size_of::<u32>()).next_multiple_of(16) + buckets + 16) as u64
}

/// Whether a probe of [`NodeStore::find_or_insert`] found the key or stored it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit {
    /// The key was stored already, at this index; nothing changed.
    Seen(u32),
    /// The key was new: it is now stored at this index, with the meta value given.
    New(u32),
}

/// The memory figures of a [`NodeStore`] (and of the engine's open list, given to
/// [`NodeStore::report`] as `outside` bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoreReport {
    /// Distinct states stored.
    pub stored_states: u64,
    /// Bytes reserved by the arena: keys and meta values (whole chunks of
    /// [`ARENA_CHUNK`](crate::ARENA_CHUNK) states) plus the chunk tables ([`Arena::bytes`]), and
    /// the heap bytes of the keys accounted ([`NodeStore::begin_keys`]).
    pub arena_bytes: u64,
    /// Bytes of the visited map's one allocation: 4-byte slots and control bytes.
    pub map_bytes: u64,
    /// Bytes held outside the store (the engine's open list), as given to
    /// [`NodeStore::report`].
    pub outside_bytes: u64,
    /// Largest number of bytes held at once since [`NodeStore::begin`]: store and outside
    /// together, counting a growing map's old and new tables together (both are held while
    /// the entries move), and at least the current [`StoreReport::total_bytes`].
    pub peak_bytes: u64,
}

impl StoreReport {
    /// Arena + map + outside, in bytes.
    pub fn total_bytes(&self) -> u64 {
        self.arena_bytes + self.map_bytes + self.outside_bytes
    }

    /// [`StoreReport::total_bytes`] per stored state (0 when nothing is stored).
    pub fn bytes_per_state(&self) -> f64 {
        if self.stored_states == 0 {
            0.0
        } else {
            self.total_bytes() as f64 / self.stored_states as f64
        }
    }
}

/// A memory-bounded store of search states: each state once, as a key `K` and a meta value `M`
/// (g, the move that reached it, flags: the engine's choice) in an [`Arena`], indexed by `u32`
/// in insertion order, and a visited map from key to index.
///
/// The map is a [`hashbrown::HashTable<u32>`] of arena indices hashed with `S` (by default
/// [`FoldedFx`]) over the key stored in the arena: 4 bytes and one control byte per bucket, at
/// most 87.5 % full, doubling when full; no key is stored twice. With `u64` keys and a 2-byte
/// meta the store costs 10 bytes a state in the arena and 5.7 to 11.4 in the map, depending on
/// where the map stands between two doublings.
///
/// # Memory accounting
/// Nothing is allocated behind the caller's back: [`NodeStore::find_or_insert`] never grows
/// anything (it needs room, see [`NodeStore::has_room`]), and [`NodeStore::grow`] first
/// predicts the bytes held at the growth's high point — the store's bytes, the engine's
/// `outside` bytes, a new arena chunk if needed, the map's new table *and* its old one (both
/// are held while the entries move), and the engine's own growth — and refuses the growth,
/// allocating nothing, when that exceeds the limit set by [`NodeStore::begin`]. The engine
/// accounts its open list's growth the same way with [`NodeStore::admit`]. The peak of these
/// high points is kept for [`StoreReport::peak_bytes`]. Keys that own heap memory (a Vec
/// board's above 40 cells: its packed words) are counted with it: [`NodeStore::begin_keys`]
/// says how many bytes each key holds on the heap ([`crate::Board::key_heap_bytes`]), and the
/// store accounts them for every state it makes room for, a few at a time (at most about
/// 1 MiB of keys ahead), so that a limit holds on 127×127 boards too (a key of 4,033 words).
///
/// ```
/// use npuzzle_core::{NodeStore, Visit};
/// let mut s = NodeStore::<u64, u16>::default();
/// s.begin(1 << 20, 0);
/// assert!(s.grow(4, 0, 0)); // room for 4 more states within 1 MiB
/// assert_eq!(s.find_or_insert(0x1234, 7), Visit::New(0));
/// assert_eq!(s.find_or_insert(0x1234, 9), Visit::Seen(0));
/// assert_eq!((s.find(&0x1234), s.meta(0), s.len()), (Some(0), 7, 1));
/// assert!(!s.grow(1 << 20, 0, 0)); // a million states do not fit in 1 MiB
/// let r = s.report(0);
/// assert_eq!(r.stored_states, 1);
/// assert!(r.peak_bytes <= 1 << 20 && r.total_bytes() <= r.peak_bytes);
/// ```
#[derive(Debug)]
pub struct NodeStore<K, M, S = FoldedFx> {
    arena: Arena<K, M>,
    table: HashTable<u32>,
    hasher: S,
    /// Bytes that store and outside together may hold.
    limit: u64,
    /// The largest high point accounted since `begin`, in bytes.
    peak: u64,
    /// Bytes each key holds on the heap, besides its `size_of::<K>()` in the arena.
    key_heap: u64,
    /// States whose keys' heap bytes are accounted (at least the stored states).
    heap_room: usize,
}

impl<K, M, S: Default> Default for NodeStore<K, M, S> {
    /// An empty store: no allocation, limit 0 until [`NodeStore::begin`].
    fn default() -> Self {
        NodeStore::with_hasher(S::default())
    }
}

impl<K, M, S> NodeStore<K, M, S> {
    /// An empty store hashing with `hasher` (for instance `ahash::RandomState::with_seeds` for
    /// large keys). Allocates nothing; the limit is 0 until [`NodeStore::begin`].
    pub fn with_hasher(hasher: S) -> Self {
        NodeStore {
            arena: Arena::default(),
            table: HashTable::new(),
            hasher,
            limit: 0,
            peak: 0,
            key_heap: 0,
            heap_room: 0,
        }
    }
}

impl<K: Hash + Eq, M: Copy, S: BuildHasher> NodeStore<K, M, S> {
    /// Starts a search: the memory limit becomes `limit` bytes (store plus `outside`), and the
    /// peak starts at the bytes held now, [`NodeStore::bytes`] + `outside` (storage kept from a
    /// previous search counts). States already stored are kept; call [`NodeStore::clear`] first
    /// for a fresh search. O(chunks).
    pub fn begin(&mut self, limit: u64, outside: u64) {
        self.begin_keys(limit, outside, 0);
    }

    /// [`NodeStore::begin`] for keys that each hold `key_heap` bytes on the heap besides their
    /// size in the arena (allocator overhead included; 0 for keys that own no heap memory, such
    /// as `u64`): from now on [`NodeStore::grow`] accounts those bytes for every state it makes
    /// room for, and [`NodeStore::has_room`] asks for a growth before they would be exceeded.
    /// O(chunks).
    pub fn begin_keys(&mut self, limit: u64, outside: u64, key_heap: u64) {
        self.limit = limit;
        self.key_heap = key_heap;
        self.heap_room = self.arena.len();
        self.peak = self.bytes() + outside;
    }

    /// The memory limit set by [`NodeStore::begin`], in bytes.
    #[inline]
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Number of stored states. O(1).
    #[inline]
    pub fn len(&self) -> usize {
        self.arena.len()
    }

    /// Whether no state is stored. O(1).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.arena.is_empty()
    }

    /// The arena of keys and meta values (read only: states are added through the store).
    #[inline]
    pub fn arena(&self) -> &Arena<K, M> {
        &self.arena
    }

    /// The key of state `i`. O(1).
    ///
    /// # Panics
    /// If `i` is at or above [`NodeStore::len`].
    #[inline]
    pub fn key(&self, i: u32) -> &K {
        self.arena.key(i)
    }

    /// The meta value of state `i`. O(1).
    ///
    /// # Panics
    /// If `i` is at or above [`NodeStore::len`].
    #[inline]
    pub fn meta(&self, i: u32) -> M {
        self.arena.meta(i)
    }

    /// The meta value of state `i`, mutably. O(1).
    ///
    /// # Panics
    /// If `i` is at or above [`NodeStore::len`].
    #[inline]
    pub fn meta_mut(&mut self, i: u32) -> &mut M {
        self.arena.meta_mut(i)
    }

    /// Bytes reserved by the arena and the map (capacity × element size), and the heap bytes
    /// of the keys accounted ([`NodeStore::begin_keys`]). O(chunks).
    pub fn bytes(&self) -> u64 {
        self.arena.bytes() + self.table.allocation_size() as u64 + self.key_heap_bytes()
    }

    /// The heap bytes of the keys accounted so far.
    fn key_heap_bytes(&self) -> u64 {
        self.heap_room as u64 * self.key_heap
    }

    /// Whether arena and map both have room for `n` more states without allocating, and their
    /// keys' heap bytes are accounted. O(1).
    #[inline]
    pub fn has_room(&self, n: usize) -> bool {
        self.arena.room() >= n
            && self.table.capacity() - self.table.len() >= n
            && (self.key_heap == 0 || self.arena.len() + n <= self.heap_room)
    }

    /// Makes room for `n` more states, adding an arena chunk and growing the map as needed, and
    /// accounts a growth of the caller's own storage made at the same time.
    ///
    /// `outside` is the bytes the caller holds now outside the store (its open list),
    /// `outside_growth` the bytes it will add right after a `true` answer. Returns `false`,
    /// allocating nothing, when the high point — [`NodeStore::bytes`] + `outside` +
    /// `outside_growth` + the new chunk ([`Arena::add_chunk_bytes`]) + the map's new table (the
    /// old one is still held while the entries move) — would exceed the limit, or when the store would pass 2^32 states
    /// (indices are `u32`). Raises the peak to that high point.
    ///
    /// Complexity: O(1) when nothing grows; O(states) for rehashing when the map grows
    /// (doubling, so O(1) amortised per state).
    #[cold]
    #[inline(never)]
    pub fn grow(&mut self, n: usize, outside: u64, outside_growth: u64) -> bool {
        if self.arena.len() + n > u32::MAX as usize {
            return false;
        }
        let arena_short = self.arena.room() < n;
        let table_short = self.table.capacity() - self.table.len() < n;
        let new_table = if table_short {
            let cap = (self.table.len() + n).max(self.table.capacity() + 1);
            table_bytes(table_buckets(cap))
        } else {
            0
        };
        let chunk = if arena_short {
            self.arena.add_chunk_bytes()
        } else {
            0
        };
        // Keys' heap bytes, accounted about 1 MiB at a time (at least `n` states' worth).
        let heap_states = if self.key_heap > 0 && self.arena.len() + n > self.heap_room {
            let step = ((1u64 << 20) / self.key_heap).clamp(1, ARENA_CHUNK as u64) as usize;
            (self.arena.len() + n - self.heap_room).max(step)
        } else {
            0
        };
        let high = self.bytes()
            + outside
            + outside_growth
            + chunk
            + new_table
            + heap_states as u64 * self.key_heap;
        if high > self.limit {
            return false;
        }
        self.heap_room += heap_states;
        if arena_short {
            self.arena.add_chunk();
        }
        if table_short {
            let (arena, hasher) = (&self.arena, &self.hasher);
            self.table.reserve(n, |&i| hasher.hash_one(arena.key(i)));
        }
        debug_assert!(self.bytes() + outside + outside_growth <= high);
        self.peak = self.peak.max(high);
        true
    }

    /// Whether the caller may allocate `growth` more bytes outside the store while holding
    /// `outside` bytes there: `true`, and the peak raised to [`NodeStore::bytes`] + `outside` +
    /// `growth`, when that is within the limit; `false` otherwise (the caller then does not
    /// allocate). Count in `growth` everything held at the growth's high point (a reallocated
    /// buffer's old and new allocation if both are held). O(chunks).
    pub fn admit(&mut self, outside: u64, growth: u64) -> bool {
        let high = self.bytes() + outside + growth;
        if high > self.limit {
            return false;
        }
        self.peak = self.peak.max(high);
        true
    }

    /// The index of the stored state with key `key`, if any. O(1) expected: one hash, one
    /// probe sequence.
    #[inline]
    pub fn find(&self, key: &K) -> Option<u32> {
        let arena = &self.arena;
        self.table
            .find(self.hasher.hash_one(key), |&j| arena.key(j) == key)
            .copied()
    }

    /// Looks `key` up and, if it is new, stores it with `meta`. Never allocates. O(1) expected.
    ///
    /// # Panics
    /// If the key is new and the arena has no room (the caller makes room with
    /// [`NodeStore::grow`], see [`NodeStore::has_room`]); in debug builds also if either the
    /// arena or the map has no room. (Without room in the map, the probe would grow it
    /// unaccounted.)
    #[expect(
        clippy::inline_always,
        reason = "the engines' hot loop: left out of line, A* ran 1.3 % more instructions (callgrind)"
    )]
    #[inline(always)]
    pub fn find_or_insert(&mut self, key: K, meta: M) -> Visit {
        debug_assert!(
            self.has_room(1),
            "find_or_insert without room: call grow first"
        );
        let (arena, hasher) = (&self.arena, &self.hasher);
        match self.table.entry(
            hasher.hash_one(&key),
            |&j| *arena.key(j) == key,
            |&j| hasher.hash_one(arena.key(j)),
        ) {
            Entry::Occupied(o) => Visit::Seen(*o.get()),
            Entry::Vacant(v) => {
                let i = self.arena.push(key, meta);
                // The map has room too (grow reserves both): this insert does not reallocate.
                v.insert(i);
                Visit::New(i)
            }
        }
    }

    /// Forgets every state, keeping the storage for the next search. O(chunks + buckets).
    pub fn clear(&mut self) {
        self.arena.clear(usize::MAX);
        self.table.clear();
        self.heap_room = 0;
    }

    /// Forgets every state and frees the storage (0 bytes reserved afterwards). O(chunks).
    pub fn release(&mut self) {
        self.arena.clear(0);
        self.table = HashTable::new();
        self.heap_room = 0;
    }

    /// The same states, keys and map with each meta value replaced by `f(meta)` (for instance
    /// to widen 2-byte meta words to 4 bytes), or `Err(self)`, unchanged, when the conversion's
    /// high point ([`NodeStore::bytes`] + `outside` + [`Arena::map_meta_bytes`]) would exceed
    /// the limit. The limit and the peak carry over (the peak raised to that high point).
    /// O(states + chunks).
    ///
    /// # Errors
    /// The store itself, unchanged, when the conversion does not fit in the limit.
    pub fn map_meta<N: Copy>(
        self,
        outside: u64,
        f: impl FnMut(M) -> N,
    ) -> Result<NodeStore<K, N, S>, Self> {
        let high = self.bytes() + outside + self.arena.map_meta_bytes::<N>();
        if high > self.limit {
            return Err(self);
        }
        Ok(NodeStore {
            arena: self.arena.map_meta(f),
            table: self.table,
            hasher: self.hasher,
            limit: self.limit,
            peak: self.peak.max(high),
            key_heap: self.key_heap,
            heap_room: self.heap_room,
        })
    }

    /// The store's figures, with `outside` bytes held by the caller now. O(chunks).
    pub fn report(&self, outside: u64) -> StoreReport {
        let arena_bytes = self.arena.bytes() + self.key_heap_bytes();
        let map_bytes = self.table.allocation_size() as u64;
        StoreReport {
            stored_states: self.arena.len() as u64,
            arena_bytes,
            map_bytes,
            outside_bytes: outside,
            peak_bytes: self.peak.max(arena_bytes + map_bytes + outside),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stores keys `7i` (meta `i mod 1000`) for i in `range`, growing by `step` states at a
    /// time as the engines do, until a growth is refused; returns whether all were stored.
    fn fill(s: &mut NodeStore<u64, u16>, range: std::ops::Range<u64>, step: usize) -> bool {
        for i in range {
            if !s.has_room(step) && !s.grow(step, 0, 0) {
                return false;
            }
            assert_eq!(
                s.find_or_insert(i * 7, (i % 1000) as u16),
                Visit::New(i as u32)
            );
        }
        true
    }

    #[test]
    fn folded_fx_is_fx_then_the_fold() {
        for key in [0u64, 1, 0x0123_4567_89ab_cdef, u64::MAX] {
            let fx = u128::from(rustc_hash::FxBuildHasher.hash_one(key)) * 0x9E37_79B9_7F4A_7C15;
            let folded = (fx as u64) ^ ((fx >> 64) as u64);
            assert_eq!(FoldedFx.hash_one(key), folded);
        }
        assert_ne!(FoldedFx.hash_one(1u64), FoldedFx.hash_one(2u64));
    }

    /// Regression (moved from npuzzle-astar): with Fx alone, bit 26 and up of the hash were the
    /// low bits of the key (the tile on cell 0), so tables of 2^27+ buckets used half their
    /// buckets when that tile was fixed, and probing crawled. Every bucket bit must be balanced
    /// on such keys.
    #[test]
    fn hash_bucket_bits_are_balanced_when_low_key_bits_are_fixed() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut ones = [0u32; 32];
        let n = 20_000;
        for _ in 0..n {
            // A random permutation of tiles 0..16 with tile 1 fixed on cell 0.
            let mut tiles: Vec<u64> = (0..16).filter(|&t| t != 1).collect();
            for i in (1..tiles.len()).rev() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                tiles.swap(i, (x % (i as u64 + 1)) as usize);
            }
            let key = tiles
                .iter()
                .enumerate()
                .fold(1u64, |k, (c, &t)| k | (t << (4 * (c + 1))));
            let h = FoldedFx.hash_one(key);
            for (b, o) in ones.iter_mut().enumerate() {
                *o += ((h >> b) & 1) as u32;
            }
        }
        for (b, &o) in ones.iter().enumerate() {
            let share = f64::from(o) / f64::from(n);
            assert!((0.47..0.53).contains(&share), "bit {b}: {share}");
        }
    }

    #[test]
    fn table_prediction_matches_hashbrown() {
        let mut t = HashTable::<u32>::new();
        let hash = |i: &u32| FoldedFx.hash_one(i);
        for i in 0..100_000u32 {
            if t.len() == t.capacity() {
                let predicted = table_bytes(table_buckets(t.capacity() + 1));
                t.reserve(1, hash);
                let actual = t.allocation_size() as u64;
                // Exact with 16-byte control groups (SSE2), up to 16 bytes over with 8-byte ones.
                assert!(predicted >= actual && predicted - actual <= 16, "at {i}");
            }
            t.insert_unique(hash(&i), i, hash);
        }
    }

    /// Keys that own heap memory are counted with it (issue 52, case 4: a Vec board's packed
    /// words were not, and searches on 40×40 boards took 4 GB under a 100 MiB limit): the
    /// store refuses to grow before the keys' heap bytes would pass the limit, and its bytes
    /// and report include them.
    #[test]
    fn keys_heap_bytes_count_against_the_limit() {
        let limit = 4u64 << 20;
        let key_heap = 2576;
        let mut s = NodeStore::<u64, u16>::default();
        s.begin_keys(limit, 0, key_heap);
        let stored = fill(&mut s, 0..u64::from(u32::MAX), 1);
        assert!(!stored, "the limit stops it");
        let n = s.len() as u64;
        // At most the limit, and at most about 1 MiB of keys accounted ahead.
        assert!(n * key_heap <= limit, "{n} states");
        assert!(
            n * key_heap + (1 << 20) + s.arena().bytes() >= limit / 2,
            "{n} states"
        );
        assert!(s.bytes() >= n * key_heap && s.bytes() <= limit);
        let r = s.report(0);
        assert!(
            r.arena_bytes >= n * key_heap && r.peak_bytes <= limit,
            "{r:?}"
        );
        // Without heap bytes the same limit holds many more keys.
        let mut plain = NodeStore::<u64, u16>::default();
        plain.begin(limit, 0);
        assert!(!fill(&mut plain, 0..u64::from(u32::MAX), 1));
        assert!(plain.len() as u64 > 20 * n, "{} against {n}", plain.len());
        // Cleared: nothing accounted any more.
        s.clear();
        assert_eq!(s.bytes(), s.arena().bytes() + s.report(0).map_bytes);
    }

    #[test]
    fn new_store_is_empty_and_reserves_nothing() {
        let s = NodeStore::<u64, u16>::default();
        assert_eq!((s.len(), s.bytes(), s.limit()), (0, 0, 0));
        assert!(s.is_empty() && !s.has_room(1));
        assert_eq!(s.report(0), StoreReport::default());
    }

    #[test]
    fn find_or_insert_find_meta_across_chunks() {
        let mut s = NodeStore::<u64, u16>::default();
        s.begin(u64::MAX, 0);
        let n = 2 * ARENA_CHUNK as u64 + 5;
        assert!(fill(&mut s, 0..n, 4));
        assert_eq!(s.len(), n as usize);
        for i in [0, 1, ARENA_CHUNK as u64, n - 1] {
            assert_eq!(s.find(&(i * 7)), Some(i as u32));
            assert_eq!(s.find_or_insert(i * 7, 0), Visit::Seen(i as u32));
            assert_eq!(
                (*s.key(i as u32), s.meta(i as u32)),
                (i * 7, (i % 1000) as u16)
            );
        }
        assert_eq!(s.find(&1), None);
        *s.meta_mut(3) = 999;
        assert_eq!(s.arena().meta(3), 999);
        assert_eq!(s.len(), n as usize, "probes of stored keys store nothing");
    }

    /// At every limit, from 0 to a few chunks: the store never holds more than the limit, the
    /// peak stays within it, a refused growth allocates nothing, and the refused growth would
    /// really have exceeded the limit (so the store stops no earlier than it must).
    #[test]
    fn limit_is_honoured_before_the_allocation_that_would_exceed_it() {
        let chunk = Arena::<u64, u16>::CHUNK_BYTES;
        let limits = [
            0,
            1,
            100,
            chunk - 1,
            chunk,
            chunk + 100,
            chunk + 4_000,
            2 * chunk + 70_000,
            1 << 20,
            3_000_000,
        ];
        for limit in limits {
            let mut s = NodeStore::<u64, u16>::default();
            s.begin(limit, 0);
            let mut i = 0u64;
            loop {
                if !s.has_room(1) {
                    let before = s.bytes();
                    let table_before = s.table.allocation_size() as u64;
                    if !s.grow(1, 0, 0) {
                        assert_eq!(s.bytes(), before, "a refused growth allocates nothing");
                        // Grow anyway: the high point really passes the limit.
                        s.begin(u64::MAX, 0);
                        assert!(s.grow(1, 0, 0));
                        let grew_table = s.table.allocation_size() as u64 != table_before;
                        let high = s.bytes() + if grew_table { table_before } else { 0 };
                        assert!(
                            high > limit,
                            "limit {limit}: {high} bytes would have fitted"
                        );
                        break;
                    }
                }
                assert!(s.bytes() <= limit, "limit {limit}: {} bytes", s.bytes());
                assert_eq!(s.find_or_insert(i, 0), Visit::New(i as u32));
                i += 1;
            }
            let r = s.report(0);
            assert_eq!(r.stored_states, i);
            // The first state needs a chunk, the two 4-entry chunk tables (2 × 96 bytes) and a
            // 4-bucket map (36 bytes).
            assert_eq!(i == 0, limit < chunk + 192 + 36, "limit {limit}");
        }
    }

    #[test]
    fn outside_bytes_count_against_the_limit() {
        let chunk = Arena::<u64, u16>::CHUNK_BYTES;
        let mut s = NodeStore::<u64, u16>::default();
        s.begin(chunk + 1000, 0);
        // The same growth fits alone but not with 900 bytes held outside, nor with a
        // 900-byte growth outside.
        assert!(!s.grow(1, 900, 0) && !s.grow(1, 0, 900));
        assert_eq!(s.bytes(), 0);
        assert!(s.grow(1, 0, 0));
        let left = chunk + 1000 - s.bytes();
        assert!(s.admit(left - 10, 10));
        assert!(!s.admit(left - 10, 11));
        assert_eq!(s.report(0).peak_bytes, chunk + 1000);
        let r = s.report(7);
        assert_eq!((r.outside_bytes, r.total_bytes()), (7, s.bytes() + 7));
    }

    #[test]
    fn report_bytes_match_the_arena_and_table_capacities() {
        let mut s = NodeStore::<u64, u16>::default();
        s.begin(u64::MAX, 0);
        let n = 3 * ARENA_CHUNK as u64 + 17;
        assert!(fill(&mut s, 0..n, 4));
        let r = s.report(1234);
        assert_eq!(r.stored_states, n);
        assert!(r.arena_bytes >= 4 * Arena::<u64, u16>::CHUNK_BYTES);
        assert_eq!(r.arena_bytes, s.arena.bytes());
        // Arena: 4 chunks of 10-byte states plus the two chunk tables of 4 24-byte Vecs.
        assert_eq!(r.arena_bytes, 4 * 16_384 * 10 + 2 * 4 * 24, "{r:?}");
        assert_eq!(r.map_bytes, s.table.allocation_size() as u64);
        let predicted = table_bytes(table_buckets(s.table.capacity()));
        assert!(
            predicted >= r.map_bytes && predicted - r.map_bytes <= 16,
            "{r:?}"
        );
        // 49,169 states: 65,536 buckets (room for 57,344) of 5 bytes, plus one control group.
        assert_eq!(table_buckets(s.table.capacity()), 65_536);
        assert_eq!(r.map_bytes, 65_536 * 5 + 16);
        assert_eq!(r.total_bytes(), r.arena_bytes + r.map_bytes + 1234);
        assert!(r.peak_bytes >= r.total_bytes());
        // A map growth's high point holds the old and the new table together.
        while s.has_room(1) {
            let k = s.len() as u64 * 7;
            s.find_or_insert(k, 0);
        }
        let old_map = s.table.allocation_size() as u64;
        assert!(s.arena.room() > 0 && s.grow(1, 0, 0));
        assert!(s.table.allocation_size() as u64 > old_map);
        assert_eq!(s.report(0).peak_bytes, s.bytes() + old_map);
        let bps = r.bytes_per_state();
        assert!((bps - r.total_bytes() as f64 / n as f64).abs() < 1e-9);
        assert!(StoreReport::default().bytes_per_state().abs() < f64::EPSILON);
    }

    #[test]
    fn refused_past_2_pow_32_states() {
        let mut s = NodeStore::<u64, u16>::default();
        s.begin(u64::MAX, 0);
        assert!(!s.grow(u32::MAX as usize + 1, 0, 0));
        assert_eq!(s.bytes(), 0);
    }

    #[test]
    fn clear_keeps_storage_and_release_frees_it() {
        let mut s = NodeStore::<u64, u16>::default();
        s.begin(u64::MAX, 0);
        assert!(fill(&mut s, 0..1000, 4));
        let bytes = s.bytes();
        s.clear();
        assert_eq!((s.len(), s.bytes(), s.find(&7)), (0, bytes, None));
        assert!(s.has_room(4));
        assert_eq!(s.find_or_insert(5, 5), Visit::New(0));
        s.release();
        assert_eq!((s.len(), s.bytes()), (0, 0));
        s.begin(10, 3);
        assert_eq!(s.report(3).peak_bytes, 3);
    }

    #[test]
    fn map_meta_keeps_states_and_respects_the_limit() {
        let mut s = NodeStore::<u64, u16>::default();
        s.begin(u64::MAX, 0);
        let n = ARENA_CHUNK as u64 + 3;
        assert!(fill(&mut s, 0..n, 4));
        let need = s.bytes() + s.arena.map_meta_bytes::<u32>();
        s.begin(need - 1, 0);
        let s = s.map_meta(0, u32::from).expect_err("one byte short");
        let mut s = s;
        s.begin(need, 0);
        let mut w = s.map_meta(0, |m| u32::from(m) + 70_000).unwrap();
        assert_eq!(w.report(0).peak_bytes, need);
        assert_eq!(w.len(), n as usize);
        for i in [0, 999, ARENA_CHUNK as u64, n - 1] {
            assert_eq!(w.find(&(i * 7)), Some(i as u32));
            assert_eq!(w.meta(i as u32), (i % 1000) as u32 + 70_000);
        }
        assert!(w.has_room(1));
        assert_eq!(w.find_or_insert(1, 1), Visit::New(n as u32));
    }

    #[test]
    fn another_hasher() {
        #[derive(Default)]
        struct Std;
        impl BuildHasher for Std {
            type Hasher = std::collections::hash_map::DefaultHasher;
            fn build_hasher(&self) -> Self::Hasher {
                std::collections::hash_map::DefaultHasher::new()
            }
        }
        let mut s = NodeStore::<Vec<u8>, u32, Std>::with_hasher(Std);
        s.begin(1 << 20, 0);
        assert!(s.grow(2, 0, 0));
        assert_eq!(s.find_or_insert(vec![1, 2], 3), Visit::New(0));
        assert_eq!(s.find_or_insert(vec![2, 1], 4), Visit::New(1));
        assert_eq!(s.find(&vec![1, 2]), Some(0));
    }
}
