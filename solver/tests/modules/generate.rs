use npuzzle::generate::*;
use npuzzle::*;
use npuzzle_core::Shape;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[test]
fn uniform_boards_are_solvable_and_reproducible() {
    for (w, h) in [(2, 2), (3, 3), (4, 3), (4, 4), (5, 5), (2, 7)] {
        let shape = Shape::new(w, h).unwrap();
        for goal in [Goal::blank_last(shape), Goal::blank_first(shape)] {
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let boards: Vec<Layout> = (0..50).map(|_| random_solvable(&goal, &mut rng)).collect();
            assert!(boards.iter().all(|b| goal.parity(b).unwrap().solvable));
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let again: Vec<Layout> = (0..50).map(|_| random_solvable(&goal, &mut rng)).collect();
            assert_eq!(boards, again);
        }
    }
}

#[test]
fn two_by_two_is_uniform_over_the_12_solvable_boards() {
    let goal = Goal::blank_last(Shape::square(2).unwrap());
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut counts = std::collections::HashMap::new();
    for _ in 0..12_000 {
        *counts
            .entry(random_solvable(&goal, &mut rng).to_compact())
            .or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), 12);
    assert!(
        counts.values().all(|&c| (800..1200).contains(&c)),
        "{counts:?}"
    );
}

#[test]
fn requests_are_bounded() {
    assert!(check(Method::Walk(MAX_WALK), MAX_COUNT).is_ok());
    let e = check(Method::Walk(u64::MAX), 1).unwrap_err().to_string();
    assert_eq!(e, "walk 18446744073709551615: at most 10000000 moves");
    let e = check(Method::Uniform, MAX_COUNT + 1)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "count 10000001: at most 10000000 boards at a time");
}

#[test]
fn walks_stay_solvable() {
    let goal = Goal::blank_first(Shape::new(5, 3).unwrap());
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for k in [0, 1, 2, 10, 1000] {
        let b = random_walk(&goal, k, &mut rng);
        assert!(goal.parity(&b).unwrap().solvable);
        if k == 0 {
            assert_eq!(&b, goal.layout());
        }
        if k == 1 {
            assert_eq!(b.shape().distance(b.blank(), goal.cell_of(0)), 1);
        }
    }
}
