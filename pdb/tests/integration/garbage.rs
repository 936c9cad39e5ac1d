//! Garbage input for the pattern-database crate (issue 13): random strings and token soups as
//! partitions, random and nearly valid 128-byte table-file headers, and random bytes as whole
//! cache files. Never a panic; errors are the specific kind ([`PdbError::BadPartition`] /
//! [`PdbError::BadGroup`] for partitions, [`PdbError::Corrupt`] with a reason for files). The
//! cargo-fuzz targets `partition` and `pdb_header` run the same checks for millions of inputs.

use std::path::Path;

use npuzzle_core::{Goal, Shape};
use npuzzle_pdb::{Cache, Header, PartitionSpec, PdbError, TableKey};
use proptest::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

const TOKENS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "8",
    "15",
    "16",
    "24",
    "25",
    "255",
    "256",
    "99999999999",
    ",",
    "/",
    "//",
    ",,",
    " ",
    "-",
    "762",
    "78",
    "default",
    "x",
    "é",
    "\n",
    "+1",
];

fn spec_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(TOKENS), 0..30).prop_map(|v| v.concat()),
        ".{0,40}",
    ]
}

/// A valid cache file of a 3x3 table (tiles 1, 2, 3), built like `Cache::store` writes it.
fn valid_file() -> &'static [u8] {
    static FILE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    FILE.get_or_init(write_valid_file)
}

fn write_valid_file() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path());
    let key = TableKey::new(&Goal::blank_last(Shape::square(3).unwrap()), &[1, 2, 3]);
    let table: Vec<u8> = (0..key.entries().unwrap()).map(|i| (i % 9) as u8).collect();
    let path = cache.store(&key, &table).unwrap();
    std::fs::read(path).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any text: a partition whose groups resolve to disjoint real tiles, or a specific error.
    #[test]
    fn partitions_never_panic(text in spec_text()) {
        match text.parse::<PartitionSpec>() {
            Ok(spec) => {
                for n in 3..=5 {
                    let shape = Shape::square(n).unwrap();
                    for goal in [Goal::blank_last(shape), Goal::blank_first(shape)] {
                        match spec.resolve(&goal) {
                            Ok(groups) => {
                                let mut seen = vec![false; shape.cells()];
                                for &t in groups.iter().flatten() {
                                    let t = usize::from(t);
                                    prop_assert!(t > 0 && t < shape.cells() && !seen[t]);
                                    seen[t] = true;
                                }
                            }
                            Err(e) => prop_assert!(
                                matches!(e, PdbError::BadPartition(_) | PdbError::BadGroup(_)),
                                "{:?}", e
                            ),
                        }
                    }
                }
            }
            Err(e) => {
                prop_assert!(matches!(e, PdbError::BadPartition(_)), "{:?}", e);
                prop_assert!(e.to_string().len() > 10);
            }
        }
    }

    /// Random headers, with the header checksum made consistent half of the time so that the
    /// field checks behind it are reached: parsed ones describe a table size that the key
    /// agrees with; the others are `Corrupt` with a reason.
    #[test]
    fn random_headers_are_parsed_or_rejected(
        mut h in prop::collection::vec(any::<u8>(), 128),
        fix in any::<bool>(),
    ) {
        if fix {
            h[0..8].copy_from_slice(b"NPZPDB\r\n");
            let sum = xxh3_64(&h[..120]);
            h[120..128].copy_from_slice(&sum.to_le_bytes());
        }
        let h: [u8; 128] = h.try_into().unwrap();
        match Header::parse(Path::new("x.pdb"), &h) {
            Ok(header) => prop_assert_eq!(header.key.entries().ok(), Some(header.entries)),
            Err(e) => {
                prop_assert!(matches!(e, PdbError::Corrupt { .. }), "{:?}", e);
                prop_assert!(!e.reason().is_empty());
            }
        }
    }

}

proptest! {
    // Each case writes a file: fewer cases keep the test at about a second.
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A valid file with one header field byte changed and both checksums made consistent
    /// again: loaded only if it still describes exactly the table asked for, else `Corrupt`.
    #[test]
    fn nearly_valid_files_are_loaded_only_when_right(at in 8usize..120, value in any::<u8>()) {
        let good = valid_file();
        let mut f = good.to_vec();
        f[at] = value;
        let sum = xxh3_64(&f[..120]);
        f[120..128].copy_from_slice(&sum.to_le_bytes());
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let key = TableKey::new(&Goal::blank_last(Shape::square(3).unwrap()), &[1, 2, 3]);
        std::fs::write(cache.path(&key), &f).unwrap();
        match cache.load(&key) {
            Ok(Some(t)) => {
                prop_assert_eq!(&t[..], &good[128..]);
                // Only padding and reserved bytes (unused goal cells and tile slots, 20..24,
                // 104..120; covered by the header checksum) may differ in a file that is used.
                let padding = [20..24, 49..72, 75..120].iter().any(|r| r.contains(&at));
                prop_assert!(good[at] == value || padding, "byte {} = {}", at, value);
            }
            Ok(None) => prop_assert!(false, "the file was written"),
            Err(e) => prop_assert!(matches!(e, PdbError::Corrupt { .. }), "{:?}", e),
        }
    }

    /// Random bytes as a whole cache file: never used, always `Corrupt`.
    #[test]
    fn random_files_are_rejected(f in prop::collection::vec(any::<u8>(), 0..800)) {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let key = TableKey::new(&Goal::blank_last(Shape::square(3).unwrap()), &[1, 2, 3]);
        std::fs::write(cache.path(&key), &f).unwrap();
        let r = cache.load(&key);
        prop_assert!(matches!(r, Err(PdbError::Corrupt { .. })), "{:?}", r);
        let list = cache.list().unwrap();
        prop_assert!(cache.verify(&list[0]).is_err());
    }
}
