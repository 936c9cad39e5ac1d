//! A chunked node arena: every stored state once, as a key plus a small meta value, indexed by
//! `u32`, in fixed-size chunks of [`ARENA_CHUNK`] states.
//!
//! Keys and metas live in separate arrays (structure of arrays), so a `u64` key with a 2-byte
//! meta word costs exactly 10 bytes per state, with no padding. Chunks are allocated whole and
//! never move or grow: pushing a state never copies the others, and the bytes reserved are
//! known before every allocation, which is what the memory-bounded engines need.

use std::mem::size_of;

/// log2 of [`ARENA_CHUNK`].
const CHUNK_BITS: u32 = 14;

/// States per arena chunk: 2^14 = 16,384 (a power of two, so an index splits into chunk and
/// slot with a shift and a mask). A chunk of `u64` keys and `u32` metas is 192 KiB.
pub const ARENA_CHUNK: usize = 1 << CHUNK_BITS;

const MASK: usize = ARENA_CHUNK - 1;

/// Keys `K` and meta values `M` of stored states, indexed by `u32` in push order, in chunks of
/// [`ARENA_CHUNK`] states (structure of arrays: no padding between key and meta).
///
/// The arena grows only on request: [`Arena::push`] never allocates, the caller checks
/// [`Arena::room`] and calls [`Arena::add_chunk`] (after accounting [`Arena::CHUNK_BYTES`]
/// against its memory limit). States are never removed one by one; [`Arena::clear`] forgets
/// them all.
///
/// ```
/// use npuzzle_core::{ARENA_CHUNK, Arena};
/// let mut a = Arena::<u64, u16>::default();
/// if a.room() == 0 {
///     a.add_chunk();
/// }
/// let i = a.push(0x1234, 7);
/// *a.meta_mut(i) |= 8;
/// assert_eq!((*a.key(i), a.meta(i), a.len(), a.room()), (0x1234, 15, 1, ARENA_CHUNK - 1));
/// ```
#[derive(Debug)]
pub struct Arena<K, M> {
    /// One `Vec` of capacity `ARENA_CHUNK` per chunk; all but the last full.
    keys: Vec<Vec<K>>,
    /// Same shape as `keys`.
    metas: Vec<Vec<M>>,
    /// States stored.
    len: usize,
}

impl<K, M> Default for Arena<K, M> {
    /// An empty arena with no chunk (0 bytes reserved, no room).
    fn default() -> Self {
        Arena {
            keys: Vec::new(),
            metas: Vec::new(),
            len: 0,
        }
    }
}

impl<K, M: Copy> Arena<K, M> {
    /// Bytes one chunk reserves: [`ARENA_CHUNK`] × (size of `K` + size of `M`).
    pub const CHUNK_BYTES: u64 = (ARENA_CHUNK * (size_of::<K>() + size_of::<M>())) as u64;

    /// Number of stored states. O(1).
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no state is stored. O(1).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// States that fit before another chunk is needed (0 for a new arena). O(1).
    #[inline]
    pub fn room(&self) -> usize {
        self.keys.len() * ARENA_CHUNK - self.len
    }

    /// Allocates one more chunk: room for [`ARENA_CHUNK`] more states, [`Arena::CHUNK_BYTES`]
    /// more bytes (plus the chunk tables' growth, see [`Arena::bytes`]). O(1) amortised, plus
    /// the allocation.
    pub fn add_chunk(&mut self) {
        let grow = self.table_growth();
        if grow > 0 {
            self.keys.reserve_exact(grow);
            self.metas.reserve_exact(grow);
        }
        self.keys.push(Vec::with_capacity(ARENA_CHUNK));
        self.metas.push(Vec::with_capacity(ARENA_CHUNK));
    }

    /// Entries the chunk tables grow by on the next [`Arena::add_chunk`]: 0 while they have
    /// room, else their capacity (doubling), at least 4.
    fn table_growth(&self) -> usize {
        if self.keys.len() < self.keys.capacity() {
            0
        } else {
            self.keys.capacity().max(4)
        }
    }

    /// Bytes that the next [`Arena::add_chunk`] adds at its high point: [`Arena::CHUNK_BYTES`],
    /// plus, when the two chunk tables are full, their new allocations (they double; the old
    /// ones, already counted in [`Arena::bytes`], are held while the entries move). O(1).
    pub fn add_chunk_bytes(&self) -> u64 {
        let tables = (self.keys.capacity() + self.table_growth()) * size_of::<Vec<K>>()
            + (self.metas.capacity() + self.table_growth()) * size_of::<Vec<M>>();
        Self::CHUNK_BYTES
            + if self.table_growth() > 0 {
                tables as u64
            } else {
                0
            }
    }

    /// Bytes reserved: the chunks (capacity × element size, so at least chunks ×
    /// [`Arena::CHUNK_BYTES`]) plus the two chunk tables. O(chunks).
    pub fn bytes(&self) -> u64 {
        let chunks = self.keys.iter().map(Vec::capacity).sum::<usize>() * size_of::<K>()
            + self.metas.iter().map(Vec::capacity).sum::<usize>() * size_of::<M>();
        (chunks
            + self.keys.capacity() * size_of::<Vec<K>>()
            + self.metas.capacity() * size_of::<Vec<M>>()) as u64
    }

    /// The key of state `i`. O(1).
    ///
    /// # Panics
    /// If `i` is at or above [`Arena::len`] (no such state is stored).
    #[inline]
    pub fn key(&self, i: u32) -> &K {
        let i = i as usize;
        &self.keys[i >> CHUNK_BITS][i & MASK]
    }

    /// The meta value of state `i`. O(1).
    ///
    /// # Panics
    /// If `i` is at or above [`Arena::len`] (as [`Arena::key`]).
    #[inline]
    pub fn meta(&self, i: u32) -> M {
        let i = i as usize;
        self.metas[i >> CHUNK_BITS][i & MASK]
    }

    /// The meta value of state `i`, mutably. O(1).
    ///
    /// # Panics
    /// If `i` is at or above [`Arena::len`] (as [`Arena::key`]).
    #[inline]
    pub fn meta_mut(&mut self, i: u32) -> &mut M {
        let i = i as usize;
        &mut self.metas[i >> CHUNK_BITS][i & MASK]
    }

    /// Stores a state and returns its index (the previous [`Arena::len`], as `u32`). Never
    /// allocates. O(1).
    ///
    /// The caller has made room ([`Arena::room`] > 0) and keeps the arena within 2^32 states
    /// (a larger index would wrap).
    ///
    /// # Panics
    /// If there is no room.
    #[inline]
    pub fn push(&mut self, key: K, meta: M) -> u32 {
        let c = self.len >> CHUNK_BITS;
        self.keys[c].push(key);
        self.metas[c].push(meta);
        let i = self.len as u32;
        self.len += 1;
        i
    }

    /// Forgets every state, keeping at most `keep` chunks allocated (the first ones, empty):
    /// `usize::MAX` keeps them all and the chunk tables too, 0 frees everything (0 bytes
    /// reserved afterwards). O(chunks).
    pub fn clear(&mut self, keep: usize) {
        self.keys.truncate(keep);
        self.metas.truncate(keep);
        self.keys.iter_mut().for_each(Vec::clear);
        self.metas.iter_mut().for_each(Vec::clear);
        if keep == 0 {
            self.keys = Vec::new();
            self.metas = Vec::new();
        }
        self.len = 0;
    }

    /// Bytes that [`Arena::map_meta`] to metas of type `N` adds at its high point: the extra
    /// bytes of the `N` chunks (none when `N` is not larger than `M`), plus one more chunk of
    /// them, held while it is converted. O(1).
    pub fn map_meta_bytes<N>(&self) -> u64 {
        let wider = size_of::<N>() - size_of::<M>().min(size_of::<N>());
        ((self.metas.len() + 1) * ARENA_CHUNK * wider) as u64
    }

    /// The same states, in the same order, with each meta replaced by `f(meta)` (for instance
    /// to widen 2-byte meta words to 4 bytes). Keys are not moved; metas are converted one
    /// chunk at a time, each old chunk freed once converted, so the high point is the one
    /// [`Arena::map_meta_bytes`] gives. The new chunks have full capacity: the room is
    /// unchanged. O(len + chunks), plus one allocation per chunk.
    pub fn map_meta<N: Copy>(self, mut f: impl FnMut(M) -> N) -> Arena<K, N> {
        let metas = self
            .metas
            .into_iter()
            .map(|chunk| {
                let mut mapped = Vec::with_capacity(ARENA_CHUNK);
                mapped.extend(chunk.into_iter().map(&mut f));
                mapped
            })
            .collect();
        Arena {
            keys: self.keys,
            metas,
            len: self.len,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An arena of `n` states: key `7i`, meta `i mod 1000`.
    fn filled(n: usize) -> Arena<u64, u16> {
        let mut a = Arena::<u64, u16>::default();
        for i in 0..n as u64 {
            if a.room() == 0 {
                a.add_chunk();
            }
            assert_eq!(a.push(i * 7, (i % 1000) as u16), i as u32);
        }
        a
    }

    #[test]
    fn chunk_is_2_pow_14_and_chunk_bytes_exact() {
        assert_eq!(ARENA_CHUNK, 16_384);
        assert_eq!(Arena::<u64, u16>::CHUNK_BYTES, 16_384 * 10);
        assert_eq!(Arena::<u64, [u16; 2]>::CHUNK_BYTES, 16_384 * 12);
        assert_eq!(Arena::<u32, u32>::CHUNK_BYTES, 16_384 * 8);
    }

    #[test]
    fn new_arena_is_empty_and_reserves_nothing() {
        let a = Arena::<u64, u16>::default();
        assert_eq!((a.len(), a.room(), a.bytes()), (0, 0, 0));
        assert!(a.is_empty());
    }

    #[test]
    fn push_across_chunks_key_meta_and_meta_mut() {
        let n = 2 * ARENA_CHUNK + 5;
        let mut a = filled(n);
        assert_eq!((a.len(), a.room()), (n, ARENA_CHUNK - 5));
        assert!(!a.is_empty());
        for i in [0, 1, ARENA_CHUNK - 1, ARENA_CHUNK, ARENA_CHUNK + 3, n - 1] {
            assert_eq!(*a.key(i as u32), i as u64 * 7);
            assert_eq!(a.meta(i as u32), (i % 1000) as u16);
        }
        *a.meta_mut(ARENA_CHUNK as u32) = 4242;
        assert_eq!(a.meta(ARENA_CHUNK as u32), 4242);
        assert_eq!(
            a.meta(ARENA_CHUNK as u32 - 1),
            ((ARENA_CHUNK - 1) % 1000) as u16
        );
        assert_eq!(
            a.meta(ARENA_CHUNK as u32 + 1),
            ((ARENA_CHUNK + 1) % 1000) as u16
        );
    }

    #[test]
    fn bytes_count_chunks_and_tables() {
        let a = filled(2 * ARENA_CHUNK + 5);
        assert!(a.keys.capacity() >= 3 && a.metas.capacity() >= 3);
        let tables = ((a.keys.capacity() + a.metas.capacity()) * size_of::<Vec<u64>>()) as u64;
        assert!(a.bytes() >= 3 * Arena::<u64, u16>::CHUNK_BYTES);
        assert_eq!(a.bytes(), 3 * Arena::<u64, u16>::CHUNK_BYTES + tables);
    }

    #[test]
    fn add_chunk_bytes_predicts_each_growth() {
        let mut a = Arena::<u64, u16>::default();
        for chunks in 0..40 {
            let before = a.bytes();
            let (keys_cap, metas_cap) = (a.keys.capacity(), a.metas.capacity());
            let predicted = a.add_chunk_bytes();
            a.add_chunk();
            let old_tables = if a.keys.capacity() == keys_cap {
                0
            } else {
                (keys_cap + metas_cap) * size_of::<Vec<u64>>()
            };
            // The high point: what is held after, plus the old tables while they are copied.
            assert_eq!(
                before + predicted,
                a.bytes() + old_tables as u64,
                "chunk {chunks}"
            );
        }
        assert_eq!((a.keys.capacity(), a.room()), (64, 40 * ARENA_CHUNK));
    }

    #[test]
    #[should_panic(expected = "index out of bounds")]
    fn push_without_room_panics() {
        let mut a = filled(ARENA_CHUNK);
        a.push(1, 1);
    }

    #[test]
    #[should_panic(expected = "index out of bounds")]
    fn key_past_len_panics() {
        let a = filled(3);
        let _ = a.key(3);
    }

    #[test]
    fn map_meta_keeps_keys_and_metas_and_stays_within_its_estimate() {
        let n = 2 * ARENA_CHUNK + 5;
        let a = filled(n);
        let before = a.bytes();
        let extra = a.map_meta_bytes::<u32>();
        assert_eq!(extra, 4 * ARENA_CHUNK as u64 * 2);
        assert_eq!(a.map_meta_bytes::<u16>(), 0);
        assert_eq!(a.map_meta_bytes::<u8>(), 0);
        let mut w = a.map_meta(|m| u32::from(m) + 100_000);
        assert_eq!(w.bytes(), before + 3 * ARENA_CHUNK as u64 * 2);
        assert!(w.bytes() <= before + extra);
        assert_eq!((w.len(), w.room()), (n, ARENA_CHUNK - 5));
        for i in [0, ARENA_CHUNK - 1, ARENA_CHUNK + 3, n - 1] {
            assert_eq!(*w.key(i as u32), i as u64 * 7);
            assert_eq!(w.meta(i as u32), (i % 1000) as u32 + 100_000);
        }
        assert_eq!(w.push(5, 6), n as u32);
        assert_eq!((*w.key(n as u32), w.meta(n as u32)), (5, 6));
    }

    #[test]
    fn clear_keeps_at_most_keep_chunks() {
        let mut a = filled(2 * ARENA_CHUNK + 5);
        let all = a.bytes();
        a.clear(usize::MAX);
        assert_eq!((a.len(), a.room(), a.bytes()), (0, 3 * ARENA_CHUNK, all));
        assert_eq!(a.push(9, 9), 0);
        assert_eq!((*a.key(0), a.meta(0)), (9, 9));
        a.clear(1);
        assert_eq!((a.len(), a.room()), (0, ARENA_CHUNK));
        assert!(a.bytes() >= Arena::<u64, u16>::CHUNK_BYTES);
        assert!(a.bytes() < 2 * Arena::<u64, u16>::CHUNK_BYTES);
        a.clear(0);
        assert_eq!((a.len(), a.room(), a.bytes()), (0, 0, 0));
        assert!(a.is_empty());
    }
}
