//! The on-disk cache of pattern tables: one checksummed file per (shape, goal, group), written
//! atomically, memory-mapped when read.
//!
//! ## File format (version 2; version 1 is still read)
//! A 128-byte header, little-endian, then the table (one byte per entry):
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `NPZPDB\r\n` (the CR LF catches text-mode mangling) |
//! | 8..12 | format version (`u32`, 2) |
//! | 12..16 | header length (`u32`, 128) |
//! | 16, 17 | board width, height |
//! | 18 | tiles in the group `k`; encoding 5: the automaton's depth |
//! | 19 | entry encoding (1 = one byte per entry, the value in moves, indexed by [`Indexer`]; 2 = the same for a zero-aware table, indexed by [`ZeroAwareIndexer`]; 3 = one byte per entry of a tile-only table, boards of 33–64 cells, indexed by [`Indexer`]; 4 = a zero-aware table's region-coded form, [`crate::region_codes`]: its `N!/(N-k)!` coded entries indexed by [`Indexer`], then as many pocket bytes; 5 = a duplicate-pruning automaton, [`TableKind::Automaton`]: the bytes its engine writes, uninterpreted here) |
//! | 24..32 | entries (`u64`, `N!/(N-k)!`, [`ZeroAwareIndexer::size`] for encoding 2, `2·N!/(N-k)!` for encoding 4, the bytes that follow for encoding 5) |
//! | 32..40 | checksum of the table bytes (see below) |
//! | 40..72 | the goal board, one tile per cell (unused bytes 0); encoding 3: bytes 40..40+N; encoding 5: none (0) |
//! | 72..104 | the group's tiles, ascending (unused bytes 0); encoding 3: the k bytes after the goal |
//! | 104..112 | for a table derived from another (encoding 4), a digest of its source ([`Header::source`]); else 0 |
//! | 112..120 | reserved, 0 |
//! | 120..128 | XXH3-64 checksum of bytes 0..120 |
//!
//! The table checksum is, in version 2, the XXH3-64 of the concatenated little-endian XXH3-64
//! digests of the table's consecutive 1 MiB chunks (the last one possibly shorter), so that it
//! is verified on all cores (rayon); in version 1 it is the XXH3-64 of the whole table, verified
//! on one core. Files are always written as version 2.
//!
//! A file is used only if every field matches what is asked for, its length is exactly header +
//! entries, and both checksums match; anything else (truncated, corrupted, unknown version, other
//! goal) is reported as [`PdbError::Corrupt`] and never used.
//!
//! ## Loading
//! A file is memory-mapped read-only ([`memmap2`]) and its checksum verified through the
//! mapping before use: no copy into private memory and no page zeroing, so a warm 7-8 set (550
//! MiB) is ready in a fraction of the time a `read` into a buffer takes, and processes using the
//! same tables share one copy in the page cache (see `BENCHMARKS.md`, "seed15, one process per
//! instance"). On Linux the mapping is advised for transparent huge pages, so that the pages
//! it faults in from the file come into the page cache as 2 MiB folios (one page-table entry
//! each; with 4 KiB pages the 4×4's 17 positions 80 moves from the goal took about 1.3× the
//! time, BENCHMARKS.md, "The tables' pages"). The mapping's safety rests on files never being
//! modified in place: this crate only ever replaces a cache file by renaming a complete new
//! file over its name ([`Cache::store`]) or unlinks it ([`Cache::clear`]), neither of which
//! touches a mapped file's contents. Truncating or rewriting a table file in place (by
//! another program) while a process uses it is not supported and may kill that process with
//! `SIGBUS`.
//!
//! After a full check passes, a small verification stamp (`.npuzzle-pdb-NAME.verified`, see
//! the `stamp` module) records the file's identity, length, times and header; later loads of
//! the same, unchanged file skip the table checksum (0.09 s of CPU a process for the
//! 15-puzzle's 7-8 tables). Any change to the file through the file system changes its
//! status-change time and brings the full check back; [`Cache::verify`] always reads every
//! byte.

use std::fs;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::PdbError;

mod format;
mod stamp;
mod table;

#[allow(
    clippy::wildcard_imports,
    reason = "the format's private constants and helpers"
)]
use format::*;
pub use format::{ENV_DIR, EXTENSION, FORMAT_VERSION, Header, TableKey, TableKind};
pub use table::Table;
pub(crate) use table::huge_page_map;
use table::{Repr, map_read_only};

/// Why a path that should hold a table file cannot: what stands there instead, and the command
/// that removes it.
fn not_a_file(m: &fs::Metadata) -> String {
    let t = m.file_type();
    let what = if t.is_dir() {
        "a directory"
    } else {
        special(t)
    };
    format!("{what} stands where the table file belongs; `npuzzle pdb clear` removes it")
}

/// [`fs::create_dir_all`], with a clear error when `dir` exists but is not a directory (the
/// system says `File exists`, which reads as if nothing were wrong).
fn create_dir(dir: &Path) -> std::io::Result<()> {
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(m) => {
            let t = m.file_type();
            let what = if t.is_file() {
                "a regular file"
            } else {
                special(t)
            };
            Err(std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                format!("not a directory: {what} stands there"),
            ))
        }
        Err(_) => fs::create_dir_all(dir),
    }
}

/// What a file type that is neither a regular file nor a directory is, in words.
#[cfg(unix)]
fn special(t: fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else {
        "something other than a regular file"
    }
}

#[cfg(not(unix))]
fn special(_: fs::FileType) -> &'static str {
    "something other than a regular file"
}

/// A cache directory of table files, and the cancel flag of the builds made for it
/// ([`Cache::cancel_on`]).
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
    cancel: Option<Arc<AtomicBool>>,
    /// Which full checks are stamped ([`stamp::Policy::DEFAULT`]; tests stamp everything).
    stamps: stamp::Policy,
}

/// Two caches are equal when they are the same directory (whatever their cancel flags).
impl PartialEq for Cache {
    fn eq(&self, other: &Cache) -> bool {
        self.dir == other.dir
    }
}

impl Eq for Cache {}

/// The build lock of one table ([`Cache::lock`]); released when dropped. The lock file stays
/// (removing it would race with a process about to lock it); [`Cache::clear`] removes it.
#[derive(Debug)]
pub struct BuildLock {
    _file: fs::File,
    removed: usize,
}

impl BuildLock {
    /// How many leftover temporary files of the table were removed when the lock was taken.
    pub fn removed_temporaries(&self) -> usize {
        self.removed
    }
}

/// One file found by [`Cache::list`].
#[derive(Debug)]
pub struct CacheEntry {
    /// The file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its header, or why it cannot be read: [`PdbError::Corrupt`] (its
    /// [`reason`](PdbError::reason) says what is wrong).
    pub header: Result<Header, PdbError>,
}

impl Cache {
    /// A cache in `dir` (created when a table is first stored).
    pub fn new(dir: impl Into<PathBuf>) -> Cache {
        Cache {
            dir: dir.into(),
            cancel: None,
            stamps: stamp::Policy::DEFAULT,
        }
    }

    /// The same cache, whose table builds ([`crate::PatternDb::open`]) and waits for another
    /// process's build lock ([`Cache::lock`]) stop when `flag` becomes true: the build returns
    /// [`PdbError::Cancelled`] within milliseconds and stores nothing (SIGINT in the CLI,
    /// Ctrl-C in Python, a web request's time limit or disconnect).
    #[must_use]
    pub fn cancel_on(mut self, flag: Arc<AtomicBool>) -> Cache {
        self.cancel = Some(flag);
        self
    }

    /// The cancel flag of [`Cache::cancel_on`], if any.
    pub fn cancel_flag(&self) -> Option<&AtomicBool> {
        self.cancel.as_deref()
    }

    fn cancelled(&self) -> bool {
        self.cancel_flag()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// The cache directory: `dir` if given, else `$NPUZZLE_PDB_DIR` if set and non-empty, else
    /// the platform cache directory's `npuzzle/pdb` (`~/.cache/npuzzle/pdb` on Linux).
    ///
    /// # Errors
    /// [`PdbError::NoCacheDir`] if none of these is available (no home directory).
    pub fn locate(dir: Option<&Path>) -> Result<Cache, PdbError> {
        if let Some(d) = dir {
            return Ok(Cache::new(d));
        }
        if let Some(d) = std::env::var_os(ENV_DIR).filter(|d| !d.is_empty()) {
            return Ok(Cache::new(d));
        }
        directories::ProjectDirs::from("", "", "npuzzle")
            .map(|p| Cache::new(p.cache_dir().join("pdb")))
            .ok_or(PdbError::NoCacheDir)
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Creates the cache directory if it is missing (with its parents).
    ///
    /// # Errors
    /// [`PdbError::Io`] naming the directory when it cannot be created; when something that is
    /// not a directory stands at its path (a regular file, a device such as `/dev/null`, a
    /// FIFO), the error says so (`not a directory: a device stands there`) rather than the
    /// system's `File exists`.
    pub fn create_dir(&self) -> Result<(), PdbError> {
        create_dir(&self.dir).map_err(|e| PdbError::io(&self.dir, e))
    }

    /// Where the table `key` lives.
    pub fn path(&self, key: &TableKey) -> PathBuf {
        self.dir.join(key.file_name())
    }

    /// Loads the table `key`: `Ok(None)` if there is no file. The file is memory-mapped
    /// read-only and checked (header, length, table checksum) before it is returned; the table
    /// checksum is skipped when the file's verification stamp says that this very file, unchanged
    /// since, passed it before (module `stamp`: device, inode, length, modification and
    /// status-change times and header recorded after a full check).
    ///
    /// O(entries) for a full check: the checksum reads every byte, on all of rayon's threads for
    /// format version 2 files (about 0.09 s of CPU for the 15-puzzle's 7-8 tables); O(1) with a
    /// matching stamp.
    ///
    /// # Errors
    /// [`PdbError::Corrupt`] if the file is truncated, too long, corrupted (either checksum),
    /// of an unknown format version, or for another shape, goal or group; [`PdbError::Io`] if
    /// it cannot be opened or mapped.
    pub fn load(&self, key: &TableKey) -> Result<Option<Table>, PdbError> {
        self.load_derived(key, 0)
    }

    /// [`Cache::load`] of a table derived from another ([`TableKind::RegionCoded`]): its
    /// header must also record `source` ([`Header::source`], 0 for a table that is not
    /// derived), so that a file derived from other tables, or by an older derivation, is never
    /// used.
    ///
    /// # Errors
    /// As [`Cache::load`]; [`PdbError::Corrupt`] also when the file records another source.
    pub fn load_derived(&self, key: &TableKey, source: u64) -> Result<Option<Table>, PdbError> {
        self.load_checked(key, source, false)
    }

    /// The stamp file of table `key` ([`stamp`]).
    fn stamp_path(&self, key: &TableKey) -> PathBuf {
        self.dir
            .join(format!("{TEMP_PREFIX}{}{}", key.file_name(), stamp::SUFFIX))
    }

    /// [`Cache::load_derived`], reading every byte when `full` (what [`Cache::verify`] asks)
    /// even if the file's stamp matches. A full check that passes stamps the file; one that
    /// fails removes its stamp.
    fn load_checked(
        &self,
        key: &TableKey,
        source: u64,
        full: bool,
    ) -> Result<Option<Table>, PdbError> {
        let checked_from = std::time::SystemTime::now();
        let path = self.path(key);
        // Never open what is not a regular file: opening a FIFO blocks until a writer comes,
        // and a directory cannot be mapped ("No such device").
        match fs::metadata(&path) {
            Ok(m) if !m.is_file() => {
                return Err(PdbError::Corrupt {
                    reason: not_a_file(&m),
                    path,
                });
            }
            _ => {}
        }
        let file = match fs::File::open(&path) {
            Ok(f) => f,
            // A cache "directory" that is a regular file (or lies under one) holds no tables.
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                return Ok(None);
            }
            Err(e) => return Err(PdbError::io(&path, e)),
        };
        let corrupt = |reason: String| PdbError::Corrupt {
            path: path.clone(),
            reason,
        };
        // Checked again on the open file, in case it was replaced since.
        let meta = file.metadata().ok();
        if let Some(m) = &meta
            && !m.is_file()
        {
            return Err(corrupt(not_a_file(m)));
        }
        // Lengths are checked on the mapping itself (an empty file maps to an empty slice).
        let map = map_read_only(&file).map_err(|e| PdbError::io(&path, e))?;
        let Some(h) = map.first_chunk::<HEADER_LEN>() else {
            return Err(corrupt(format!(
                "truncated: {} bytes, shorter than the {HEADER_LEN}-byte header",
                map.len()
            )));
        };
        let header = Header::parse(&path, h)?;
        if header.key != *key {
            return Err(corrupt(format!(
                "holds the table of tiles {:?} for goal {:?} on {}, not tiles {:?} for goal {:?} on {}",
                header.key.tiles, header.key.goal, header.key.shape, key.tiles, key.goal, key.shape
            )));
        }
        if header.source != source {
            return Err(corrupt(format!(
                "derived from other tables or by another version (source digest {:016x}, expected {source:016x})",
                header.source
            )));
        }
        let len = map.len() as u64;
        let expected = HEADER_LEN as u64 + header.entries;
        if len != expected {
            return Err(corrupt(format!(
                "{} ({len} bytes, expected {expected})",
                if len < expected {
                    "truncated"
                } else {
                    "too long"
                }
            )));
        }
        let stamp = self.stamp_path(key);
        let stamped = !full && meta.as_ref().is_some_and(|m| stamp::matches(&stamp, m, h));
        if !stamped {
            if table_checksum(header.version, &map[HEADER_LEN..]) != header.checksum {
                stamp::remove(&stamp);
                return Err(corrupt(
                    "table checksum mismatch (corrupted contents)".into(),
                ));
            }
            if let Some(m) = &meta {
                stamp::write(&stamp, m, h, checked_from, self.stamps);
            }
        }
        Ok(Some(Table(Repr::Mapped(
            map,
            header.version,
            header.checksum,
        ))))
    }

    /// Writes the table `key` atomically: to a temporary file in the cache directory
    /// (`.npuzzle-pdb-NAME.RANDOM.tmp`, removed if writing fails), synced, then renamed over the
    /// final name, so readers see either no file or a complete one, and two processes storing
    /// the same table cannot corrupt it. A process killed while writing leaves its temporary
    /// file behind, never a partial table under the final name; [`Cache::lock`] removes such
    /// leftovers.
    ///
    /// # Errors
    /// [`PdbError::Io`] if the directory cannot be created or the file written.
    pub fn store(&self, key: &TableKey, table: &[u8]) -> Result<PathBuf, PdbError> {
        self.store_derived(key, table, 0)
    }

    /// [`Cache::store`] of a table derived from another, recording `source` in its header
    /// ([`Header::source`], checked by [`Cache::load_derived`]).
    ///
    /// # Errors
    /// As [`Cache::store`].
    pub fn store_derived(
        &self,
        key: &TableKey,
        table: &[u8],
        source: u64,
    ) -> Result<PathBuf, PdbError> {
        self.create_dir()?;
        let path = self.path(key);
        let tmp = tempfile::Builder::new()
            .prefix(&temp_prefix(key))
            .suffix(TEMP_SUFFIX)
            .tempfile_in(&self.dir)
            .map_err(|e| PdbError::io(&self.dir, e))?;
        {
            let mut w = BufWriter::with_capacity(1 << 20, tmp.as_file());
            w.write_all(&key.header(table, source))
                .and_then(|()| w.write_all(table))
                .and_then(|()| w.flush())
                .map_err(|e| PdbError::io(tmp.path(), e))?;
        }
        tmp.as_file()
            .sync_all()
            .map_err(|e| PdbError::io(tmp.path(), e))?;
        if fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            // An empty directory where the table belongs (nothing of value) is replaced; one
            // with contents is left to `npuzzle pdb clear`, named in the error below.
            let _ = fs::remove_dir(&path);
        }
        if let Err(e) = tmp.persist(&path) {
            let source = match fs::symlink_metadata(&path) {
                Ok(m) if m.is_dir() => std::io::Error::other(format!(
                    "{}; a directory stands where the table belongs: `npuzzle pdb clear` removes it",
                    e.error
                )),
                _ => e.error,
            };
            return Err(PdbError::io(&path, source));
        }
        Ok(path)
    }

    /// Takes the build lock of table `key`: an exclusive advisory lock (`flock` on Unix, through
    /// [`std::fs::File::lock`]) on `.npuzzle-pdb-NAME.lock` in the cache directory, held until
    /// the returned guard is dropped (or the process dies). Blocks while another process holds
    /// it; `waiting` is called once, before blocking, if so. With the lock held, no other
    /// process that locks is writing this table, so every temporary file of it left in the
    /// directory is a dead writer's leftover: they are removed (the guard counts them).
    ///
    /// Callers re-check the cache after taking the lock: the process that held it has usually
    /// just stored the table.
    ///
    /// `None` when the directory cannot hold a lock file (it cannot be created or is not a
    /// directory, it is read-only or full; such a cache cannot store the table either, and the
    /// caller builds it in memory) or its file system does not support locks (the caller
    /// builds without one: stores stay atomic, only the work may be done twice).
    pub fn lock(&self, key: &TableKey, waiting: &mut dyn FnMut(&Path)) -> Option<BuildLock> {
        fs::create_dir_all(&self.dir).ok()?;
        let path = self
            .dir
            .join(format!("{TEMP_PREFIX}{}{LOCK_SUFFIX}", key.file_name()));
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .ok()?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                waiting(&path);
                if self.cancel.is_some() {
                    // Polled, so that a cancel ends the wait (the caller's build then stops
                    // at once with `Cancelled`).
                    loop {
                        if self.cancelled() {
                            return None;
                        }
                        match file.try_lock() {
                            Ok(()) => break,
                            Err(fs::TryLockError::WouldBlock) => {
                                std::thread::sleep(std::time::Duration::from_millis(20));
                            }
                            Err(fs::TryLockError::Error(_)) => return None,
                        }
                    }
                } else {
                    file.lock().ok()?;
                }
            }
            Err(fs::TryLockError::Error(_)) => return None,
        }
        let removed = self.remove_temporaries(key);
        Some(BuildLock {
            _file: file,
            removed,
        })
    }

    /// Removes the temporary files of table `key` (callers hold its lock); returns how many.
    /// Files that cannot be removed are left alone.
    fn remove_temporaries(&self, key: &TableKey) -> usize {
        let prefix = temp_prefix(key);
        let Ok(rd) = fs::read_dir(&self.dir) else {
            return 0;
        };
        rd.flatten()
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                name.starts_with(&prefix)
                    && name.ends_with(TEMP_SUFFIX)
                    && e.file_type().is_ok_and(|t| t.is_file())
            })
            .filter(|e| fs::remove_file(e.path()).is_ok())
            .count()
    }

    /// The table files in the cache (`*.pdb`), sorted by name, with their headers.
    ///
    /// # Errors
    /// [`PdbError::Io`] if the directory exists but cannot be read.
    pub fn list(&self) -> Result<Vec<CacheEntry>, PdbError> {
        let rd = match fs::read_dir(&self.dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(PdbError::io(&self.dir, e)),
        };
        let mut out = Vec::new();
        for entry in rd {
            let entry = entry.map_err(|e| PdbError::io(&self.dir, e))?;
            let path = entry.path();
            if path.extension().is_none_or(|e| e != EXTENSION) {
                continue;
            }
            let corrupt = |reason| PdbError::Corrupt {
                path: path.clone(),
                reason,
            };
            // Only regular files (or links to them) are opened: a FIFO would block the listing.
            let (bytes, header) = match fs::metadata(&path) {
                Ok(m) if !m.is_file() => (0, Err(corrupt(not_a_file(&m)))),
                _ => (
                    entry.metadata().map_or(0, |m| m.len()),
                    fs::File::open(&path)
                        .and_then(|mut f| {
                            let mut h = [0u8; HEADER_LEN];
                            f.read_exact(&mut h).map(|()| h)
                        })
                        .map_err(|e| corrupt(format!("cannot read the header: {e}")))
                        .and_then(|h| Header::parse(&path, &h)),
                ),
            };
            out.push(CacheEntry {
                path,
                bytes,
                header,
            });
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(out)
    }

    /// Fully checks one listed file (header, name, length, checksum). O(entries), like
    /// [`Cache::load`].
    ///
    /// # Errors
    /// [`PdbError::Corrupt`] naming the file and, in its [`reason`](PdbError::reason), what is
    /// wrong: an unreadable header, a name that does not match the header, a wrong length, a
    /// checksum mismatch, or a file removed while checking; [`PdbError::Io`] if it cannot be
    /// opened or mapped.
    pub fn verify(&self, entry: &CacheEntry) -> Result<(), PdbError> {
        let corrupt = |reason: String| PdbError::Corrupt {
            path: entry.path.clone(),
            reason,
        };
        let header = entry.header.as_ref().map_err(|e| corrupt(e.reason()))?;
        if entry.path.file_name() != Some(header.key.file_name().as_ref()) {
            return Err(corrupt(format!(
                "named {}, but its header says {}",
                entry.path.display(),
                header.key.file_name()
            )));
        }
        match self.load_checked(&header.key, header.source, true)? {
            Some(_) => Ok(()),
            None => Err(corrupt("vanished while checking".into())),
        }
    }

    /// Removes every table file, leftover temporary file, (empty) lock file and verification
    /// stamp (`.npuzzle-pdb-NAME.verified`, module `stamp`), and the
    /// duplicate-pruning automata that earlier versions kept beside the tables in files of
    /// their own (`4x4-fsm-14.fsm`, with their temporary files `.4x4-fsm-14.fsm.tmp-…`; now
    /// they are [`TableKind::Automaton`] tables); returns the table and temporary files
    /// removed and their bytes. Whatever stands at such a name in the
    /// cache directory goes: a regular file, a FIFO, a symbolic link (the link, never what it
    /// points to) or a directory (with its contents; links inside it are removed, not
    /// followed), so nothing outside the cache directory is touched. Meant for when no other
    /// process uses the cache: a build running meanwhile still stores a complete table, but
    /// loses its lock's protection against a second builder.
    ///
    /// # Errors
    /// [`PdbError::Io`] if the directory cannot be read or a file removed.
    pub fn clear(&self) -> Result<(usize, u64), PdbError> {
        let rd = match fs::read_dir(&self.dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((0, 0)),
            Err(e) => return Err(PdbError::io(&self.dir, e)),
        };
        let (mut files, mut bytes) = (0, 0);
        for entry in rd {
            let entry = entry.map_err(|e| PdbError::io(&self.dir, e))?;
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let counted = path
                .extension()
                .is_some_and(|e| e == EXTENSION || e == OLD_FSM)
                || (name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX))
                || (name.starts_with('.') && name.contains(&format!(".{OLD_FSM}.tmp-")));
            let lock = name.starts_with(TEMP_PREFIX)
                && (name.ends_with(LOCK_SUFFIX) || name.ends_with(stamp::SUFFIX));
            if !(counted || lock) {
                continue;
            }
            // `DirEntry::file_type` does not follow symbolic links.
            let kind = entry.file_type().map_err(|e| PdbError::io(&path, e))?;
            if counted {
                if kind.is_file() {
                    bytes += entry.metadata().map_or(0, |m| m.len());
                }
                files += 1;
            }
            if kind.is_dir() {
                fs::remove_dir_all(&path).map_err(|e| PdbError::io(&path, e))?;
            } else {
                fs::remove_file(&path).map_err(|e| PdbError::io(&path, e))?;
            }
        }
        Ok((files, bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{Goal, Shape};
    use xxhash_rust::xxh3::xxh3_64;

    fn setup() -> (tempfile::TempDir, Cache, TableKey, Vec<u8>) {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let goal = Goal::blank_last(Shape::square(3).unwrap());
        let key = TableKey::new(&goal, &[3, 1, 2]);
        let table: Vec<u8> = (0..key.entries().unwrap()).map(|i| (i % 7) as u8).collect();
        cache.store(&key, &table).unwrap();
        (dir, cache, key, table)
    }

    fn reason(r: Result<Option<Table>, PdbError>) -> String {
        match r {
            Err(PdbError::Corrupt { reason, .. }) => reason,
            other => panic!("expected a corrupt file, got {other:?}"),
        }
    }

    #[test]
    fn round_trip_and_missing() {
        let (_d, cache, key, table) = setup();
        assert_eq!(key.tiles, vec![1, 2, 3]);
        assert_eq!(key.file_name(), "3x3-123456780-1.2.3.pdb");
        let loaded = cache.load(&key).unwrap().unwrap();
        assert!(loaded.is_mapped());
        assert_eq!(*loaded, table[..]);
        // The digest read from the checked header is the one computed from the entries.
        assert_eq!(loaded.digest(), format::digest(&table));
        assert_eq!(Table::from(table.clone()).digest(), format::digest(&table));
        drop(loaded);
        let other = TableKey::new(&Goal::blank_last(Shape::square(3).unwrap()), &[4]);
        assert!(cache.load(&other).unwrap().is_none());
        let list = cache.list().unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].header.as_ref().unwrap().key, key);
        assert!(cache.verify(&list[0]).is_ok());
        assert_eq!(cache.clear().unwrap(), (1, 128 + 504));
        assert!(cache.load(&key).unwrap().is_none());
    }

    /// A table mapped from the cache is advised for transparent huge pages (`MADV_HUGEPAGE`,
    /// shown as `hg` among the mapping's `VmFlags` in `/proc/self/smaps`), so that its pages
    /// come into the page cache as 2 MiB folios (BENCHMARKS.md, "The tables' pages"). Checked
    /// where the kernel offers transparent huge pages (`/sys/kernel/mm/transparent_hugepage`);
    /// elsewhere the advice is refused and nothing is asserted.
    #[cfg(target_os = "linux")]
    #[test]
    fn mapped_tables_are_advised_for_huge_pages() {
        let thp = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
        if thp.is_err() || thp.as_deref().is_ok_and(|s| s.contains("[never]")) {
            return;
        }
        let (_d, cache, key, _) = setup();
        let loaded = cache.load(&key).unwrap().unwrap();
        let start = loaded.as_ptr() as usize - format::HEADER_LEN;
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        // The mapping's header line starts with its address range; its VmFlags line follows.
        let mut lines = smaps.lines();
        let header = format!("{start:x}-");
        lines
            .by_ref()
            .find(|l| l.starts_with(&header))
            .expect("the table's mapping in /proc/self/smaps");
        let flags = lines
            .find(|l| l.starts_with("VmFlags:"))
            .expect("the mapping's VmFlags");
        assert!(
            flags.split_whitespace().any(|f| f == "hg"),
            "no MADV_HUGEPAGE on the table's mapping: {flags}"
        );
    }

    /// A copy into huge pages holds exactly the bytes it copied, whatever their length: empty,
    /// below one 2 MiB chunk, and several chunks with a partial last one (the copy runs a chunk
    /// at a time on several threads).
    #[test]
    fn huge_page_copies_are_exact() {
        for len in [
            0,
            1,
            4095,
            table::HUGE_PAGE - 1,
            5 * table::HUGE_PAGE + 12_345,
        ] {
            let bytes: Vec<u8> = (0..len)
                .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
                .collect();
            let copy = Table::huge_pages_copy(&bytes).unwrap();
            assert!(!copy.is_mapped());
            assert_eq!(copy.len(), len);
            assert!(*copy == bytes[..], "{len} bytes");
        }
    }

    /// An automaton is stored, named, listed, verified and cleared like a table; its header
    /// names its shape and depth, and its bytes may be any number but none.
    #[test]
    fn automata_are_entries_like_tables() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let shape = Shape::new(4, 5).unwrap();
        let key = TableKey::automaton(shape, 14);
        assert_eq!(key.file_name(), "4x5-fsm-14.pdb");
        cache.store(&key, &[1, 2, 3]).unwrap();
        assert_eq!(*cache.load(&key).unwrap().unwrap(), [1, 2, 3]);
        assert!(
            cache
                .load(&TableKey::automaton(shape, 12))
                .unwrap()
                .is_none()
        );
        let list = cache.list().unwrap();
        let header = list[0].header.as_ref().unwrap();
        assert_eq!((&header.key, header.entries), (&key, 3));
        assert!(cache.verify(&list[0]).is_ok());
        // A depth-12 automaton's file under the depth-14 name.
        let other = TableKey::automaton(shape, 12);
        fs::write(
            cache.path(&key),
            [&other.header(&[1], 0)[..], &[1]].concat(),
        )
        .unwrap();
        assert!(reason(cache.load(&key)).starts_with("holds the table"));
        let empty = [&key.header(&[], 0)[..]].concat();
        fs::write(cache.path(&key), &empty).unwrap();
        assert!(reason(cache.load(&key)).contains("with 0 bytes"));
        assert_eq!(cache.clear().unwrap(), (1, 128));
    }

    #[test]
    fn every_flipped_byte_is_caught() {
        let (_d, cache, key, _) = setup();
        let path = cache.path(&key);
        let good = fs::read(&path).unwrap();
        for at in (0..good.len())
            .step_by(7)
            .chain([0, 8, 19, 40, 100, good.len() - 1])
        {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            fs::write(&path, &bad).unwrap();
            let r = cache.load(&key);
            assert!(
                matches!(r, Err(PdbError::Corrupt { .. })),
                "byte {at} flipped: {r:?}"
            );
        }
    }

    /// A full check stamps a file whose last change is old enough; a matching stamp skips the
    /// table checksum; any change to the file through the file system brings the full check
    /// back (and a failed check removes the stamp); `verify` always reads every byte; `clear`
    /// removes stamps.
    #[cfg(unix)]
    #[test]
    fn stamps_skip_the_checksum_of_unchanged_files_only() {
        use std::io::{Seek, SeekFrom};
        use std::time::{Duration, SystemTime};
        let (_d, mut cache, key, table) = setup();
        let path = cache.path(&key);
        let stamp_path = cache.stamp_path(&key);
        let header = |p: &Path| -> [u8; HEADER_LEN] {
            fs::read(p).unwrap()[..HEADER_LEN].try_into().unwrap()
        };
        // A small file, or one changed less than the margin ago, is checked but not stamped.
        assert_eq!(*cache.load(&key).unwrap().unwrap(), table[..]);
        assert!(!stamp_path.exists());
        cache.stamps = stamp::Policy {
            margin: Duration::from_hours(1),
            min_bytes: 0,
        };
        assert_eq!(*cache.load(&key).unwrap().unwrap(), table[..]);
        assert!(!stamp_path.exists());
        cache.stamps = stamp::Policy {
            margin: Duration::ZERO,
            min_bytes: 0,
        };
        assert_eq!(*cache.load(&key).unwrap().unwrap(), table[..]);
        assert_eq!(fs::read(&stamp_path).unwrap().len(), 80);
        assert_eq!(*cache.load(&key).unwrap().unwrap(), table[..]);
        // One table byte changed in place, a clock tick later: the file's times change, the
        // full check runs, fails and removes the stamp.
        std::thread::sleep(Duration::from_millis(50));
        let mut f = fs::OpenOptions::new().write(true).open(&path).unwrap();
        f.seek(SeekFrom::Start(HEADER_LEN as u64 + 200)).unwrap();
        f.write_all(&[table[200] ^ 1]).unwrap();
        drop(f);
        assert!(reason(cache.load(&key)).contains("checksum mismatch"));
        assert!(!stamp_path.exists());
        // A stamp made for the damaged file as it is now is trusted: that check is what a
        // stamp saves (and why it is written only after a full check passed).
        let meta = fs::metadata(&path).unwrap();
        stamp::write(
            &stamp_path,
            &meta,
            &header(&path),
            SystemTime::now(),
            cache.stamps,
        );
        assert_eq!(cache.load(&key).unwrap().unwrap()[200], table[200] ^ 1);
        // `verify` reads every byte whatever the stamp says, and removes the stamp.
        let list = cache.list().unwrap();
        assert!(matches!(
            cache.verify(&list[0]),
            Err(PdbError::Corrupt { .. })
        ));
        assert!(!stamp_path.exists());
        assert!(reason(cache.load(&key)).contains("checksum mismatch"));
        // A new file renamed over the name (another inode) is checked in full and stamped.
        cache.store(&key, &table).unwrap();
        assert_eq!(*cache.load(&key).unwrap().unwrap(), table[..]);
        let good = fs::read(&stamp_path).unwrap();
        assert!(stamp::matches(
            &stamp_path,
            &fs::metadata(&path).unwrap(),
            &header(&path)
        ));
        // A damaged stamp or a stamp of another header does not match.
        let mut bad = good.clone();
        bad[20] ^= 1;
        fs::write(&stamp_path, &bad).unwrap();
        assert!(!stamp::matches(
            &stamp_path,
            &fs::metadata(&path).unwrap(),
            &header(&path)
        ));
        let mut other = header(&path);
        other[127] ^= 1;
        fs::write(&stamp_path, &good).unwrap();
        assert!(!stamp::matches(
            &stamp_path,
            &fs::metadata(&path).unwrap(),
            &other
        ));
        // `clear` removes stamps with the tables (counting the tables only).
        assert_eq!(cache.clear().unwrap(), (1, 128 + 504));
        assert!(!stamp_path.exists());
    }

    #[test]
    fn truncation_extension_and_versions_are_caught() {
        let (_d, cache, key, _) = setup();
        let path = cache.path(&key);
        let good = fs::read(&path).unwrap();
        fs::write(&path, &good[..good.len() - 1]).unwrap();
        assert!(reason(cache.load(&key)).starts_with("truncated"));
        fs::write(&path, &good[..50]).unwrap();
        assert!(reason(cache.load(&key)).starts_with("truncated"));
        fs::write(&path, b"").unwrap();
        assert!(reason(cache.load(&key)).starts_with("truncated: 0 bytes"));
        let mut long = good.clone();
        long.push(0);
        fs::write(&path, &long).unwrap();
        assert!(reason(cache.load(&key)).starts_with("too long"));
        // A future version with a consistent header checksum.
        let mut v3 = good.clone();
        v3[8..12].copy_from_slice(&3u32.to_le_bytes());
        let sum = xxh3_64(&v3[..120]);
        v3[120..128].copy_from_slice(&sum.to_le_bytes());
        fs::write(&path, &v3).unwrap();
        assert!(reason(cache.load(&key)).contains("format version 3"));
        // A valid file of another table under this name.
        let other = TableKey::new(&Goal::blank_first(Shape::square(3).unwrap()), &[1, 2, 3]);
        let table = vec![0u8; 504];
        fs::write(&path, [&other.header(&table, 0)[..], &table].concat()).unwrap();
        assert!(reason(cache.load(&key)).starts_with("holds the table"));
        let list = cache.list().unwrap();
        let e = cache.verify(&list[0]).unwrap_err();
        assert!(e.reason().starts_with("named "), "{e}");
        assert!(matches!(e, PdbError::Corrupt { ref path, .. } if *path == list[0].path));
        // A header that cannot be parsed: listed as unreadable, and verify says why.
        fs::write(&path, &good[..HEADER_LEN - 1]).unwrap();
        let list = cache.list().unwrap();
        let why = list[0].header.as_ref().unwrap_err().reason();
        assert!(why.starts_with("cannot read the header"), "{why}");
        assert_eq!(cache.verify(&list[0]).unwrap_err().reason(), why);
        v3[0] ^= 1;
        fs::write(&path, &v3).unwrap();
        let list = cache.list().unwrap();
        assert_eq!(
            cache.verify(&list[0]).unwrap_err().reason(),
            "not a pattern-database file (bad magic bytes)"
        );
    }

    /// Rewrites a version-2 file as version 1 (whole-table checksum), headers consistent.
    fn as_version_1(good: &[u8]) -> Vec<u8> {
        let mut v1 = good.to_vec();
        v1[8..12].copy_from_slice(&1u32.to_le_bytes());
        let sum = xxh3_64(&v1[HEADER_LEN..]);
        v1[32..40].copy_from_slice(&sum.to_le_bytes());
        let sum = xxh3_64(&v1[..120]);
        v1[120..128].copy_from_slice(&sum.to_le_bytes());
        v1
    }

    #[test]
    fn version_1_files_are_read_and_checked() {
        let (_d, cache, key, table) = setup();
        let path = cache.path(&key);
        let v1 = as_version_1(&fs::read(&path).unwrap());
        fs::write(&path, &v1).unwrap();
        let loaded = cache.load(&key).unwrap().unwrap();
        assert_eq!(loaded.format_version(), Some(1));
        assert_eq!(*loaded, table[..]);
        // A version-1 header holds another checksum: the digest is computed.
        assert_eq!(loaded.digest(), format::digest(&table));
        drop(loaded);
        let mut bad = v1.clone();
        bad[HEADER_LEN + 100] ^= 1;
        fs::write(&path, &bad).unwrap();
        assert!(reason(cache.load(&key)).starts_with("table checksum mismatch"));
    }

    /// A table of several 1 MiB checksum chunks (6 tiles on 4×4: 5,765,760 entries): a flipped
    /// byte in any chunk, the last (short) one included, is caught, and the chunked checksum is
    /// not the whole-table one.
    #[test]
    fn multi_chunk_tables_catch_every_chunk() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let goal = Goal::blank_first(Shape::square(4).unwrap());
        let key = TableKey::new(&goal, &[1, 2, 3, 4, 5, 6]);
        let n = key.entries().unwrap() as usize;
        assert!(n > 5 * CHUNK && !n.is_multiple_of(CHUNK));
        let table: Vec<u8> = (0..n).map(|i| (i % 251) as u8).collect();
        cache.store(&key, &table).unwrap();
        let path = cache.path(&key);
        let good = fs::read(&path).unwrap();
        assert_ne!(u64_at(&good, 32), xxh3_64(&table));
        assert_eq!(*cache.load(&key).unwrap().unwrap(), table[..]);
        for at in [0, CHUNK - 1, CHUNK, 3 * CHUNK + 12_345, n - 1] {
            let mut bad = good.clone();
            bad[HEADER_LEN + at] ^= 0x80;
            fs::write(&path, &bad).unwrap();
            assert!(
                reason(cache.load(&key)).starts_with("table checksum mismatch"),
                "entry {at} flipped"
            );
        }
    }
}
