//! One table set over an index kind: what every kind of table does alike, written once (see
//! the crate docs, "Table sets and index kinds").

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use npuzzle_core::{Board, Goal};

use crate::open::open_table;
use crate::reflection::{Reflection, reflection};
use crate::{
    BuildPolicy, BuildProgress, Cache, Event, MAX_INDEX_CELLS, PartitionSpec, PdbError, Table,
    TableKey, TableKind, format_groups, partition,
};

/// A tile in no group, in [`TableSet`]'s tile maps.
pub(crate) const NONE: u8 = u8::MAX;

mod sealed {
    use npuzzle_core::Goal;

    use crate::PdbError;

    /// Only this crate's kinds implement [`super::IndexKind`]: the search code of each kind
    /// (its `Heuristic` impl) lives here too.
    pub trait Sealed {}

    /// One group's ranking of its patterns, as a [`super::TableSet`] needs it: implemented by
    /// [`crate::Indexer`] and the shared [`crate::ZeroAwareIndexer`].
    pub trait Ranking: Clone + std::fmt::Debug + Send + Sync + Sized {
        /// The ranking of the group `tiles` (ascending) for `goal`.
        ///
        /// # Errors
        /// [`PdbError::TableTooLarge`] (and others) as the ranking's constructor.
        fn for_group(goal: &Goal, tiles: &[u8]) -> Result<Self, PdbError>;

        /// The entries of a table so ranked.
        fn entries(&self) -> u64;
    }
}
pub(crate) use sealed::{Ranking, Sealed};

/// A builder of one group's table: `(goal, tiles, progress, cancel)` → the entries, reporting
/// `progress` (from worker threads) and stopping with [`PdbError::Cancelled`] soon after
/// `cancel` is set ([`crate::build_table_cancellable`] and its kin).
pub type TableBuilder = fn(
    &Goal,
    &[u8],
    &(dyn Fn(&BuildProgress) + Sync),
    Option<&AtomicBool>,
) -> Result<Vec<u8>, PdbError>;

impl Ranking for crate::Indexer {
    fn for_group(goal: &Goal, tiles: &[u8]) -> Result<Self, PdbError> {
        crate::Indexer::new(goal.shape().cells(), tiles.len())
    }

    fn entries(&self) -> u64 {
        self.size()
    }
}

/// What distinguishes one kind of table from another within a [`TableSet`]: how a group's
/// patterns are ranked, how its table is built and how much memory that takes, under which
/// [`TableKind`] its files are cached, and what a set of this kind holds besides its groups.
/// Implemented by [`crate::PlainKind`] ([`crate::PatternDb`]), [`crate::ZeroAwareKind`]
/// ([`crate::ZeroAwareDb`]), [`crate::TileOnlyKind`] ([`crate::TileOnlyDb`]) and
/// [`crate::MtmKind`] ([`crate::MtmDb`]); sealed: a
/// kind's search code (its `Heuristic` impl) lives in this crate too (see the crate docs,
/// "Table sets and index kinds").
pub trait IndexKind: Sealed + Copy + std::fmt::Debug + Send + Sync + 'static {
    /// One group's ranking of its patterns ([`crate::Indexer`], or a shared
    /// [`crate::ZeroAwareIndexer`]).
    type Indexer: Ranking;
    /// What a set of this kind holds besides its groups (`()` if nothing).
    type Extra: Clone + std::fmt::Debug + Send + Sync;

    /// The kind of the table files ([`TableKey::kind`]).
    const TABLE: TableKind;
    /// How the kind is named before "table" in messages: `""`, `"zero-aware "`, `"tile-only "`.
    const ADJECTIVE: &'static str;
    /// Builds one group's table.
    const BUILD: TableBuilder;
    /// The largest board, in cells, whose tables this kind holds.
    const MAX_BOARD_CELLS: usize = crate::MAX_CELLS;
    /// Whether the reflected lookup applies (on goals that allow it, [`TableSet::reflects`]).
    const REFLECTS: bool = true;
    /// What [`TableSet::with_cached_derived`] adds, in words (`"region-coded forms"`); empty
    /// for kinds that derive nothing.
    const DERIVED: &'static str = "";

    /// Peak memory of building the table of the group `tiles` for `goal`, in bytes.
    ///
    /// # Errors
    /// [`PdbError::TableTooLarge`] as the ranking's constructor.
    fn build_memory(goal: &Goal, tiles: &[u8]) -> Result<u64, PdbError>;

    /// Refuses goals whose tables are of another kind ([`TableSet::open`]).
    ///
    /// # Errors
    /// [`PdbError::BadPartition`] saying which kind serves the board.
    fn check_open(_goal: &Goal) -> Result<(), PdbError> {
        Ok(())
    }

    /// What a new set for `goal` holds besides its groups.
    fn extra(goal: &Goal) -> Self::Extra;

    /// Bytes of tables held in [`IndexKind::Extra`] ([`TableSet::table_bytes`]).
    fn extra_bytes(_extra: &Self::Extra) -> u64 {
        0
    }

    /// [`TableSet::with_cached_derived`]: by default the set as it is.
    ///
    /// # Errors
    /// As the kind's derivation.
    fn cached_derived(
        set: TableSet<Self>,
        _cache: &Cache,
        _events: &mut dyn FnMut(Event<'_>),
    ) -> Result<TableSet<Self>, PdbError> {
        Ok(set)
    }

    /// [`TableSet::with_huge_pages`]: by default every group's table copied.
    ///
    /// # Errors
    /// [`PdbError::Io`] if the memory cannot be mapped.
    fn huge_pages(set: TableSet<Self>) -> Result<TableSet<Self>, PdbError> {
        set.with_huge_group_tables()
    }
}

/// One group's table.
#[derive(Debug)]
pub(crate) struct Group<I> {
    /// The group's tiles, ascending (the ranking's tile order).
    pub(crate) tiles: Vec<u8>,
    pub(crate) ix: I,
    pub(crate) table: Table,
}

/// A set of disjoint pattern databases of one [`IndexKind`]: one table per group of tiles, the
/// heuristic being the sum of the groups' values (and, where the kind and the goal allow it,
/// the maximum of that sum on the board and on its reflection about the main diagonal); the
/// multi-tile kind's values are not additive and combine by maximum instead.
/// [`crate::PatternDb`], [`crate::ZeroAwareDb`], [`crate::TileOnlyDb`] and [`crate::MtmDb`] are
/// its kinds, each with its own `Heuristic` impl (memo and lookups).
///
/// Memory: the tables, one byte per entry, private if built, shared through the page cache if
/// loaded from the cache; plus two tile maps of [`MAX_INDEX_CELLS`] bytes. Clones share the
/// tables.
#[derive(Clone, Debug)]
pub struct TableSet<K: IndexKind> {
    /// Cells of the board.
    pub(crate) n: usize,
    partition: Arc<str>,
    pub(crate) groups: Arc<[Group<K::Indexer>]>,
    /// Tile → index of its group, [`NONE`] for tiles in no group.
    pub(crate) group_of: [u8; MAX_INDEX_CELLS],
    /// Tile → its index within its group's (ascending) tiles, [`NONE`] for tiles in no group.
    pub(crate) slot_of: [u8; MAX_INDEX_CELLS],
    pub(crate) reflection: Option<Reflection>,
    /// The goal the tables are for.
    pub(crate) goal: Arc<Goal>,
    pub(crate) extra: K::Extra,
}

impl<K: IndexKind> TableSet<K> {
    /// Assembles a set from already-built tables, one `(tiles, table)` per group (any tile
    /// order), for `goal` (a `Vec<u8>` of entries converts into a [`Table`] with `.into()`).
    /// Reflection is used if `reflect` is set and valid for the kind and the goal (see
    /// [`TableSet::reflects`]). O(N + groups) plus the kind's rankings (shared, computed once
    /// per process and board for zero-aware ones).
    ///
    /// # Errors
    /// [`PdbError::BoardTooLarge`] past [`IndexKind::MAX_BOARD_CELLS`] cells;
    /// [`PdbError::BadGroup`] / [`PdbError::BadPartition`] for malformed or overlapping groups,
    /// or a table of the wrong length; [`PdbError::TableTooLarge`] for groups too large to rank.
    pub fn from_tables(
        goal: &Goal,
        tables: Vec<(Vec<u8>, Table)>,
        reflect: bool,
    ) -> Result<TableSet<K>, PdbError> {
        let shape = goal.shape();
        let n = shape.cells();
        if n > K::MAX_BOARD_CELLS {
            return Err(PdbError::BoardTooLarge(n));
        }
        let mut group_of = [NONE; MAX_INDEX_CELLS];
        let mut slot_of = [NONE; MAX_INDEX_CELLS];
        let mut groups = Vec::with_capacity(tables.len());
        for (gi, (mut tiles, table)) in tables.into_iter().enumerate() {
            partition::check_group(&tiles, n)?;
            tiles.sort_unstable();
            let ix = K::Indexer::for_group(goal, &tiles)?;
            let expected = ix.entries();
            if table.len() as u64 != expected {
                return Err(PdbError::BadGroup(format!(
                    "the {}table of tiles {tiles:?} has {} entries, expected {expected}",
                    K::ADJECTIVE,
                    table.len(),
                )));
            }
            for (slot, &t) in tiles.iter().enumerate() {
                let t = usize::from(t);
                if group_of[t] != NONE {
                    return Err(PdbError::BadPartition(format!("tile {t} is in two groups")));
                }
                group_of[t] = gi as u8;
                slot_of[t] = slot as u8;
            }
            groups.push(Group { tiles, ix, table });
        }
        let partition = format_groups(&groups.iter().map(|g| g.tiles.clone()).collect::<Vec<_>>());
        Ok(TableSet {
            n,
            partition: partition.into(),
            groups: groups.into(),
            group_of,
            slot_of,
            reflection: if reflect && K::REFLECTS {
                reflection(goal)
            } else {
                None
            },
            goal: Arc::new(goal.clone()),
            extra: K::extra(goal),
        })
    }

    /// Builds every table of `spec` for `goal` in memory (no cache), one group after another,
    /// reporting `progress`; `reflect` as in [`TableSet::from_tables`].
    ///
    /// # Errors
    /// As [`PartitionSpec::resolve`], [`IndexKind::BUILD`] and [`TableSet::from_tables`].
    pub fn build(
        goal: &Goal,
        spec: &PartitionSpec,
        reflect: bool,
        progress: &(dyn Fn(&BuildProgress) + Sync),
    ) -> Result<TableSet<K>, PdbError> {
        let mut tables = Vec::new();
        for tiles in spec.resolve(goal)? {
            let t = (K::BUILD)(goal, &tiles, progress, None)?;
            tables.push((tiles, t.into()));
        }
        TableSet::from_tables(goal, tables, reflect)
    }

    /// Loads every table of `spec` for `goal` from `cache` (files keyed by the kind's
    /// [`TableKind`]), building (and storing) the missing or unusable ones as `policy` allows;
    /// `reflect` as in [`TableSet::from_tables`]. An unusable file is reported by
    /// [`Event::Rejected`] and replaced, never used. A file of an older format version is used
    /// and, unless `policy` is [`BuildPolicy::Never`], rewritten in the current format
    /// ([`Event::Upgraded`]; O(entries) once). A table that was built but could not be
    /// stored is still used (reported in [`Event::Built`]).
    ///
    /// A missing table is built under its build lock ([`Cache::lock`]): of several processes
    /// opening the same missing table at once, one builds and stores it while the others wait
    /// ([`Event::Waiting`]) and then load it; temporary files of builds that died are removed
    /// first ([`Event::Cleaned`]). A cache directory that cannot hold files (it is read-only,
    /// full, or a regular file) is no error: the tables are built in memory for this run and
    /// [`Event::Built`] carries the store error. A cancel flag on `cache`
    /// ([`Cache::cancel_on`]) stops a build.
    ///
    /// # Errors
    /// As [`IndexKind::check_open`] (tile-only tables on a board of at most 32 cells),
    /// [`PartitionSpec::resolve`] and [`IndexKind::BUILD`]; [`PdbError::NotCached`] when a
    /// table is missing and `policy` forbids building it; [`PdbError::Io`] if a file exists but
    /// cannot be read.
    pub fn open(
        goal: &Goal,
        spec: &PartitionSpec,
        reflect: bool,
        cache: &Cache,
        policy: BuildPolicy,
        events: &mut dyn FnMut(Event<'_>),
        progress: &(dyn Fn(&BuildProgress) + Sync),
    ) -> Result<TableSet<K>, PdbError> {
        K::check_open(goal)?;
        let mut tables = Vec::new();
        for tiles in spec.resolve(goal)? {
            let key = TableKey {
                kind: K::TABLE,
                ..TableKey::new(goal, &tiles)
            };
            let memory = K::build_memory(goal, &tiles)?;
            let t = open_table((&key, 0), &tiles, cache, policy, memory, events, || {
                (K::BUILD)(goal, &tiles, progress, cache.cancel_flag())
            })?;
            tables.push((tiles, t));
        }
        TableSet::from_tables(goal, tables, reflect)
    }

    /// The same set with its tables copied into anonymous memory backed by transparent huge
    /// pages where the kernel grants them ([`Table::to_huge_pages`]): for large tables (the
    /// 24-puzzle's 6-6-6-6, 486 MB) the lookups then miss the TLB far less often. O(total
    /// entries) time and that much private memory; for small tables (6-6-3) it brings nothing.
    /// Zero-aware sets copy their region-coded entries instead where they have them
    /// ([`crate::ZeroAwareDb`]'s `with_huge_pages` notes).
    ///
    /// # Errors
    /// [`PdbError::Io`] if the memory cannot be mapped.
    pub fn with_huge_pages(self) -> Result<TableSet<K>, PdbError> {
        K::huge_pages(self)
    }

    /// The same set with the forms its kind derives from its tables ([`IndexKind::DERIVED`]:
    /// a zero-aware set's region-coded tables, [`crate::ZeroAwareDb::with_cached_region_codes`])
    /// loaded from `cache` or derived and stored there, reporting [`Event`]s; the set as it is
    /// for kinds that derive nothing.
    ///
    /// # Errors
    /// As the kind's derivation ([`crate::ZeroAwareDb::with_cached_region_codes`]).
    pub fn with_cached_derived(
        self,
        cache: &Cache,
        events: &mut dyn FnMut(Event<'_>),
    ) -> Result<TableSet<K>, PdbError> {
        K::cached_derived(self, cache, events)
    }

    /// [`TableSet::with_huge_pages`] for every group's table.
    ///
    /// # Errors
    /// [`PdbError::Io`] if the memory cannot be mapped.
    pub(crate) fn with_huge_group_tables(self) -> Result<TableSet<K>, PdbError> {
        let groups = self
            .groups
            .iter()
            .map(|g| {
                Ok(Group {
                    tiles: g.tiles.clone(),
                    ix: g.ix.clone(),
                    table: huge_pages(&g.table)?,
                })
            })
            .collect::<Result<Vec<_>, PdbError>>()?;
        Ok(TableSet {
            groups: groups.into(),
            ..self
        })
    }

    /// The same set holding `extra` besides its groups.
    pub(crate) fn with_extra(self, extra: K::Extra) -> TableSet<K> {
        TableSet { extra, ..self }
    }

    /// Whether the reflected lookup is in use: asked for, supported by the kind (not by
    /// tile-only tables), and valid for the goal — a square board whose goal blank lies on the
    /// main diagonal (see the crate docs).
    pub fn reflects(&self) -> bool {
        self.reflection.is_some()
    }

    /// The groups, as `1,2,3/4,5,6`.
    pub fn partition(&self) -> &str {
        &self.partition
    }

    /// Total table memory in bytes: the groups' entries and whatever the kind holds besides
    /// (a zero-aware set's region-coded forms, once derived or loaded).
    pub fn table_bytes(&self) -> u64 {
        self.groups
            .iter()
            .map(|g| g.table.len() as u64)
            .sum::<u64>()
            + K::extra_bytes(&self.extra)
    }

    /// The heuristic of a placement whose groups' values are `direct(group)` (and, with
    /// reflection, `mirrored(reflection, group)` on the reflected board): the sum, or the larger
    /// of the two sums. O(groups) calls of each, inlined into each kind's evaluation.
    #[inline]
    pub(crate) fn sum_or_max(
        &self,
        direct: impl Fn(&Group<K::Indexer>) -> u32,
        mirrored: impl Fn(&Reflection, &Group<K::Indexer>) -> u32,
    ) -> u32 {
        let h = self.groups.iter().map(direct).sum();
        match &self.reflection {
            None => h,
            Some(r) => h.max(self.groups.iter().map(|g| mirrored(r, g)).sum()),
        }
    }

    /// The cells of all tiles: `pos[t]` = cell of tile `t` (`N` a power of two of at least
    /// the board's cells). O(board cells).
    #[inline]
    pub(crate) fn positions<B: Board, const N: usize>(&self, board: &B) -> [u8; N] {
        let mut pos = [0u8; N];
        for c in 0..self.n {
            pos[board.tile(c) % N] = c as u8;
        }
        pos
    }
}

/// A private copy of `entries` in transparent huge pages ([`Table::huge_pages_copy`]).
///
/// # Errors
/// [`PdbError::Io`] if the memory cannot be mapped.
pub(crate) fn huge_pages(entries: &[u8]) -> Result<Table, PdbError> {
    Table::huge_pages_copy(entries)
        .map_err(|e| PdbError::io(std::path::Path::new("<anonymous memory>"), e))
}
