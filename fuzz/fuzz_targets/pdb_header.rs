//! The pattern-table file reader on arbitrary bytes: `Header::parse` on the first 128 bytes,
//! then `Cache::load`, `Cache::list` and `Cache::verify` on the whole input written as a cache
//! file in a temporary directory. The first byte's low bits ask the target to repair the
//! header checksum (bit 0) and the table checksum (bit 1) first, so that the fuzzer reaches
//! the checks behind them. Never a panic; a loaded table has exactly the header's entries.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use npuzzle_core::{Goal, Shape};
use npuzzle_pdb::{Cache, Header, PdbError, TableKey};
use xxhash_rust::xxh3::xxh3_64;

const HEADER_LEN: usize = 128;

fn dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("a temporary directory"))
        .path()
}

/// The table checksum of format `version` (store.rs: v1 whole-table XXH3, v2 XXH3 of the
/// 1 MiB chunks' digests).
fn table_checksum(version: u32, table: &[u8]) -> u64 {
    if version == 1 {
        return xxh3_64(table);
    }
    let digests: Vec<u8> = table
        .chunks(1 << 20)
        .flat_map(|c| xxh3_64(c).to_le_bytes())
        .collect();
    xxh3_64(&digests)
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut file = rest.to_vec();
    if file.len() >= HEADER_LEN {
        if mode & 2 != 0 {
            let version = u32::from_le_bytes(file[8..12].try_into().expect("4 bytes"));
            let sum = table_checksum(version, &file[HEADER_LEN..]);
            file[32..40].copy_from_slice(&sum.to_le_bytes());
        }
        if mode & 1 != 0 {
            let sum = xxh3_64(&file[..120]);
            file[120..128].copy_from_slice(&sum.to_le_bytes());
        }
    }
    let cache = Cache::new(dir());
    // Any previous input's file goes first, so that list() sees only this one.
    cache.clear().expect("clear the temporary cache");
    let mut h = [0u8; HEADER_LEN];
    let n = file.len().min(HEADER_LEN);
    h[..n].copy_from_slice(&file[..n]);
    let key = match Header::parse(Path::new("fuzz.pdb"), &h) {
        Ok(header) => {
            assert_eq!(header.key.entries().ok(), Some(header.entries));
            header.key
        }
        Err(e) => {
            assert!(matches!(e, PdbError::Corrupt { .. }), "{e:?}");
            assert!(!e.reason().is_empty());
            TableKey::new(
                &Goal::blank_last(Shape::square(3).expect("3x3")),
                &[1, 2, 3],
            )
        }
    };
    std::fs::write(cache.path(&key), &file).expect("write the cache file");
    match cache.load(&key) {
        Ok(Some(table)) => {
            assert_eq!(table.len() as u64, key.entries().expect("entries"));
            assert_eq!(table.len() + HEADER_LEN, file.len());
        }
        Ok(None) => panic!("the file was just written"),
        Err(e) => assert!(matches!(e, PdbError::Corrupt { .. }), "{e:?}"),
    }
    let list = cache.list().expect("list");
    assert_eq!(list.len(), 1);
    let verified = cache.verify(&list[0]);
    assert_eq!(
        verified.is_ok(),
        cache.load(&key).is_ok_and(|t| t.is_some())
    );
});
