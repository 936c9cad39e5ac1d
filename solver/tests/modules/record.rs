use npuzzle::*;

#[test]
fn unsolvable_record_has_nulls_and_round_trips() {
    let answer = npuzzle::Config::new()
        .build()
        .unwrap()
        .solve_str("123456870")
        .unwrap();
    let record = Record::from(&answer);
    let json = serde_json::to_value(&record).unwrap();
    assert_eq!(json["solvable"], false);
    for key in [
        "optimal",
        "guarantee",
        "lower_bound",
        "length",
        "length_stm",
        "length_mtm",
        "moves",
        "moves_counts",
        "stats",
    ] {
        assert!(json[key].is_null(), "{key}");
    }
    assert!(json.get("weight").is_none());
    assert_eq!(json["parity"]["transpositions"], 1);
    let back: Record = serde_json::from_value(json).unwrap();
    assert_eq!(back, record);
}

#[test]
fn solved_record_round_trips_with_iterations() {
    let answer = npuzzle::Config::new()
        .engine(npuzzle::Engine::IdaStar)
        .heuristic(npuzzle::HeuristicKind::Manhattan)
        .build()
        .unwrap()
        .solve_str("8 6 7 2 5 4 3 0 1")
        .unwrap();
    let record = Record::from(&answer);
    assert_eq!(record.length, Some(31));
    assert_eq!(record.length_stm, Some(31));
    assert_eq!(record.metric, Metric::Stm);
    let counts = record.moves_counts.as_deref().unwrap();
    assert_eq!(
        npuzzle_core::parse_moves(counts).unwrap(),
        npuzzle_core::parse_moves(record.moves.as_deref().unwrap()).unwrap()
    );
    assert_eq!(
        record.length_mtm,
        Some(npuzzle_core::parse_move_groups(counts).unwrap().len())
    );
    assert_eq!(record.optimal, Some(true));
    assert_eq!(record.guarantee, Some(Guarantee::Optimal));
    let json = serde_json::to_string(&record).unwrap();
    let back: Record = serde_json::from_str(&json).unwrap();
    assert_eq!(back, record);
    assert!(!back.stats.unwrap().stats.iterations.is_empty());
}
