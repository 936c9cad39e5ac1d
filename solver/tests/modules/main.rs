//! Tests of the facade's modules through its public API, one module per source file (they were
//! the library's unit tests). One integration binary instead of the library's test harness: the
//! harness recompiled the whole facade, every engine × board × heuristic instantiation at
//! opt-level 3, a second time (`BENCHMARKS.md`, "CI time").

mod all_optimal;
mod all_optimal_mtm;
mod check;
mod frontier;
mod generate;
mod options;
mod record;
mod registry;
