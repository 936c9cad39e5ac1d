//! Storage of one bidirectional search: the meta words of core's node store (each state stored
//! once, with one meta half-word per direction) and the bucketed open lists.

use std::hash::Hash;
use std::mem::size_of;

use npuzzle_core::NodeStore;

/// Smallest capacity an open bucket is given, in entries.
const MIN_BUCKET: usize = 32;

/// One direction's 2-byte meta word of a state: g (13 bits), the move that reached the state in
/// that direction (2 bits) and a closed flag (the state was expanded in that direction with its
/// current g). `u16::MAX` means the direction has not reached the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Half(u16);

impl Half {
    /// The direction has not reached the state.
    pub(crate) const ABSENT: Half = Half(u16::MAX);
    /// Largest g a word holds, in moves (one less than 2^13 − 1, which would collide with
    /// [`Half::ABSENT`]).
    pub(crate) const G_MAX: u32 = (1 << 13) - 2;

    /// An open state's word. `g` must be at most [`Half::G_MAX`].
    #[inline]
    pub(crate) fn open(g: u32, came: usize) -> Half {
        debug_assert!(g <= Self::G_MAX && came < 4);
        Half(((g << 3) | came as u32) as u16)
    }

    /// Whether the direction has reached the state.
    #[inline]
    pub(crate) fn is_present(self) -> bool {
        self != Self::ABSENT
    }

    /// g, in moves (meaningless when absent).
    #[inline]
    pub(crate) fn g(self) -> u32 {
        u32::from(self.0 >> 3)
    }

    /// The index (see `Move::index`) of the move that reached the state.
    #[inline]
    pub(crate) fn came(self) -> usize {
        (self.0 & 3) as usize
    }

    /// Whether the state was expanded in this direction with its current g.
    #[inline]
    pub(crate) fn is_closed(self) -> bool {
        self.0 & 4 != 0
    }

    /// The word with the closed flag set.
    #[inline]
    #[must_use]
    pub(crate) fn closed(self) -> Half {
        Half(self.0 | 4)
    }
}

/// The stored states: keys and meta words (forward, backward), indexed by `u32`, in core's
/// [`NodeStore`] (arena chunks of 16,384 states, structure of arrays: no padding, so a `u64` key
/// and its two words take 12 bytes; visited map; memory accounting). [`Halves`] reads and
/// writes one direction's word.
pub(crate) type Store<K> = NodeStore<K, [Half; 2]>;

/// The two words of a state reached by direction `d` only, with word `h`.
#[inline]
pub(crate) fn only(d: usize, h: Half) -> [Half; 2] {
    let mut metas = [Half::ABSENT; 2];
    metas[d] = h;
    metas
}

/// One direction's word of the states of a [`Store`].
pub(crate) trait Halves {
    /// Direction `d`'s meta word of state `i`.
    fn half(&self, i: u32, d: usize) -> Half;
    /// Sets direction `d`'s meta word of state `i`.
    fn set_half(&mut self, i: u32, d: usize, h: Half);
}

impl<K: Hash + Eq> Halves for Store<K> {
    #[inline]
    fn half(&self, i: u32, d: usize) -> Half {
        self.meta(i)[d]
    }

    #[inline]
    fn set_half(&mut self, i: u32, d: usize, h: Half) {
        self.meta_mut(i)[d] = h;
    }
}

/// One direction's open list: arena indices in buckets by g and h (`levels[g][h]`).
///
/// Unit move costs make g and h small integers, so buckets replace a heap: pushing and popping
/// are O(1), an entry costs 4 bytes, and the search can sweep "every open state with g < gLim
/// and f ≤ fLim, in order of g" directly. A state reached again by a shorter path gets a new
/// entry; the old one is recognised as stale when popped (its g no longer matches).
#[derive(Debug, Default)]
pub(crate) struct Open {
    levels: Vec<Vec<Vec<u32>>>,
    /// Bytes reserved: entry capacities plus the bucket tables.
    bytes: u64,
    /// Entries held (stale ones included).
    entries: u64,
}

impl Open {
    /// Bytes reserved by the buckets and their tables.
    #[inline]
    pub(crate) fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Entries held, stale ones included.
    #[inline]
    pub(crate) fn entries(&self) -> u64 {
        self.entries
    }

    /// Whether bucket (`g`, `h`) can take one more entry without growing.
    #[inline]
    pub(crate) fn has_room(&self, g: u32, h: u32) -> bool {
        self.levels
            .get(g as usize)
            .and_then(|l| l.get(h as usize))
            .is_some_and(|v| v.len() < v.capacity())
    }

    /// Bytes that [`Open::grow`] would reserve for bucket (`g`, `h`), counting the new
    /// allocation in full (the old one is held while the entries are copied).
    pub(crate) fn growth_bytes(&self, g: u32, h: u32) -> u64 {
        let (g, h) = (g as usize, h as usize);
        let mut tables = 0;
        if g >= self.levels.len() {
            tables += (g + 1 - self.levels.len()) * size_of::<Vec<Vec<u32>>>();
        }
        let row = self.levels.get(g).map_or(0, Vec::len);
        if h >= row {
            tables += (h + 1 - row) * size_of::<Vec<u32>>();
        }
        let cap = self
            .levels
            .get(g)
            .and_then(|l| l.get(h))
            .map_or(0, Vec::capacity);
        (tables + Self::next_capacity(cap) * size_of::<u32>()) as u64
    }

    fn next_capacity(cap: usize) -> usize {
        cap + (cap / 4).max(MIN_BUCKET)
    }

    /// Makes room for one entry in bucket (`g`, `h`): creates the level and the bucket if
    /// needed and grows the bucket by a quarter (at least [`MIN_BUCKET`] entries).
    #[cold]
    #[inline(never)]
    pub(crate) fn grow(&mut self, g: u32, h: u32) {
        let (g, h) = (g as usize, h as usize);
        let old_tables = self.table_bytes();
        // Exact reservations keep the tables' bytes predictable (a few hundred levels and
        // buckets at most, so the reallocations cost nothing measurable).
        if g >= self.levels.len() {
            self.levels.reserve_exact(g + 1 - self.levels.len());
            self.levels.resize_with(g + 1, Vec::new);
        }
        let level = &mut self.levels[g];
        if h >= level.len() {
            level.reserve_exact(h + 1 - level.len());
            level.resize_with(h + 1, Vec::new);
        }
        let v = &mut level[h];
        let cap = v.capacity();
        v.reserve_exact(Self::next_capacity(cap) - v.len());
        let added = (v.capacity() - cap) * size_of::<u32>();
        let new_tables = self.table_bytes();
        self.bytes = self.bytes + added as u64 + new_tables - old_tables;
    }

    fn table_bytes(&self) -> u64 {
        (self.levels.capacity() * size_of::<Vec<Vec<u32>>>()
            + self
                .levels
                .iter()
                .map(|l| l.capacity() * size_of::<Vec<u32>>())
                .sum::<usize>()) as u64
    }

    /// Adds state `i` to bucket (`g`, `h`). The caller has made room ([`Open::has_room`]).
    #[inline]
    pub(crate) fn push(&mut self, g: u32, h: u32, i: u32) {
        self.levels[g as usize][h as usize].push(i);
        self.entries += 1;
    }

    /// Pops an entry of bucket (`g`, `h`), if any. A bucket that becomes empty is freed.
    #[inline]
    pub(crate) fn pop(&mut self, g: u32, h: u32) -> Option<u32> {
        let v = self.levels.get_mut(g as usize)?.get_mut(h as usize)?;
        let i = v.pop()?;
        self.entries -= 1;
        if v.is_empty() {
            self.bytes -= (v.capacity() * size_of::<u32>()) as u64;
            *v = Vec::new();
        }
        Some(i)
    }

    /// Entries of level `g` with h ≤ `h_max` (stale ones included).
    pub(crate) fn count(&self, g: u32, h_max: u32) -> u64 {
        self.levels.get(g as usize).map_or(0, |level| {
            level
                .iter()
                .take((h_max as usize).saturating_add(1))
                .map(|v| v.len() as u64)
                .sum()
        })
    }

    /// Forgets every entry and frees the buckets.
    pub(crate) fn clear(&mut self) {
        *self = Open::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_words_roundtrip() {
        for g in [0, 1, 80, Half::G_MAX] {
            for came in 0..4 {
                let h = Half::open(g, came);
                assert!(h.is_present());
                assert_eq!((h.g(), h.came(), h.is_closed()), (g, came, false));
                let c = h.closed();
                assert!(c.is_present());
                assert_eq!((c.g(), c.came(), c.is_closed()), (g, came, true));
            }
        }
        assert!(!Half::ABSENT.is_present());
    }

    #[test]
    fn store_across_chunks() {
        use npuzzle_core::{ARENA_CHUNK as CHUNK, Arena, Visit};
        let mut a = Store::<u64>::default();
        a.begin(u64::MAX, 0);
        for i in 0..(2 * CHUNK + 5) as u64 {
            if !a.has_room(1) {
                assert!(a.grow(1, 0, 0));
            }
            let d = (i % 2) as usize;
            assert_eq!(
                a.find_or_insert(i * 7, only(d, Half::open(i as u32 % 100, 1))),
                Visit::New(i as u32)
            );
        }
        let i = CHUNK as u32 + 3;
        assert_eq!(*a.key(i), u64::from(i) * 7);
        assert_eq!(a.half(i, 1).g(), i % 100);
        assert!(!a.half(i, 0).is_present());
        a.set_half(i, 0, Half::open(9, 2).closed());
        assert!(a.half(i, 0).is_closed());
        assert!(a.arena().bytes() >= 3 * Arena::<u64, [Half; 2]>::CHUNK_BYTES);
        let bytes = a.bytes();
        a.clear();
        assert_eq!(
            (a.len(), a.arena().room(), a.bytes()),
            (0, 3 * CHUNK, bytes)
        );
    }

    #[test]
    fn open_buckets_account_their_bytes() {
        let mut o = Open::default();
        for i in 0..1000u32 {
            let (g, h) = (i % 7, i % 5);
            if !o.has_room(g, h) {
                let predicted = o.growth_bytes(g, h);
                let before = o.bytes();
                o.grow(g, h);
                assert!(o.bytes() - before <= predicted, "at {i}");
            }
            o.push(g, h, i);
        }
        assert_eq!(o.entries(), 1000);
        assert_eq!(o.count(3, 4), 1000 / 7 + 1);
        assert_eq!(o.count(3, 1), o.count(3, 0) + o.levels[3][1].len() as u64);
        let eligible = o.count(3, 2);
        assert!(eligible > 0 && eligible < o.count(3, 4));
        let mut popped = 0;
        for h in 0..=2 {
            while let Some(i) = o.pop(3, h) {
                assert_eq!((i % 7, i % 5), (3, h));
                popped += 1;
            }
        }
        assert_eq!(popped, eligible);
        assert_eq!(o.count(3, 2), 0);
        assert_eq!(o.pop(3, 9), None);
        assert_eq!(o.pop(70, 0), None);
        let exact: u64 = o
            .levels
            .iter()
            .flatten()
            .map(|v| (v.capacity() * 4) as u64)
            .sum::<u64>()
            + o.table_bytes();
        assert_eq!(o.bytes(), exact);
        o.clear();
        assert_eq!((o.bytes(), o.entries(), o.levels.len()), (0, 0, 0));
    }
}
