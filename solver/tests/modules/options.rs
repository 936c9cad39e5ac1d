use npuzzle::npuzzle_pdb::PartitionSpec;
use npuzzle::*;
use npuzzle_astar::{AStar, Greedy};
use npuzzle_bidirectional::Bidirectional;
use npuzzle_core::{BitBoard, Guarantee, Solver};
use npuzzle_core::{Goal, Hamming, Heuristic, LinearConflict, Manhattan, Zero};
use npuzzle_idastar::{AStarIdaStar, IdaStar};
use npuzzle_nxn::{Constructive, WeightedAStar};
use npuzzle_suboptimal::AnytimeBeam;

#[test]
fn names_round_trip_and_match_the_engines() {
    for e in Engine::ALL {
        assert_eq!(Engine::from_name(e.name()), Some(e));
    }
    assert_eq!(Engine::from_name("nxn"), Some(Engine::Constructive));
    for h in HeuristicKind::ALL {
        assert_eq!(HeuristicKind::from_name(h.name()), Some(h));
    }
    assert_eq!(
        Engine::IdaStar.name(),
        Solver::<BitBoard>::name(&IdaStar::new())
    );
    assert_eq!(
        Engine::AStar.name(),
        Solver::<BitBoard>::name(&AStar::new())
    );
    assert_eq!(
        Engine::Bidirectional.name(),
        Solver::<BitBoard>::name(&Bidirectional::new())
    );
    assert_eq!(
        Engine::WeightedAStar.name(),
        Solver::<BitBoard>::name(&WeightedAStar::new(2.0).unwrap())
    );
    assert_eq!(
        Engine::Constructive.name(),
        Solver::<BitBoard>::name(&Constructive::new())
    );
    assert_eq!(
        Engine::Greedy.name(),
        Solver::<BitBoard>::name(&Greedy::new())
    );
    assert_eq!(
        Engine::AStarIdaStar.name(),
        Solver::<BitBoard>::name(&AStarIdaStar::new())
    );
    assert_eq!(
        Engine::Beam.name(),
        Solver::<BitBoard>::name(&AnytimeBeam::default())
    );
    assert_eq!(
        Engine::HillClimbing.name(),
        Solver::<BitBoard>::name(&npuzzle_suboptimal::HillClimbing::new())
    );
    for e in Engine::ALL {
        assert_eq!(Engine::from_name(e.name()), Some(e));
    }
}

#[test]
fn declared_properties_match_the_heuristics() {
    let goal = Goal::blank_last(Shape::square(3).unwrap());
    let check = |kind: HeuristicKind, name: &str, p: HeuristicProperties| {
        assert_eq!(kind.name(), name);
        assert_eq!(kind.properties(), p, "{name}");
    };
    check(
        HeuristicKind::Manhattan,
        Heuristic::<BitBoard>::name(&Manhattan::new(&goal)),
        Heuristic::<BitBoard>::properties(&Manhattan::new(&goal)),
    );
    check(
        HeuristicKind::LinearConflict,
        Heuristic::<BitBoard>::name(&LinearConflict::new(&goal)),
        Heuristic::<BitBoard>::properties(&LinearConflict::new(&goal)),
    );
    check(
        HeuristicKind::Hamming,
        Heuristic::<BitBoard>::name(&Hamming::new(&goal)),
        Heuristic::<BitBoard>::properties(&Hamming::new(&goal)),
    );
    check(
        HeuristicKind::Zero,
        Heuristic::<BitBoard>::name(&Zero),
        Heuristic::<BitBoard>::properties(&Zero),
    );
    let db = npuzzle_pdb::PatternDb::build(&goal, &PartitionSpec::Default, false, &|_| {}).unwrap();
    check(
        HeuristicKind::Pdb,
        Heuristic::<BitBoard>::name(&db),
        Heuristic::<BitBoard>::properties(&db),
    );
    let z =
        npuzzle_pdb::ZeroAwareDb::build(&goal, &PartitionSpec::Default, false, &|_| {}).unwrap();
    check(
        HeuristicKind::Zpdb,
        Heuristic::<BitBoard>::name(&z),
        Heuristic::<BitBoard>::properties(&z),
    );
}

/// Every engine × heuristic: what is proven.
#[test]
fn every_combination_claims_what_is_proven() {
    use Guarantee::{Optimal, Unproven, WithinFactor};
    for h in HeuristicKind::ALL {
        let p = h.properties();
        let consistent = h != HeuristicKind::Pdb;
        for e in [Engine::IdaStar, Engine::AStar, Engine::Bidirectional] {
            assert_eq!(e.guarantee(1.0, p).unwrap(), Optimal, "{e:?} {h:?}");
        }
        assert_eq!(Engine::Constructive.guarantee(1.0, p).unwrap(), Unproven);
        assert_eq!(Engine::Greedy.guarantee(1.0, p).unwrap(), Unproven);
        assert_eq!(Engine::Beam.guarantee(1.0, p).unwrap(), Unproven);
        assert_eq!(Engine::HillClimbing.guarantee(1.0, p).unwrap(), Unproven);
        let w1 = Engine::WeightedAStar.guarantee(1.0, p).unwrap();
        let w2 = Engine::WeightedAStar.guarantee(2.0, p).unwrap();
        if consistent {
            assert_eq!((w1, w2), (Optimal, WithinFactor(2.0)), "{h:?}");
        } else {
            assert_eq!((w1, w2), (Unproven, Unproven), "{h:?}");
        }
    }
    // A heuristic that declares nothing makes no engine optimal.
    for e in Engine::ALL {
        assert_eq!(
            e.guarantee(1.0, HeuristicProperties::NONE).unwrap(),
            Unproven
        );
    }
    assert!(
        Engine::WeightedAStar
            .guarantee(0.5, HeuristicProperties::CONSISTENT)
            .is_err()
    );
}

#[test]
fn goals() {
    assert_eq!(
        parse_goal("blank-first", None).unwrap(),
        GoalKind::BlankFirst
    );
    let e = parse_goal("12345678", None).unwrap_err().to_string();
    assert!(e.starts_with("bad goal \"12345678\""), "{e}");
    let g = parse_goal("1 2 3 4 5 6 7 8 9 10 11 0", Shape::new(4, 3).ok()).unwrap();
    assert!(matches!(g, GoalKind::Custom(l) if l.shape().width() == 4));
}
