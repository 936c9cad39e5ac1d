//! Opening a [`crate::TableSet`]'s tables from the cache (building and storing the missing ones
//! as a [`BuildPolicy`] allows), with the [`Event`]s reported on the way.

use std::path::Path;

use crate::{Cache, FORMAT_VERSION, PdbError, Table, TableKey, TableKind, format_groups};

/// When [`crate::TableSet::open`] may build a table that is missing from the cache (or unusable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildPolicy {
    /// Build any missing table.
    Always,
    /// Build only tables of at most this many entries; fail with [`PdbError::NotCached`]
    /// otherwise.
    UpTo(u64),
    /// Never build; fail with [`PdbError::NotCached`].
    Never,
}

/// What [`crate::TableSet::open`] does, reported as it happens.
#[derive(Debug)]
pub enum Event<'a> {
    /// A table was loaded from the cache.
    Loaded {
        /// The group.
        tiles: &'a [u8],
        /// The file.
        path: &'a Path,
    },
    /// A table was loaded from a file of an older format version and rewritten in the current
    /// one (same entries; the current format loads faster), unless `store_error` is set.
    Upgraded {
        /// The group.
        tiles: &'a [u8],
        /// The file.
        path: &'a Path,
        /// The version it had.
        from_version: u32,
        /// Why it could not be rewritten, if it could not (the loaded table is used anyway).
        store_error: Option<&'a PdbError>,
    },
    /// A cached file was unusable and will be rebuilt.
    Rejected {
        /// Why.
        error: &'a PdbError,
    },
    /// Another process holds the build lock of a missing table ([`Cache::lock`]): this one
    /// waits for it, then loads what it stored (or builds the table itself if it did not).
    Waiting {
        /// The group.
        tiles: &'a [u8],
        /// The lock file.
        lock: &'a Path,
    },
    /// Temporary files left by a build that died (killed while writing the table) were
    /// removed.
    Cleaned {
        /// The group.
        tiles: &'a [u8],
        /// How many files.
        files: usize,
    },
    /// A table is about to be built (a region-coded one: derived from the zero-aware table,
    /// [`crate::ZeroAwareDb::with_cached_region_codes`]).
    Building {
        /// The group.
        tiles: &'a [u8],
        /// Which kind of table.
        kind: TableKind,
        /// Its entries.
        entries: u64,
        /// Peak memory of the build, in bytes ([`crate::IndexKind::build_memory`]).
        memory: u64,
    },
    /// A table was built (and stored, if `path` is set).
    Built {
        /// The group.
        tiles: &'a [u8],
        /// Build time in seconds.
        seconds: f64,
        /// Where it was stored, if it could be.
        path: Option<&'a Path>,
        /// Why it could not be stored, if it could not.
        store_error: Option<&'a PdbError>,
    },
}

/// Loads the table `key` (of the group `tiles`) from `cache`, or builds it with `build` (whose
/// peak memory is `memory` bytes) and stores it, as `policy` allows, reporting [`Event`]s: the
/// per-table part of [`crate::TableSet::open`], shared with the zero-aware tables' region-coded
/// forms ([`crate::ZeroAwareDb::with_cached_region_codes`]). `source` is what the file must record
/// of its source ([`Cache::load_derived`]; 0 for a table that is not derived), and is recorded
/// when the table is stored.
///
/// # Errors
/// As [`crate::TableSet::open`]; whatever `build` returns.
pub(crate) fn open_table(
    (key, source): (&TableKey, u64),
    tiles: &[u8],
    cache: &Cache,
    policy: BuildPolicy,
    memory: u64,
    events: &mut dyn FnMut(Event<'_>),
    build: impl FnOnce() -> Result<Vec<u8>, PdbError>,
) -> Result<Table, PdbError> {
    let entries = key.entries()?;
    let path = cache.path(key);
    match cache.load_derived(key, source) {
        Ok(Some(t)) => {
            events(Event::Loaded { tiles, path: &path });
            // Rewriting renames a new file over the old one; `t` keeps mapping the old
            // contents, which are the same entries.
            if let Some(v) = t.format_version().filter(|&v| v < FORMAT_VERSION)
                && policy != BuildPolicy::Never
            {
                let stored = cache.store_derived(key, &t, source);
                events(Event::Upgraded {
                    tiles,
                    path: &path,
                    from_version: v,
                    store_error: stored.as_ref().err(),
                });
            }
            return Ok(t);
        }
        Ok(None) => {}
        Err(e @ PdbError::Corrupt { .. }) => events(Event::Rejected { error: &e }),
        Err(e) => return Err(e),
    }
    let allowed = match policy {
        BuildPolicy::Always => true,
        BuildPolicy::UpTo(max) => entries <= max,
        BuildPolicy::Never => false,
    };
    if !allowed {
        return Err(PdbError::NotCached {
            tiles: format_groups(&[tiles.to_vec()]),
            entries,
            dir: cache.dir().to_path_buf(),
        });
    }
    // One builder per table at a time: whoever waited for the lock finds the table stored by
    // the process that held it.
    let lock = cache.lock(key, &mut |lock| {
        events(Event::Waiting { tiles, lock });
    });
    if let Some(l) = &lock {
        if l.removed_temporaries() > 0 {
            events(Event::Cleaned {
                tiles,
                files: l.removed_temporaries(),
            });
        }
        match cache.load_derived(key, source) {
            Ok(Some(t)) => {
                events(Event::Loaded { tiles, path: &path });
                return Ok(t);
            }
            // Missing, or corrupt (reported above already if it was there before): built
            // either way.
            Ok(None) | Err(PdbError::Corrupt { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    events(Event::Building {
        tiles,
        kind: key.kind,
        entries,
        memory,
    });
    let start = std::time::Instant::now();
    let t = build()?;
    let seconds = start.elapsed().as_secs_f64();
    let stored = cache.store_derived(key, &t, source);
    events(Event::Built {
        tiles,
        seconds,
        path: stored.as_deref().ok(),
        store_error: stored.as_ref().err(),
    });
    drop(lock);
    Ok(t.into())
}

impl Cache {
    /// Loads the file `key` from this cache, or builds it with `build` and stores it, as
    /// [`crate::TableSet::open`] does each of its tables (with [`BuildPolicy::Always`]): a
    /// damaged file, or something else where it belongs (a FIFO, a directory), is reported as
    /// [`Event::Rejected`] and replaced; the build holds the build lock ([`Cache::lock`]), so
    /// that a process that waited for it loads what the other stored; a file that cannot be
    /// stored is reported in [`Event::Built`] and the built bytes are returned anyway. For a
    /// file that belongs to no table set: a [`TableKind::Automaton`]. O(file) to load (its
    /// checksum), as `build` to build.
    ///
    /// # Errors
    /// [`PdbError::Io`] when the file exists but cannot be read; whatever `build` returns.
    pub fn open_or_build(
        &self,
        key: &TableKey,
        events: &mut dyn FnMut(Event<'_>),
        build: impl FnOnce() -> Result<Vec<u8>, PdbError>,
    ) -> Result<Table, PdbError> {
        open_table(
            (key, 0),
            &key.tiles,
            self,
            BuildPolicy::Always,
            0,
            events,
            build,
        )
    }
}
