use npuzzle::registry::*;
use npuzzle::*;
use npuzzle_core::WalkingDistance;

/// Names are unique across engines (aliases included) and heuristics, and never `auto`.
#[test]
fn names_are_unique() {
    let mut seen = std::collections::HashSet::new();
    for e in Engine::ALL {
        for n in std::iter::once(e.info().name).chain(e.info().aliases.iter().copied()) {
            assert!(seen.insert(n), "engine name {n} twice");
            assert_ne!(n, "auto");
        }
    }
    let mut seen = std::collections::HashSet::new();
    for h in HeuristicKind::ALL {
        assert!(
            seen.insert(h.info().name),
            "heuristic {} twice",
            h.info().name
        );
    }
}

/// The README's engine and heuristic tables list every registry entry (and nothing the
/// registry lacks in the `--engine` column).
#[test]
fn readme_lists_the_registry() {
    let readme = include_str!("../../../README.md");
    for e in Engine::ALL {
        let cell = format!("| `{}`", e.info().name);
        assert!(readme.contains(&cell), "README's engine table lacks {cell}");
    }
    for h in HeuristicKind::ALL {
        let info = h.info();
        let props = if info.properties.consistent {
            "consistent"
        } else {
            "admissible"
        };
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", info.name)))
            .unwrap_or_else(|| panic!("README's heuristic table lacks {}", info.name));
        assert!(
            row.contains(&format!("| {props} |")),
            "README's row for {} does not say {props}: {row}",
            info.name
        );
    }
}

/// Only pattern databases need tables, and they cover the boards their index covers.
#[test]
fn tables_and_boards() {
    for h in HeuristicKind::ALL {
        let i = h.info();
        assert_eq!(
            i.tables == TableNeed::PatternDatabases,
            matches!(
                h,
                HeuristicKind::Pdb | HeuristicKind::Zpdb | HeuristicKind::MtmPdb
            )
        );
        assert!(i.boards.covers(Shape::square(3).unwrap()));
        assert!(i.properties.admissible || !i.properties.consistent);
    }
    // 3×11 = MAX_CELLS + 1, 5×13 = MAX_INDEX_CELLS + 1.
    let shape_of = |cells: usize| {
        let w = if cells == 33 { 3 } else { 5 };
        let shape = Shape::new(w, cells / w).unwrap();
        assert_eq!(shape.cells(), cells);
        shape
    };
    assert!(
        !HeuristicKind::Zpdb
            .info()
            .boards
            .covers(shape_of(npuzzle_pdb::MAX_CELLS + 1))
    );
    assert!(
        HeuristicKind::Pdb
            .info()
            .boards
            .covers(Shape::square(7).unwrap())
    );
    assert!(
        !HeuristicKind::Pdb
            .info()
            .boards
            .covers(shape_of(npuzzle_pdb::MAX_INDEX_CELLS + 1))
    );
    // Walking distance: the registry's boards are those the heuristic serves.
    let wd = HeuristicKind::WalkingDistance.info().boards;
    for w in 2..=9 {
        for h in 2..=9 {
            let shape = Shape::new(w, h).unwrap();
            assert_eq!(
                wd.covers(shape),
                WalkingDistance::supports(shape),
                "{shape}"
            );
        }
    }
    assert!(wd.covers(Shape::square(4).unwrap()));
    assert!(!wd.covers(Shape::new(2, 7).unwrap()));
    assert!(!wd.covers(Shape::new(5, 4).unwrap()));
}
