//! The multi-tile metric through the facade: `Config::metric(Metric::Mtm)` reaches the MTM
//! IDA\* (exact MTM optima checked against breadth-first search in `npuzzle-idastar`'s tests;
//! here the wiring: lengths, guarantees, lower bounds, refusals, records).

use npuzzle::{Config, Engine, Error, Guarantee, HeuristicKind, Metric, Record, mtm_length};

const HARD8: &str = "8 6 7 2 5 4 3 0 1";

#[test]
fn auto_and_idastar_prove_the_mtm_optimum() {
    for config in [
        Config::new().metric(Metric::Mtm),
        Config::new().metric(Metric::Mtm).engine(Engine::IdaStar),
        Config::new()
            .metric(Metric::Mtm)
            .engine(Engine::IdaStar)
            .heuristic(HeuristicKind::Zero)
            .optimal(true),
    ] {
        let answer = config.build().unwrap().solve_str(HARD8).unwrap();
        assert_eq!(answer.metric, Metric::Mtm);
        assert_eq!(answer.engine, Engine::IdaStar);
        assert_eq!(answer.length(), 20);
        assert_eq!(answer.lower_bound, 20);
        assert!(answer.is_optimal());
        let moves = &answer.solution.as_ref().unwrap().moves;
        assert_eq!(mtm_length(moves), 20);
        assert_eq!(answer.len(), moves.len());
        let record = Record::from(&answer);
        assert_eq!(
            (record.length, record.length_mtm, record.length_stm),
            (Some(20), Some(20), Some(moves.len()))
        );
    }
    // STM is unchanged, and its record counts both.
    let stm = npuzzle::solve(HARD8).unwrap();
    assert_eq!((stm.metric, stm.length(), stm.len()), (Metric::Stm, 31, 31));
    let record = Record::from(&stm);
    assert_eq!(record.length, Some(31));
    assert!(record.length_mtm.unwrap() >= 20);
}

#[test]
fn other_engines_are_unproven_in_mtm_and_refused_with_optimal() {
    for engine in [Engine::AStar, Engine::Bidirectional, Engine::Greedy] {
        let answer = Config::new()
            .metric(Metric::Mtm)
            .engine(engine)
            .build()
            .unwrap()
            .solve_str(HARD8)
            .unwrap();
        let s = answer.solution.as_ref().unwrap();
        assert_eq!(s.guarantee, Guarantee::Unproven, "{engine:?}");
        assert!(answer.length() >= 20);
        // The MTM bound of the start board, at most the MTM optimum.
        assert!(answer.lower_bound <= 20 && answer.lower_bound > 0);
        let e = Config::new()
            .metric(Metric::Mtm)
            .engine(engine)
            .optimal(true)
            .build()
            .unwrap_err();
        assert!(matches!(e, Error::MetricNotProven { engine: x } if x == engine));
    }
    // A heuristic that is not admissible in MTM is refused by the MTM search.
    for h in [
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
        HeuristicKind::Hamming,
        HeuristicKind::Pdb,
    ] {
        let e = Config::new()
            .metric(Metric::Mtm)
            .heuristic(h)
            .build()
            .unwrap_err();
        assert!(
            e.to_string()
                .contains("not admissible in the multi-tile metric"),
            "{e}"
        );
    }
    // Every heuristic declares whether it is admissible in MTM.
    let mtm: Vec<_> = HeuristicKind::ALL
        .iter()
        .filter(|h| h.info().mtm_admissible)
        .map(|h| h.name())
        .collect();
    assert_eq!(mtm, ["zero", "mtm-manhattan"]);
}

#[test]
fn mtm_manhattan_is_a_valid_stm_heuristic_too() {
    let answer = Config::new()
        .engine(Engine::IdaStar)
        .heuristic(HeuristicKind::MtmManhattan)
        .build()
        .unwrap()
        .solve_str("1 2 3 4 5 6 0 7 8")
        .unwrap();
    assert_eq!((answer.length(), answer.is_optimal()), (2, true));
}
