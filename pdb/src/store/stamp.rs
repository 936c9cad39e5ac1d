//! Verification stamps: a small file beside a table file that records which file was last
//! checked in full, so that later processes can skip reading every byte of it again.
//!
//! A table file's checksum (the parent module's docs) is verified by reading the whole table:
//! about 0.09 s of CPU for the 15-puzzle's 7-8 tables (550 MiB), more than the search of most
//! 15-puzzles, in every process. After such a check passes, [`write`] stores
//! `.npuzzle-pdb-NAME.verified` in the cache directory: the file's device, inode, length,
//! modification and status-change times (`st_ctime`, which every write, truncation, `chmod`,
//! `touch` or rename of the file sets to the current time and no system call sets back), and
//! its header's checksum (which covers the table checksum), with a checksum of its own. A
//! later [`crate::Cache::load`] of a file whose `fstat` and header still match the stamp trusts
//! the earlier check and skips the table checksum (the header and length are still checked);
//! anything else (no stamp, a damaged one, another file at the name, a file changed in any way
//! through the file system since) gets the full check, as without stamps.
//!
//! Timestamps are coarse (a clock tick, or a second or two on some file systems), so a file
//! changed again within the same tick would keep its `st_ctime`: a stamp is written only for a
//! file whose last change is at least [`Policy::margin`] old when its check starts (as git's
//! index treats racily clean files), and only for files large enough for the check to cost
//! something ([`Policy::min_bytes`]). What a stamp cannot see is damage below the file system (a
//! failing disk): `npuzzle pdb verify` ([`crate::Cache::verify`]) always reads every byte, and
//! removes the stamp of a file that fails. Stamps exist on Unix only; elsewhere every load
//! checks every byte.

use std::fs;
use std::path::Path;
use std::time::Duration;

use xxhash_rust::xxh3::xxh3_64;

use super::format::HEADER_LEN;

/// Name suffix of stamp files (`.npuzzle-pdb-NAME.verified`, after the cache's
/// [`super::format::TEMP_PREFIX`] and the table's file name).
pub(super) const SUFFIX: &str = ".verified";

/// Which full checks leave a stamp.
#[derive(Clone, Copy, Debug)]
pub(super) struct Policy {
    /// How old a file's last change must be when its full check starts: longer than the
    /// coarsest timestamp granularity of common file systems (FAT's 2 s).
    pub margin: Duration,
    /// The smallest file stamped: below it the checksum costs less than reading a stamp is
    /// worth (16 MiB: the 15-puzzle's 7- and 8-tile tables are stamped, its 6-tile table,
    /// 5.8 MB checked in about a millisecond, and the automata are not).
    pub min_bytes: u64,
}

impl Policy {
    /// Files of at least 16 MiB last changed at least 3 s before their check.
    pub const DEFAULT: Policy = Policy {
        margin: Duration::from_secs(3),
        min_bytes: 16 << 20,
    };
}

/// Stamp magic and version.
const MAGIC: &[u8; 8] = b"NPZSTMP1";

/// Bytes of a stamp: magic, eight `u64` fields, their checksum.
const LEN: usize = 8 + 8 * 8 + 8;

/// The stamp of `meta` (the `fstat` of an open table file) with header `header`, or `None`
/// where stamps are not kept (not Unix).
#[cfg(unix)]
fn encode(meta: &fs::Metadata, header: &[u8; HEADER_LEN]) -> Option<[u8; LEN]> {
    use std::os::unix::fs::MetadataExt;
    let fields: [u64; 8] = [
        meta.dev(),
        meta.ino(),
        meta.len(),
        meta.mtime().cast_unsigned(),
        meta.mtime_nsec().cast_unsigned(),
        meta.ctime().cast_unsigned(),
        meta.ctime_nsec().cast_unsigned(),
        u64::from_le_bytes(header[HEADER_LEN - 8..].try_into().ok()?),
    ];
    let mut s = [0u8; LEN];
    s[..8].copy_from_slice(MAGIC);
    for (i, f) in fields.iter().enumerate() {
        s[8 + 8 * i..16 + 8 * i].copy_from_slice(&f.to_le_bytes());
    }
    let sum = xxh3_64(&s[..LEN - 8]);
    s[LEN - 8..].copy_from_slice(&sum.to_le_bytes());
    Some(s)
}

#[cfg(not(unix))]
fn encode(_meta: &fs::Metadata, _header: &[u8; HEADER_LEN]) -> Option<[u8; LEN]> {
    None
}

/// Whether the stamp at `path` records exactly the file `meta` with header `header`. Reads at
/// most one stamp's bytes; a missing, short, long, damaged or different stamp is `false`. O(1).
pub(super) fn matches(path: &Path, meta: &fs::Metadata, header: &[u8; HEADER_LEN]) -> bool {
    let Some(expected) = encode(meta, header) else {
        return false;
    };
    // Only a regular file is read (a FIFO at the name would block), and no more than a stamp.
    let Ok(m) = fs::symlink_metadata(path) else {
        return false;
    };
    if !m.is_file() || m.len() != LEN as u64 {
        return false;
    }
    fs::read(path).is_ok_and(|bytes| bytes == expected)
}

/// Stores the stamp of the file `meta` with header `header` at `path`, after its full check
/// passed, if the file is at least `policy.min_bytes` long and its last status change at least
/// `policy.margin` old (by the system clock) at `checked_from` (when the check started); best
/// effort: a cache that cannot be written keeps no stamps (every load then checks in full). A
/// torn or concurrent write can only leave a stamp that does not match.
pub(super) fn write(
    path: &Path,
    meta: &fs::Metadata,
    header: &[u8; HEADER_LEN],
    checked_from: std::time::SystemTime,
    policy: Policy,
) {
    if meta.len() < policy.min_bytes {
        return;
    }
    let Some(stamp) = encode(meta, header) else {
        return;
    };
    let old_enough = changed(meta).is_some_and(|c| {
        checked_from
            .duration_since(c)
            .is_ok_and(|age| age >= policy.margin)
    });
    if old_enough && !fs::symlink_metadata(path).is_ok_and(|m| !m.is_file()) {
        let _ = fs::write(path, stamp);
    }
}

/// The last status change (`st_ctime`) of `meta`.
#[cfg(unix)]
fn changed(meta: &fs::Metadata) -> Option<std::time::SystemTime> {
    use std::os::unix::fs::MetadataExt;
    let secs = u64::try_from(meta.ctime()).ok()?;
    let nanos = u32::try_from(meta.ctime_nsec()).ok()?;
    std::time::UNIX_EPOCH.checked_add(Duration::new(secs, nanos))
}

#[cfg(not(unix))]
fn changed(_meta: &fs::Metadata) -> Option<std::time::SystemTime> {
    None
}

/// Removes the stamp at `path` if it is a regular file (a table that failed its check, or
/// one replaced); best effort.
pub(super) fn remove(path: &Path) {
    if fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
        let _ = fs::remove_file(path);
    }
}
