//! A table's entries in memory: owned, memory-mapped from a cache file, or copied into
//! anonymous (huge-page) memory.

use std::fs;
use std::ops::Deref;

use memmap2::Mmap;
use rayon::prelude::*;

use super::format::HEADER_LEN;

/// One group's pattern table: one byte per entry (the value in moves), indexed by
/// [`Indexer::rank`](crate::Indexer::rank). Either built in memory or a read-only memory mapping of a checked cache
/// file (see the module docs); both dereference to the entries as `&[u8]`.
pub struct Table(pub(super) Repr);

pub(super) enum Repr {
    Owned(Vec<u8>),
    /// The whole file (entries after the header), its format version and its table checksum
    /// (checked against the entries when the file was loaded).
    Mapped(Mmap, u32, u64),
    /// The entries copied into private anonymous memory ([`Table::to_huge_pages`]), and their
    /// number (the mapping has at least one byte).
    Anonymous(Mmap, usize),
}

impl Table {
    /// Whether the entries are mapped from a cache file (rather than held in private memory).
    pub fn is_mapped(&self) -> bool {
        matches!(self.0, Repr::Mapped(..))
    }

    /// The format version of the file the entries are mapped from; `None` if built in memory.
    pub fn format_version(&self) -> Option<u32> {
        match self.0 {
            Repr::Owned(_) | Repr::Anonymous(..) => None,
            Repr::Mapped(_, v, _) => Some(v),
        }
    }

    /// The digest of the entries that derived tables record as their source
    /// ([`crate::Header::source`]): the table checksum of the current format. Read from the
    /// header of the file the entries are mapped from when that file is of the current format
    /// ([`Cache::load`](crate::Cache::load) checked it against the entries), else computed:
    /// O(entries), in parallel.
    pub(crate) fn digest(&self) -> u64 {
        match self.0 {
            Repr::Mapped(_, super::format::FORMAT_VERSION, checksum) => checksum,
            _ => super::format::digest(self),
        }
    }

    /// A private copy of the entries in anonymous memory that the kernel is asked to back with
    /// transparent huge pages (`madvise(MADV_HUGEPAGE)` on Linux; plain anonymous memory
    /// elsewhere). With 2 MiB pages a search's random lookups into tables of hundreds of MB
    /// miss the TLB far less often than with the 4 KiB pages of a file mapping (BENCHMARKS.md,
    /// "24-puzzle"). O(entries) time; the copy is private memory, not shared through the page
    /// cache.
    ///
    /// # Errors
    /// The error of the anonymous mapping (out of memory).
    pub fn to_huge_pages(&self) -> std::io::Result<Table> {
        Table::huge_pages_copy(self)
    }

    /// A table of `entries` copied as [`Table::to_huge_pages`] copies a table's: a part of a
    /// table, for instance. O(`entries.len()`).
    ///
    /// # Errors
    /// The error of the anonymous mapping (out of memory).
    pub fn huge_pages_copy(entries: &[u8]) -> std::io::Result<Table> {
        let map = huge_page_map(entries)?;
        Ok(Table(Repr::Anonymous(map, entries.len())))
    }
}

/// The copy's chunk: one 2 MiB huge page.
pub(super) const HUGE_PAGE: usize = 2 << 20;

/// `bytes` copied into read-only anonymous memory (at least one byte) that the kernel is asked
/// to back with transparent huge pages: [`Table::huge_pages_copy`]'s memory. Copied 2 MiB at a
/// time on rayon's threads (on 2 cores the 24-puzzle's 486 MB took 0.06–0.07 s of a process's
/// wall time instead of 0.20–0.25 s, BENCHMARKS.md, "The tables mapped in 2 MiB folios
/// against the huge-page copy"). O(bytes).
///
/// # Errors
/// The error of the anonymous mapping (out of memory).
pub(crate) fn huge_page_map(bytes: &[u8]) -> std::io::Result<Mmap> {
    let mut anon = memmap2::MmapMut::map_anon(bytes.len().max(1))?;
    #[cfg(target_os = "linux")]
    {
        // Only a hint: without transparent huge pages the copy still works.
        let _ = anon.advise(memmap2::Advice::HugePage);
    }
    // A huge page at a time on rayon's threads: most of a copy's time is the kernel zeroing
    // each new page at its first write, which the cores then do side by side.
    anon[..bytes.len()]
        .par_chunks_mut(HUGE_PAGE)
        .zip(bytes.par_chunks(HUGE_PAGE))
        .for_each(|(to, from)| to.copy_from_slice(from));
    anon.make_read_only()
}

impl Deref for Table {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Repr::Owned(v) => v,
            Repr::Mapped(m, _, _) => &m[HEADER_LEN..],
            Repr::Anonymous(m, len) => &m[..*len],
        }
    }
}

impl From<Vec<u8>> for Table {
    fn from(v: Vec<u8>) -> Table {
        Table(Repr::Owned(v))
    }
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("entries", &self.len())
            .field("mapped", &self.is_mapped())
            .finish()
    }
}

/// Maps all of `file` read-only, asking (on Linux) for transparent huge pages: the pages this
/// mapping faults in from the file then come into the page cache as 2 MiB folios, mapped by
/// one page-table entry each, which later processes mapping the file share. Without the
/// advice they come in as 4 KiB pages and stay so while cached, and IDA\*'s lookups spread
/// over the 4×4's 495 MiB 8-tile table took about 1.3× the time (BENCHMARKS.md, "The tables'
/// pages"). Pages already cached keep their size; a kernel without huge pages for files
/// ignores the advice. O(1).
#[allow(unsafe_code)]
pub(super) fn map_read_only(file: &fs::File) -> std::io::Result<Mmap> {
    // SAFETY: `Mmap::map` is unsafe because the mapped bytes change (or, on truncation, fault
    // with SIGBUS) if the file is modified while mapped. Cache files are never modified in
    // place by this crate: `Cache::store` writes a new file and renames it over the name, and
    // `Cache::clear` unlinks, and a mapping keeps the old file's contents in both cases. The
    // mapping is read-only, the bytes are plain `u8` (every value valid), and the
    // caller checks length and checksum before any entry is used. Other programs modifying
    // the cache in place are outside this contract (module docs).
    let map = unsafe { Mmap::map(file) }?;
    #[cfg(target_os = "linux")]
    {
        // Only a hint: without it the mapping works as well, with 4 KiB pages.
        let _ = map.advise(memmap2::Advice::HugePage);
    }
    Ok(map)
}
