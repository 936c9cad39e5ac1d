//! Fitting a [`LearnedRanking`](crate::LearnedRanking) (feature `fit`): bootstrap learning
//! (Arfaee, Zilles & Holte, Artificial Intelligence 175, 2011) from the answers of the
//! project's own beams on seeded random boards, by ridge regression (least squares with a small
//! penalty, solved by `nalgebra`'s Cholesky factorisation).

use std::sync::atomic::AtomicU32;

use nalgebra::{DMatrix, DVector};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;

use npuzzle_core::{Board, Goal, Heuristic, Layout, LinearConflict, Move, Shape};
use npuzzle_nxn::{Constructive, VecBoard};

use crate::beam::{BeamCounts, Ties, beam_ties};
use crate::learned::{LearnedRanking, RankingWeights};
use crate::shorten::shorten;

/// The fitting's settings; [`FitOptions::default`] is what the shipped models were fitted with.
#[derive(Clone, Debug, PartialEq)]
pub struct FitOptions {
    /// Random boards solved a round (uniformly random solvable permutations).
    pub boards: usize,
    /// The beam width of the answers.
    pub width: usize,
    /// The seed of the boards (`ChaCha8`; round `r` uses `seed + r`).
    pub seed: u64,
    /// Rounds: the first ranks its beams by linear conflict, each later one by the ranking the
    /// round before fitted (the bootstrap), and the last round's fit is the answer.
    pub rounds: usize,
    /// The ridge penalty on every weight (in squared moves).
    pub ridge: f64,
    /// The terms fitted.
    pub features: Features,
}

impl Default for FitOptions {
    /// 200 boards a round, width 2,048, seed 2026, 2 rounds, ridge 1.
    fn default() -> FitOptions {
        FitOptions {
            boards: 200,
            width: 2048,
            seed: 2026,
            rounds: 2,
            ridge: 1.0,
            features: Features::Offsets,
        }
    }
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
/// shortened by 24-move windows; every state of it with the moves it still needs. Empty when
/// the beam finds no answer shorter than the constructive one (its remaining lengths would
/// teach the constructive solver's detours).
fn samples<H: Heuristic<VecBoard>>(
    h: &H,
    layout: &Layout,
    goal: &Goal,
    width: usize,
) -> Vec<(Layout, u32)> {
    let board = VecBoard::from_layout(layout).expect("a board of the shape");
    let goal_key = VecBoard::from_layout(goal.layout())
        .expect("the goal")
        .key();
    let first = Constructive::solve_layout(layout, goal);
    let upper = AtomicU32::new(first.len() as u32);
    let counts = BeamCounts::default();
    let found = beam_ties(
        &board,
        &goal_key,
        h,
        width,
        1,
        Ties::Squares,
        &upper,
        &|| false,
        &counts,
    );
    let Ok(found) = found else {
        return Vec::new();
    };
    let moves: Vec<Move> = shorten(&board, &found, 24, 50_000, None);
    let mut b = board;
    let mut out = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        out.push((b.to_layout(), (moves.len() - i) as u32));
        b.apply(m);
    }
    out
}

/// Fits a ranking for `shape` (blank-last goal): `options.rounds` rounds of beams on random
/// boards and a ridge regression of the moves left on the features of
/// [`LearnedRanking`](crate::LearnedRanking); `progress` gets one line a round. Deterministic
/// for given options (boards in order, sums in order), on any thread count.
///
/// Time: rounds × boards beams of `width` (about 0.1 s each at width 2,048 on 7×7) plus one
/// Cholesky factorisation of (cells² + 2)² doubles a round (about 3 s and 46 MB on 7×7).
///
/// # Panics
/// If `options.rounds` or `options.boards` is 0.
pub fn fit(shape: Shape, options: &FitOptions, progress: &mut dyn FnMut(&str)) -> RankingWeights {
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
        let data: Vec<Vec<(Layout, u32)>> = boards
            .par_iter()
            .map(|layout| match &ranking {
                Some(r) => samples(r, layout, &goal, options.width),
                None => samples(&lc, layout, &goal, options.width),
            })
            .collect();
        let solved = data.iter().filter(|d| !d.is_empty()).count();
        let mean = data.iter().map(Vec::len).sum::<usize>() as f64 / solved.max(1) as f64;
        let w = regress(
            shape,
            options.features,
            &lc,
            data.iter().flatten(),
            options.ridge,
        );
        progress(&format!(
            "round {round}: {solved} of {} boards answered by the beams, mean answer {mean:.2} moves, {} samples",
            boards.len(),
            data.iter().map(Vec::len).sum::<usize>()
        ));
        weights = Some(w);
    }
    weights.expect("at least one round")
}

/// The terms a ranking is fitted with; each expands into [`LearnedRanking`]'s table of
/// (home, cell) weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Features {
    /// One weight per (|row offset|, |column offset|) of a tile from its goal cell, shared by
    /// every tile, and one per offset of the blank: 2·W·H weights, plus linear conflict.
    Offsets,
    /// One weight per (tile's goal cell, cell): cells² weights, plus linear conflict (noisy:
    /// thousands of weights from correlated samples).
    TileCells,
}

/// The feature index of the item whose goal cell is `home` standing on `cell`, `None` at home
/// (an item on its goal cell adds nothing, so the goal scores 0), and the number of features
/// besides linear conflict.
fn feature(
    features: Features,
    shape: Shape,
    blank_home: usize,
    home: usize,
    cell: usize,
) -> Option<usize> {
    if home == cell {
        return None;
    }
    let (w, n) = (shape.width(), shape.cells());
    match features {
        Features::TileCells => Some(home * n + cell),
        Features::Offsets => {
            let (hr, hc) = (home / w, home % w);
            let (r, c) = (cell / w, cell % w);
            let offset = hr.abs_diff(r) * w + hc.abs_diff(c);
            Some(if home == blank_home {
                n + offset
            } else {
                offset
            })
        }
    }
}

/// The number of features of `features` on `shape`, besides linear conflict.
fn feature_count(features: Features, shape: Shape) -> usize {
    let n = shape.cells();
    match features {
        Features::TileCells => n * n,
        Features::Offsets => 2 * n,
    }
}

/// The ridge regression of the moves left on the `features` and linear conflict, from
/// `(board, moves left)` samples, expanded into a table of (home, cell) weights. There is no
/// constant term: the goal scores 0. O(samples · cells² + p³) for p features.
fn regress<'a>(
    shape: Shape,
    features: Features,
    lc: &LinearConflict,
    samples: impl Iterator<Item = &'a (Layout, u32)>,
    ridge: f64,
) -> RankingWeights {
    let n = shape.cells();
    let f = feature_count(features, shape);
    let p = f + 1;
    let conflict_at = f;
    let goal = Goal::blank_last(shape);
    let blank_home = goal.cell_of(0);
    let mut xtx = DMatrix::<f64>::zeros(p, p);
    let mut xty = DVector::<f64>::zeros(p);
    // Each board's samples are centred on the board's means (a fixed effect a board): the fit
    // learns what distinguishes the states of one answer from each other — what a beam's
    // ranking compares — not what distinguishes hard boards from easy ones.
    let centred = std::env::var_os("FIT_CENTRED").is_some();
    let mut rows: Vec<(Vec<f64>, f64)> = Vec::new();
    let flush =
        |rows: &mut Vec<(Vec<f64>, f64)>, xtx: &mut DMatrix<f64>, xty: &mut DVector<f64>| {
            if rows.is_empty() {
                return;
            }
            let k = rows.len() as f64;
            let mut mx = vec![0.0; p];
            let mut my = 0.0;
            if centred {
                for (x, y) in rows.iter() {
                    for i in 0..p {
                        mx[i] += x[i] / k;
                    }
                    my += y / k;
                }
            }
            for (x, y) in rows.iter() {
                let d: Vec<(usize, f64)> = (0..p)
                    .map(|i| (i, x[i] - mx[i]))
                    .filter(|&(_, v)| v != 0.0)
                    .collect();
                for &(i, xi) in &d {
                    xty[i] += xi * (y - my);
                    for &(j, xj) in &d {
                        xtx[(i, j)] += xi * xj;
                    }
                }
            }
            rows.clear();
        };
    let mut last_left = u32::MAX;
    for (layout, left) in samples {
        // A new answer starts where the moves left do not fall by one.
        if last_left != left + 1 {
            flush(&mut rows, &mut xtx, &mut xty);
        }
        last_left = *left;
        let board = VecBoard::from_layout(layout).expect("a board of the shape");
        let mut x = vec![0.0f64; p];
        for c in 0..n {
            if let Some(i) = feature(features, shape, blank_home, goal.cell_of(board.tile(c)), c) {
                x[i] += 1.0;
            }
        }
        x[conflict_at] = f64::from(Heuristic::<VecBoard>::estimate(lc, &board));
        rows.push((x, f64::from(*left)));
    }
    flush(&mut rows, &mut xtx, &mut xty);
    for i in 0..p {
        xtx[(i, i)] += ridge;
    }
    let solution = xtx
        .cholesky()
        .expect("a ridge-penalised Gram matrix is positive definite")
        .solve(&xty);
    let mut table = vec![0.0; n * n];
    for home in 0..n {
        for cell in 0..n {
            if let Some(i) = feature(features, shape, blank_home, home, cell) {
                table[home * n + cell] = solution[i];
            }
        }
    }
    RankingWeights {
        shape,
        table,
        conflict: solution[conflict_at],
        bias: 0.0,
    }
}
