//! Fitting a [`LearnedRanking`] (feature `fit`): bootstrap learning (Arfaee, Zilles & Holte,
//! "Learning heuristic functions for large state spaces", Artificial Intelligence 175, 2011)
//! from the answers of the project's own beams on seeded random boards, as **learning to
//! rank**: along each answer, the state the answer moves to should score below its siblings
//! (the other children of the same parent). A logistic loss on the feature differences with a
//! ridge penalty, minimised by Newton's method (`nalgebra`'s Cholesky factorisation).
//!
//! A regression of the moves left on the same features ranks worse than linear conflict
//! (BENCHMARKS.md, "Candidates for shorter beam answers that lost"; commit `6bd83d9`).

use std::sync::atomic::AtomicU32;

use nalgebra::{DMatrix, DVector};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;

use npuzzle_core::{Board, Goal, Heuristic, Layout, LinearConflict, Move, Shape, StopAt};
use npuzzle_nxn::{Constructive, VecBoard};

use crate::beam::{BeamCounts, Ties, beam_ties};
use crate::learned::{LearnedRanking, RankingWeights, offset_index};
use crate::shorten::shorten;

/// The fitting's settings; [`FitOptions::default`] is what the shipped models were fitted with
/// ([`LearnedRanking::shipped`]).
#[derive(Clone, Debug, PartialEq)]
pub struct FitOptions {
    /// Random boards solved a round (uniformly random solvable permutations).
    pub boards: usize,
    /// The beam width of the answers.
    pub width: usize,
    /// The seed of the boards (`ChaCha8`; round `r` uses `seed + r`).
    pub seed: u64,
    /// Rounds: the first ranks its beams by linear conflict, each later one by the ranking the
    /// round before fitted (the bootstrap); the last round's fit is the answer.
    pub rounds: usize,
    /// The ridge penalty on every weight.
    pub ridge: f64,
}

impl Default for FitOptions {
    /// 200 boards a round, width 8,192, seed 2026, 3 rounds, ridge 1. (Width 2,048 before:
    /// the model fitted on the wider beams' shorter answers ranks better, BENCHMARKS.md "The
    /// learned ranking fitted on wider beams".)
    fn default() -> FitOptions {
        FitOptions {
            boards: 200,
            width: 8192,
            seed: 2026,
            rounds: 3,
            ridge: 1.0,
        }
    }
}

/// What one round did: boards answered by its beams, their mean length, and the pairs fitted.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundReport {
    /// Boards whose beam found an answer shorter than the constructive one.
    pub answered: usize,
    /// The mean length of those answers (shortened), in moves.
    pub mean_length: f64,
    /// The (sibling, chosen child) pairs the ranking was fitted on.
    pub pairs: usize,
}

/// A uniformly random solvable board for `goal` from `rng`. O(cells).
fn random_board(goal: &Goal, rng: &mut rand_chacha::ChaCha8Rng) -> Layout {
    let shape = goal.shape();
    let mut cells: Vec<usize> = (0..shape.cells()).collect();
    cells.shuffle(rng);
    let layout = Layout::new(shape, &cells).expect("a permutation");
    if goal.parity(&layout).expect("same shape").solvable {
        return layout;
    }
    // Swapping two tiles (not the blank) flips the permutation's parity.
    let (a, b) = {
        let mut tiles = (0..cells.len()).filter(|&c| cells[c] != 0);
        (
            tiles.next().expect("3 tiles"),
            tiles.next().expect("3 tiles"),
        )
    };
    cells.swap(a, b);
    Layout::new(shape, &cells).expect("a permutation")
}

/// One board's answer: a beam of `width` ranked by `h`, bounded by the constructive answer,
/// shortened by 24-move windows; its states from the board to the goal. `None` when the beam
/// finds no answer shorter than the constructive one.
fn answer<H: Heuristic<VecBoard>>(
    h: &H,
    layout: &Layout,
    goal: &Goal,
    width: usize,
) -> Option<Vec<VecBoard>> {
    let board = VecBoard::from_layout(layout).expect("a board of the shape");
    let goal_key = VecBoard::from_layout(goal.layout())
        .expect("the goal")
        .key();
    let upper = AtomicU32::new(Constructive::solve_layout(layout, goal).len() as u32);
    let found = beam_ties(
        &board,
        &goal_key,
        h,
        width,
        1,
        Ties::Squares,
        &upper,
        &|| false,
        &BeamCounts::default(),
    )
    .ok()?;
    let moves: Vec<Move> = shorten(&board, &found, 24, 50_000, &StopAt::never());
    let mut b = board;
    let mut states = Vec::with_capacity(moves.len() + 1);
    states.push(b.clone());
    for &m in &moves {
        b.apply(m);
        states.push(b.clone());
    }
    Some(states)
}

/// The features of a board: one count per (|row offset|, |column offset|) of the tiles from
/// their goal cells (an offset index `|dr| · W + |dc|`), the same for the blank (indices W·H
/// and on), and linear conflict last. An item on its goal cell counts nothing.
fn features_of(shape: Shape, lc: &LinearConflict, goal: &Goal, board: &VecBoard) -> Vec<f64> {
    let n = shape.cells();
    let mut x = vec![0.0; 2 * n + 1];
    for c in 0..n {
        let tile = board.tile(c);
        if let Some(i) = offset_feature(shape, goal.cell_of(tile), c, tile == 0) {
            x[i] += 1.0;
        }
    }
    x[2 * n] = f64::from(Heuristic::<VecBoard>::estimate(lc, board));
    x
}

/// The feature index of an item whose goal cell is `home` standing on `cell` (`blank`: the
/// item is the blank); `None` on its goal cell.
fn offset_feature(shape: Shape, home: usize, cell: usize, blank: bool) -> Option<usize> {
    if home == cell {
        return None;
    }
    let offset = offset_index(shape.width(), home, cell);
    Some(if blank {
        shape.cells() + offset
    } else {
        offset
    })
}

/// Fits a ranking for `shape` (blank-last goal): `options.rounds` rounds of beams on random
/// boards, each followed by a fit of the pairs (sibling, chosen child) along their answers;
/// `progress` gets each round's report. Deterministic for given options on any thread count
/// (boards and pairs in order, sums in order).
///
/// Time: rounds × boards beams of `width` (about 0.2 s each at width 2,048 on 7×7, four times
/// that at 8,192) and 12 Newton steps on about 100,000 pairs of (2·cells + 1) features.
///
/// # Panics
/// If `options.rounds` or `options.boards` is 0.
pub fn fit(
    shape: Shape,
    options: &FitOptions,
    progress: &mut dyn FnMut(usize, &RoundReport),
) -> RankingWeights {
    assert!(options.rounds > 0 && options.boards > 0, "nothing to fit");
    let goal = Goal::blank_last(shape);
    let lc = LinearConflict::new(&goal);
    let mut weights: Option<RankingWeights> = None;
    for round in 0..options.rounds {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(options.seed + round as u64);
        let boards: Vec<Layout> = (0..options.boards)
            .map(|_| random_board(&goal, &mut rng))
            .collect();
        let ranking = weights
            .as_ref()
            .map(|w| LearnedRanking::new(w, &goal).expect("the same shape"));
        let answers: Vec<Vec<VecBoard>> = boards
            .par_iter()
            .filter_map(|layout| match &ranking {
                Some(r) => answer(r, layout, &goal, options.width),
                None => answer(&lc, layout, &goal, options.width),
            })
            .collect();
        let (w, pairs) = rank_fit(shape, &lc, &answers, &goal, options.ridge);
        progress(
            round,
            &RoundReport {
                answered: answers.len(),
                mean_length: answers.iter().map(|a| a.len() - 1).sum::<usize>() as f64
                    / answers.len().max(1) as f64,
                pairs,
            },
        );
        weights = Some(w);
    }
    weights.expect("at least one round")
}

/// The pairs of `answers` and the fit: weights `w` minimising
/// `Σ log(1 + exp(−w · (f(sibling) − f(chosen)))) + ridge/2 · |w|²` by 12 Newton steps from 0,
/// scaled so that linear conflict weighs 4 (a positive factor keeps every ranking), expanded
/// into (home, cell) weights. Returns the weights and the number of pairs.
fn rank_fit(
    shape: Shape,
    lc: &LinearConflict,
    answers: &[Vec<VecBoard>],
    goal: &Goal,
    ridge: f64,
) -> (RankingWeights, usize) {
    let n = shape.cells();
    let p = 2 * n + 1;
    // Each pair as the nonzero entries of f(sibling) − f(chosen).
    let mut pairs: Vec<Vec<(usize, f64)>> = Vec::new();
    for states in answers {
        for i in 0..states.len() - 1 {
            let chosen = &states[i + 1];
            let fc = features_of(shape, lc, goal, chosen);
            for m in states[i].legal() {
                let sibling = states[i].neighbor(m);
                if sibling.key() == chosen.key() || (i > 0 && sibling.key() == states[i - 1].key())
                {
                    continue;
                }
                let fs = features_of(shape, lc, goal, &sibling);
                let d: Vec<(usize, f64)> = (0..p)
                    .map(|j| (j, fs[j] - fc[j]))
                    .filter(|&(_, v)| v != 0.0)
                    .collect();
                if !d.is_empty() {
                    pairs.push(d);
                }
            }
        }
    }
    let mut w = DVector::<f64>::zeros(p);
    for _ in 0..12 {
        let mut gradient = &w * ridge;
        let mut hessian = DMatrix::<f64>::identity(p, p) * ridge;
        for d in &pairs {
            let z: f64 = d.iter().map(|&(j, v)| w[j] * v).sum();
            let s = 1.0 / (1.0 + z.exp()); // σ(−z): the probability of the wrong order
            for &(j, v) in d {
                gradient[j] -= s * v;
            }
            let c = s * (1.0 - s);
            for &(i, vi) in d {
                for &(j, vj) in d {
                    hessian[(i, j)] += c * vi * vj;
                }
            }
        }
        let step = hessian
            .cholesky()
            .expect("a ridge-penalised Hessian is positive definite")
            .solve(&gradient);
        w -= step;
    }
    let conflict_at = 2 * n;
    let k = if w[conflict_at] > 0.0 {
        4.0 / w[conflict_at]
    } else {
        1.0
    };
    let weights_of = |at: usize| {
        (0..n)
            .map(|i| if i == 0 { 0.0 } else { w[at + i] * k })
            .collect()
    };
    (
        RankingWeights {
            shape,
            tile: weights_of(0),
            blank: weights_of(n),
            conflict: w[conflict_at] * k,
        },
        pairs.len(),
    )
}

/// The provenance header of a model file fitted with `options` (the `#` lines of
/// [`RankingWeights::to_text`]).
pub fn header(shape: Shape, options: &FitOptions) -> Vec<String> {
    let (w, h) = (shape.width(), shape.height());
    vec![
        format!("Learned beam ranking for {w}x{h} (npuzzle_suboptimal::LearnedRanking), blank-last goal."),
        "Fitted by: cargo run --release -p npuzzle-suboptimal --features fit --example fit_ranking --".to_owned(),
        format!(
            "  {w}x{h} {} {} {} {}   (boards a round, beam width, seed, rounds; ridge {})",
            options.boards, options.width, options.seed, options.rounds, options.ridge
        ),
        "Data: uniformly random solvable boards (ChaCha8 from the seed), never DeepCubeA's states;".to_owned(),
        "  pairs: along each shortened beam answer, the child taken against its siblings.".to_owned(),
        "Weights: conflict x linear conflict + tile[|drow|][|dcol|] per tile + blank[|drow|][|dcol|].".to_owned(),
    ]
}
