//! The node arena: every stored state once, as its key plus a 2-byte meta word (4 bytes after
//! widening), in fixed-size chunks (structure of arrays, so a `u64` key costs 8 bytes and the
//! meta word 2, with no padding).

use std::mem::size_of;

/// States per chunk (a power of two): 16,384, so a chunk of `u64` keys and `u32` metas is
/// 192 KiB.
pub(crate) const CHUNK_BITS: u32 = 14;
/// States per chunk.
pub(crate) const CHUNK: usize = 1 << CHUNK_BITS;
const MASK: usize = CHUNK - 1;

/// A node's meta word: g, the move that reached the node (2 bits, meaningless for the root) and
/// a closed flag (the node was expanded with its current g). Bits 0–1 hold the move, bit 2 the
/// flag, the rest g.
pub(crate) trait Meta: Copy + std::fmt::Debug + Send + Sync + 'static {
    /// Largest g the word holds, in moves.
    const G_MAX: u32;
    /// An open node's word. `g` must be at most [`Meta::G_MAX`].
    fn pack(g: u32, came: usize) -> Self;
    /// The word as a `u32`, same layout.
    fn word(self) -> u32;
    /// g, in moves.
    #[inline]
    fn g(self) -> u32 {
        self.word() >> 3
    }
    /// The index (see `Move::index`) of the move that reached the node.
    #[inline]
    fn came(self) -> usize {
        (self.word() & 3) as usize
    }
    /// Whether the node is closed.
    #[inline]
    fn is_closed(self) -> bool {
        self.word() & 4 != 0
    }
    /// The word with the closed flag set.
    #[must_use]
    fn closed(self) -> Self;
}

/// Two bytes: g up to 8,191 moves, far beyond any board that A* can search in memory except
/// contrived huge ones, for which the arena is widened to [`u32`] words.
impl Meta for u16 {
    const G_MAX: u32 = (1 << 13) - 1;
    #[inline]
    fn pack(g: u32, came: usize) -> u16 {
        debug_assert!(g <= Self::G_MAX && came < 4);
        ((g << 3) | came as u32) as u16
    }
    #[inline]
    fn word(self) -> u32 {
        u32::from(self)
    }
    #[inline]
    fn closed(self) -> u16 {
        self | 4
    }
}

/// Four bytes: g up to 2^29 − 1 moves.
impl Meta for u32 {
    const G_MAX: u32 = (1 << 29) - 1;
    #[inline]
    fn pack(g: u32, came: usize) -> u32 {
        debug_assert!(g <= Self::G_MAX && came < 4);
        (g << 3) | came as u32
    }
    #[inline]
    fn word(self) -> u32 {
        self
    }
    #[inline]
    fn closed(self) -> u32 {
        self | 4
    }
}

/// Keys and meta words of the stored states, indexed by `u32`.
#[derive(Debug)]
pub(crate) struct Arena<K, M> {
    keys: Vec<Vec<K>>,
    metas: Vec<Vec<M>>,
    len: usize,
}

impl<K, M> Default for Arena<K, M> {
    fn default() -> Self {
        Arena {
            keys: Vec::new(),
            metas: Vec::new(),
            len: 0,
        }
    }
}

impl<K, M: Meta> Arena<K, M> {
    /// Bytes one chunk reserves.
    pub(crate) const CHUNK_BYTES: u64 = (CHUNK * (size_of::<K>() + size_of::<M>())) as u64;

    /// Number of stored states.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// States that fit before another chunk is needed.
    #[inline]
    pub(crate) fn room(&self) -> usize {
        self.keys.len() * CHUNK - self.len
    }

    /// Allocates one more chunk.
    pub(crate) fn add_chunk(&mut self) {
        self.keys.push(Vec::with_capacity(CHUNK));
        self.metas.push(Vec::with_capacity(CHUNK));
    }

    /// Bytes reserved: the chunks plus the chunk tables.
    pub(crate) fn bytes(&self) -> u64 {
        let chunks: usize = self.keys.iter().map(Vec::capacity).sum::<usize>() * size_of::<K>()
            + self.metas.iter().map(Vec::capacity).sum::<usize>() * size_of::<M>();
        (chunks
            + self.keys.capacity() * size_of::<Vec<K>>()
            + self.metas.capacity() * size_of::<Vec<M>>()) as u64
    }

    /// The key of state `i`.
    #[inline]
    pub(crate) fn key(&self, i: u32) -> &K {
        let i = i as usize;
        &self.keys[i >> CHUNK_BITS][i & MASK]
    }

    /// The meta word of state `i`.
    #[inline]
    pub(crate) fn meta(&self, i: u32) -> M {
        let i = i as usize;
        self.metas[i >> CHUNK_BITS][i & MASK]
    }

    /// The meta word of state `i`, mutably.
    #[inline]
    pub(crate) fn meta_mut(&mut self, i: u32) -> &mut M {
        let i = i as usize;
        &mut self.metas[i >> CHUNK_BITS][i & MASK]
    }

    /// Stores a state and returns its index. The caller has made room ([`Arena::room`] > 0).
    #[inline]
    pub(crate) fn push(&mut self, key: K, meta: M) -> u32 {
        let c = self.len >> CHUNK_BITS;
        self.keys[c].push(key);
        self.metas[c].push(meta);
        let i = self.len as u32;
        self.len += 1;
        i
    }

    /// Forgets every state, keeping at most `keep` chunks allocated.
    pub(crate) fn clear(&mut self, keep: usize) {
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

    /// Bytes [`Arena::widen`] adds (the wider words, plus one chunk of them while converting).
    pub(crate) fn widen_bytes(&self) -> u64 {
        ((self.metas.len() + 1) * CHUNK * (size_of::<u32>() - size_of::<M>().min(4))) as u64
    }

    /// The same states with `u32` meta words. Converts one chunk at a time.
    pub(crate) fn widen(self) -> Arena<K, u32> {
        let metas = self
            .metas
            .into_iter()
            .map(|chunk| {
                let mut wide = Vec::with_capacity(CHUNK);
                wide.extend(chunk.into_iter().map(Meta::word));
                wide
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

    fn roundtrip<M: Meta>() {
        for g in [0, 1, 80, 8191, M::G_MAX] {
            for came in 0..4 {
                let m = M::pack(g, came);
                assert_eq!((m.g(), m.came(), m.is_closed()), (g, came, false));
                let c = m.closed();
                assert_eq!((c.g(), c.came(), c.is_closed()), (g, came, true));
                assert_eq!(u32::pack(g, came).closed(), c.word());
            }
        }
    }

    #[test]
    fn meta_roundtrip() {
        roundtrip::<u16>();
        roundtrip::<u32>();
        assert_eq!(<u16 as Meta>::G_MAX, 8191);
    }

    #[test]
    fn push_across_chunks_widen_and_clear() {
        let mut a = Arena::<u64, u16>::default();
        for i in 0..(2 * CHUNK + 5) as u64 {
            if a.room() == 0 {
                a.add_chunk();
            }
            assert_eq!(a.push(i * 7, u16::pack(i as u32 % 100, 1)), i as u32);
        }
        assert_eq!(a.len(), 2 * CHUNK + 5);
        assert_eq!(*a.key(CHUNK as u32 + 3), (CHUNK as u64 + 3) * 7);
        assert_eq!(a.meta(CHUNK as u32 + 3).g(), (CHUNK as u32 + 3) % 100);
        *a.meta_mut(2) = a.meta(2).closed();
        assert!(a.meta(2).is_closed());
        assert!(a.bytes() >= 3 * Arena::<u64, u16>::CHUNK_BYTES);
        let before = a.bytes();
        let extra = a.widen_bytes();
        let mut w = a.widen();
        assert!(w.bytes() <= before + extra);
        assert_eq!(w.len(), 2 * CHUNK + 5);
        assert!(w.meta(2).is_closed());
        assert_eq!(w.meta(CHUNK as u32 + 3).g(), (CHUNK as u32 + 3) % 100);
        assert_eq!(*w.key(2 * CHUNK as u32 + 4), (2 * CHUNK as u64 + 4) * 7);
        w.clear(1);
        assert_eq!((w.len(), w.room()), (0, CHUNK));
        w.clear(0);
        assert_eq!((w.len(), w.room(), w.bytes()), (0, 0, 0));
    }
}
