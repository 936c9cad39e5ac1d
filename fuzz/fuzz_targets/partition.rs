//! Partition strings (`762`, `default`, `1,2,3/4,5,6`, ...): never a panic; an accepted
//! partition resolves against 3x3, 4x4 and 5x5 goals (both standard goals) to disjoint groups
//! of real tiles, or says why not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use npuzzle_core::{Goal, Shape};
use npuzzle_pdb::PartitionSpec;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match text.parse::<PartitionSpec>() {
        Ok(spec) => {
            assert!(!spec.name().is_empty());
            for n in 3..=5 {
                let shape = Shape::square(n).expect("square");
                for goal in [Goal::blank_last(shape), Goal::blank_first(shape)] {
                    match spec.resolve(&goal) {
                        Ok(groups) => {
                            let mut seen = vec![false; shape.cells()];
                            for g in &groups {
                                assert!(!g.is_empty());
                                for &t in g {
                                    let t = usize::from(t);
                                    assert!(t > 0 && t < shape.cells(), "tile {t} on {shape}");
                                    assert!(!seen[t], "tile {t} twice");
                                    seen[t] = true;
                                }
                            }
                        }
                        Err(e) => assert!(!e.to_string().is_empty()),
                    }
                }
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
