//! The meta words A* stores with every state in its node arena ([`npuzzle_core::Arena`]): a
//! 2-byte word, widened to 4 bytes (`arena.map_meta(Meta::word)`, same layout) when g outgrows
//! it.

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
    fn widening_an_arena_keeps_every_word() {
        use npuzzle_core::{ARENA_CHUNK, Arena};
        let n = ARENA_CHUNK as u32 + 5;
        let mut a = Arena::<u64, u16>::default();
        for i in 0..n {
            if a.room() == 0 {
                a.add_chunk();
            }
            a.push(u64::from(i), u16::pack(i % 100, (i % 4) as usize));
        }
        *a.meta_mut(n - 1) = a.meta(n - 1).closed();
        let w: Arena<u64, u32> = a.map_meta(Meta::word);
        for i in [0, 99, ARENA_CHUNK as u32, n - 1] {
            let m = w.meta(i);
            assert_eq!((m.g(), m.came()), (i % 100, (i % 4) as usize));
            assert_eq!(m.is_closed(), i == n - 1);
        }
    }
}
