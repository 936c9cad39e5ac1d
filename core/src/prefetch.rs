//! A software prefetch hint, for search kernels that know which table entries they will read
//! next (IDA\* prefetches its children's pattern-database entries and automaton rows).

/// Asks the processor to bring the cache line holding `*value` into all cache levels, without
/// waiting for it: a later read of that line then finds it in cache instead of stalling on
/// memory. A hint only: it never faults, changes no value and may be ignored.
///
/// On x86-64 one `prefetcht0` instruction (`_mm_prefetch` with `_MM_HINT_T0`); elsewhere a
/// no-op. O(1).
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 processor has (it is part of the
    // target's baseline features), and a prefetch reads nothing and cannot fault, whatever
    // the address; here it is a valid reference anyway.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    #[test]
    fn prefetch_changes_nothing() {
        let v = vec![7u8; 1 << 16];
        for i in (0..v.len()).step_by(64) {
            super::prefetch(&v[i]);
        }
        assert!(v.iter().all(|&b| b == 7));
    }
}
