//! The on-disk cache of pattern tables: one checksummed file per (shape, goal, group), written
//! atomically.
//!
//! ## File format (version 1)
//! A 128-byte header, little-endian, then the table (one byte per entry):
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `NPZPDB\r\n` (the CR LF catches text-mode mangling) |
//! | 8..12 | format version (`u32`, 1) |
//! | 12..16 | header length (`u32`, 128) |
//! | 16, 17 | board width, height |
//! | 18 | tiles in the group `k` |
//! | 19 | entry encoding (1 = one byte per entry, the value in moves) |
//! | 24..32 | entries (`u64`, `N!/(N-k)!`) |
//! | 32..40 | XXH3-64 checksum of the table bytes |
//! | 40..72 | the goal board, one tile per cell (unused bytes 0) |
//! | 72..104 | the group's tiles, ascending (unused bytes 0) |
//! | 104..120 | reserved, 0 |
//! | 120..128 | XXH3-64 checksum of bytes 0..120 |
//!
//! A file is used only if every field matches what is asked for, its length is exactly header +
//! entries, and both checksums match; anything else (truncated, corrupted, other version, other
//! goal) is reported as [`PdbError::Corrupt`] and never used.
//!
//! Files are read into memory with one `read_exact` rather than memory-mapped: `memmap2`'s
//! mapping needs `unsafe`, which this workspace forbids, and since the whole table is checksummed
//! before use every page is touched anyway, so a mapping would not start faster.

use std::fs;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use npuzzle_core::{Goal, Shape};
use xxhash_rust::xxh3::xxh3_64;

use crate::PdbError;
use crate::index::{Indexer, MAX_CELLS};

const MAGIC: &[u8; 8] = b"NPZPDB\r\n";
/// The file format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
const HEADER_LEN: usize = 128;
const ENCODING_U8: u8 = 1;
/// The environment variable that overrides the cache directory.
pub const ENV_DIR: &str = "NPUZZLE_PDB_DIR";
/// File name extension of table files.
pub const EXTENSION: &str = "pdb";

/// What a table file holds: the board shape, the goal, and the group's tiles (ascending).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableKey {
    /// Board shape.
    pub shape: Shape,
    /// The goal board, one tile per cell.
    pub goal: Vec<u8>,
    /// The group's tiles, ascending.
    pub tiles: Vec<u8>,
}

impl TableKey {
    /// The key of `tiles` (any order) for `goal`.
    pub fn new(goal: &Goal, tiles: &[u8]) -> TableKey {
        let mut tiles = tiles.to_vec();
        tiles.sort_unstable();
        TableKey {
            shape: goal.shape(),
            goal: goal.layout().cells().iter().map(|&t| t as u8).collect(),
            tiles,
        }
    }

    /// Number of entries, `N!/(N-k)!`.
    ///
    /// # Errors
    /// As [`Indexer::new`].
    pub fn entries(&self) -> Result<u64, PdbError> {
        Ok(Indexer::new(self.shape.cells(), self.tiles.len())?.size())
    }

    /// The file name: `4x4-0123456789abcdef-1.2.3.4.5.6.7.pdb` (goal cells as base-32 digits).
    pub fn file_name(&self) -> String {
        const DIGITS: &[u8; 32] = b"0123456789abcdefghijklmnopqrstuv";
        let goal: String = self
            .goal
            .iter()
            .map(|&t| DIGITS[usize::from(t) & 31] as char)
            .collect();
        let tiles: Vec<String> = self.tiles.iter().map(u8::to_string).collect();
        format!(
            "{}x{}-{goal}-{}.{EXTENSION}",
            self.shape.width(),
            self.shape.height(),
            tiles.join(".")
        )
    }

    fn header(&self, table: &[u8]) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        h[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
        h[16] = self.shape.width() as u8;
        h[17] = self.shape.height() as u8;
        h[18] = self.tiles.len() as u8;
        h[19] = ENCODING_U8;
        h[24..32].copy_from_slice(&(table.len() as u64).to_le_bytes());
        h[32..40].copy_from_slice(&xxh3_64(table).to_le_bytes());
        h[40..40 + self.goal.len()].copy_from_slice(&self.goal);
        h[72..72 + self.tiles.len()].copy_from_slice(&self.tiles);
        let sum = xxh3_64(&h[..120]);
        h[120..128].copy_from_slice(&sum.to_le_bytes());
        h
    }
}

/// A parsed, self-consistent header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The table's key.
    pub key: TableKey,
    /// Entries in the table.
    pub entries: u64,
    /// Checksum of the table bytes.
    pub checksum: u64,
}

fn u32_at(h: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(h[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(h: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(h[at..at + 8].try_into().expect("8 bytes"))
}

impl Header {
    /// Parses and checks a header on its own (magic, version, header checksum, shape, sizes).
    ///
    /// # Errors
    /// A description of the first problem found.
    pub fn parse(h: &[u8; HEADER_LEN]) -> Result<Header, String> {
        if &h[0..8] != MAGIC {
            return Err("not a pattern-database file (bad magic bytes)".into());
        }
        let version = u32_at(h, 8);
        if version != FORMAT_VERSION {
            return Err(format!(
                "format version {version}, this program reads version {FORMAT_VERSION}"
            ));
        }
        if u32_at(h, 12) as usize != HEADER_LEN {
            return Err(format!(
                "header length {}, expected {HEADER_LEN}",
                u32_at(h, 12)
            ));
        }
        if u64_at(h, 120) != xxh3_64(&h[..120]) {
            return Err("header checksum mismatch (corrupted header)".into());
        }
        if h[19] != ENCODING_U8 {
            return Err(format!("unknown entry encoding {}", h[19]));
        }
        let shape = Shape::new(usize::from(h[16]), usize::from(h[17]))
            .map_err(|e| format!("bad shape in header: {e}"))?;
        let n = shape.cells();
        let k = usize::from(h[18]);
        if n > MAX_CELLS || k == 0 || k >= n {
            return Err(format!("bad group size {k} for {shape}"));
        }
        let ix = Indexer::new(n, k).map_err(|e| e.to_string())?;
        let entries = u64_at(h, 24);
        if entries != ix.size() {
            return Err(format!(
                "{entries} entries, expected {} for {k} tiles on {shape}",
                ix.size()
            ));
        }
        Ok(Header {
            key: TableKey {
                shape,
                goal: h[40..40 + n].to_vec(),
                tiles: h[72..72 + k].to_vec(),
            },
            entries,
            checksum: u64_at(h, 32),
        })
    }
}

/// A cache directory of table files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cache {
    dir: PathBuf,
}

/// One file found by [`Cache::list`].
#[derive(Clone, Debug)]
pub struct CacheEntry {
    /// The file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its header, or why it cannot be read.
    pub header: Result<Header, String>,
}

impl Cache {
    /// A cache in `dir` (created when a table is first stored).
    pub fn new(dir: impl Into<PathBuf>) -> Cache {
        Cache { dir: dir.into() }
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

    /// Where the table `key` lives.
    pub fn path(&self, key: &TableKey) -> PathBuf {
        self.dir.join(key.file_name())
    }

    /// Loads the table `key`: `Ok(None)` if there is no file.
    ///
    /// O(entries): reads and checksums the whole file.
    ///
    /// # Errors
    /// [`PdbError::Corrupt`] if the file is truncated, too long, corrupted (either checksum),
    /// of another format version, or for another shape, goal or group; [`PdbError::Io`] if it
    /// cannot be read.
    pub fn load(&self, key: &TableKey) -> Result<Option<Vec<u8>>, PdbError> {
        let path = self.path(key);
        let mut file = match fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(PdbError::io(&path, e)),
        };
        let corrupt = |reason: String| PdbError::Corrupt {
            path: path.clone(),
            reason,
        };
        let len = file.metadata().map_err(|e| PdbError::io(&path, e))?.len();
        let mut h = [0u8; HEADER_LEN];
        if len < HEADER_LEN as u64 {
            return Err(corrupt(format!(
                "truncated: {len} bytes, shorter than the {HEADER_LEN}-byte header"
            )));
        }
        file.read_exact(&mut h)
            .map_err(|e| PdbError::io(&path, e))?;
        let header = Header::parse(&h).map_err(&corrupt)?;
        if header.key != *key {
            return Err(corrupt(format!(
                "holds the table of tiles {:?} for goal {:?} on {}, not tiles {:?} for goal {:?} on {}",
                header.key.tiles, header.key.goal, header.key.shape, key.tiles, key.goal, key.shape
            )));
        }
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
        let mut table = vec![0u8; header.entries as usize];
        file.read_exact(&mut table)
            .map_err(|e| PdbError::io(&path, e))?;
        if xxh3_64(&table) != header.checksum {
            return Err(corrupt(
                "table checksum mismatch (corrupted contents)".into(),
            ));
        }
        Ok(Some(table))
    }

    /// Writes the table `key` atomically: to a temporary file in the cache directory, synced,
    /// then renamed over the final name, so readers see either no file or a complete one, and
    /// two processes storing the same table cannot corrupt it.
    ///
    /// # Errors
    /// [`PdbError::Io`] if the directory cannot be created or the file written.
    pub fn store(&self, key: &TableKey, table: &[u8]) -> Result<PathBuf, PdbError> {
        fs::create_dir_all(&self.dir).map_err(|e| PdbError::io(&self.dir, e))?;
        let path = self.path(key);
        let tmp = tempfile::Builder::new()
            .prefix(".npuzzle-pdb-")
            .suffix(".tmp")
            .tempfile_in(&self.dir)
            .map_err(|e| PdbError::io(&self.dir, e))?;
        {
            let mut w = BufWriter::with_capacity(1 << 20, tmp.as_file());
            w.write_all(&key.header(table))
                .and_then(|()| w.write_all(table))
                .and_then(|()| w.flush())
                .map_err(|e| PdbError::io(tmp.path(), e))?;
        }
        tmp.as_file()
            .sync_all()
            .map_err(|e| PdbError::io(tmp.path(), e))?;
        tmp.persist(&path)
            .map_err(|e| PdbError::io(&path, e.error))?;
        Ok(path)
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
            let bytes = entry.metadata().map_or(0, |m| m.len());
            let header = fs::File::open(&path)
                .and_then(|mut f| {
                    let mut h = [0u8; HEADER_LEN];
                    f.read_exact(&mut h).map(|()| h)
                })
                .map_err(|e| format!("cannot read the header: {e}"))
                .and_then(|h| Header::parse(&h));
            out.push(CacheEntry {
                path,
                bytes,
                header,
            });
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(out)
    }

    /// Fully checks one listed file (header, name, length, checksum).
    ///
    /// # Errors
    /// Why the file is bad, in words: unreadable header, a name that does not match the header,
    /// a wrong length, or a checksum mismatch.
    pub fn verify(&self, entry: &CacheEntry) -> Result<(), String> {
        let header = entry.header.as_ref().map_err(Clone::clone)?;
        if entry.path.file_name() != Some(header.key.file_name().as_ref()) {
            return Err(format!(
                "named {}, but its header says {}",
                entry.path.display(),
                header.key.file_name()
            ));
        }
        match self.load(&header.key) {
            Ok(Some(_)) => Ok(()),
            Ok(None) => Err("vanished while checking".into()),
            Err(PdbError::Corrupt { reason, .. }) => Err(reason),
            Err(e) => Err(e.to_string()),
        }
    }

    /// Removes every table file and leftover temporary file; returns (files, bytes) removed.
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
            let ours = path.extension().is_some_and(|e| e == EXTENSION)
                || (name.starts_with(".npuzzle-pdb-") && name.ends_with(".tmp"));
            if ours && entry.file_type().is_ok_and(|t| t.is_file()) {
                bytes += entry.metadata().map_or(0, |m| m.len());
                fs::remove_file(&path).map_err(|e| PdbError::io(&path, e))?;
                files += 1;
            }
        }
        Ok((files, bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::Shape;

    fn setup() -> (tempfile::TempDir, Cache, TableKey, Vec<u8>) {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let goal = Goal::blank_last(Shape::square(3).unwrap());
        let key = TableKey::new(&goal, &[3, 1, 2]);
        let table: Vec<u8> = (0..key.entries().unwrap()).map(|i| (i % 7) as u8).collect();
        cache.store(&key, &table).unwrap();
        (dir, cache, key, table)
    }

    fn reason(r: Result<Option<Vec<u8>>, PdbError>) -> String {
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
        assert_eq!(cache.load(&key).unwrap().unwrap(), table);
        let other = TableKey::new(&Goal::blank_last(Shape::square(3).unwrap()), &[4]);
        assert!(cache.load(&other).unwrap().is_none());
        let list = cache.list().unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].header.as_ref().unwrap().key, key);
        assert!(cache.verify(&list[0]).is_ok());
        assert_eq!(cache.clear().unwrap(), (1, 128 + 504));
        assert!(cache.load(&key).unwrap().is_none());
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

    #[test]
    fn truncation_extension_and_versions_are_caught() {
        let (_d, cache, key, _) = setup();
        let path = cache.path(&key);
        let good = fs::read(&path).unwrap();
        fs::write(&path, &good[..good.len() - 1]).unwrap();
        assert!(reason(cache.load(&key)).starts_with("truncated"));
        fs::write(&path, &good[..50]).unwrap();
        assert!(reason(cache.load(&key)).starts_with("truncated"));
        let mut long = good.clone();
        long.push(0);
        fs::write(&path, &long).unwrap();
        assert!(reason(cache.load(&key)).starts_with("too long"));
        // A future version with a consistent header checksum.
        let mut v2 = good.clone();
        v2[8..12].copy_from_slice(&2u32.to_le_bytes());
        let sum = xxh3_64(&v2[..120]);
        v2[120..128].copy_from_slice(&sum.to_le_bytes());
        fs::write(&path, &v2).unwrap();
        assert!(reason(cache.load(&key)).contains("format version 2"));
        // A valid file of another table under this name.
        let other = TableKey::new(&Goal::blank_first(Shape::square(3).unwrap()), &[1, 2, 3]);
        let table = vec![0u8; 504];
        fs::write(&path, [&other.header(&table)[..], &table].concat()).unwrap();
        assert!(reason(cache.load(&key)).starts_with("holds the table"));
        let list = cache.list().unwrap();
        assert!(cache.verify(&list[0]).is_err());
    }
}
