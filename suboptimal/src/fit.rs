//! Fitting a [`LearnedRanking`] (feature `fit`): bootstrap learning (Arfaee, Zilles & Holte,
//! "Learning heuristic functions for large state spaces", Artificial Intelligence 175, 2011)
//! from the answers of the project's own beams on seeded random boards, as **learning to
//! rank**: along each answer, the answer's state at depth d should score below the other states
//! of the beam's layer d ([`Objective::Layer`], the shipped models' objective; Xu & Fern,
//! "On learning linear ranking functions for beam search", ICML 2007), or below its siblings
//! only ([`Objective::Siblings`], the models shipped before: at a fixed width their beams'
//! answers were 3.5 % (6×6) and 4.9 % (7×7) longer, BENCHMARKS.md "The learned ranking fitted
//! across the beam's layer"). A logistic loss on the feature differences with a ridge penalty,
//! minimised by Newton's method (`nalgebra`'s Cholesky factorisation).
//!
//! With [`FitOptions::stages`] (the shipped models: from 0.45 and 0.9 of the start's linear
//! conflict) each pair belongs to the stage of its depth, and each stage's weights are the
//! sum of a block all stages share and a block of its own, both under the ridge penalty, so
//! that a stage with few pairs of some offset keeps the shared weight for it (fitted on its own
//! pairs only, the last stage's far offsets were noise; its answers were as short).
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

use crate::beam::{BeamCounts, Ties, beam_observed};
use crate::learned::{
    LearnedRanking, RankingWeights, Stage, StageWeights, from_fixed, offset_index, stage_and_left,
};
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
    /// What the ranking learns to order ([`Objective`]).
    pub objective: Objective,
    /// Where the model's later stages start ([`crate::Stage::from`]: fractions of the start's
    /// linear conflict, increasing; empty: one stage). Each stage's weights are fitted on the
    /// pairs of its depths, shrunk toward weights all stages share (see the module's docs).
    pub stages: Vec<f64>,
}

/// What a fit's ranking learns to order along each answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Objective {
    /// The state the answer moves to before its siblings (the other children of the same
    /// parent): what the models shipped until 2026-11-30 were fitted with.
    Siblings,
    /// The answer's state at depth d before states of the beam's layer d ([`LAYER_SAMPLES`]
    /// of them, evenly spread over the layer): the beam keeps a state by its rank among the
    /// whole layer, not among its siblings (learning beam-search rankings across the layer:
    /// Xu & Fern, "On learning linear ranking functions for beam search", ICML 2007). The
    /// shipped models' objective.
    #[default]
    Layer,
    /// Both kinds of pairs together.
    Both,
}

impl Objective {
    /// The name `fit_ranking` takes: `siblings`, `layer` or `both`.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Siblings => "siblings",
            Objective::Layer => "layer",
            Objective::Both => "both",
        }
    }

    /// The objective of a [`Objective::name`], `None` for another word.
    pub fn from_name(name: &str) -> Option<Objective> {
        [Objective::Siblings, Objective::Layer, Objective::Both]
            .into_iter()
            .find(|o| o.name() == name)
    }
}

/// States sampled from each beam layer for [`Objective::Layer`].
pub const LAYER_SAMPLES: usize = 8;

impl Default for FitOptions {
    /// 200 boards a round, width 8,192, seed 2026, 3 rounds, ridge 1, the layer objective,
    /// stages from 0.45 and 0.9. (Width 2,048 before: the model fitted on the wider beams'
    /// shorter answers ranks better, BENCHMARKS.md "The learned ranking fitted on wider beams";
    /// fitted on width-32,768 beams, no better again: "Learned rankings by stage of the
    /// solve".)
    fn default() -> FitOptions {
        FitOptions {
            boards: 200,
            width: 8192,
            seed: 2026,
            rounds: 3,
            ridge: 1.0,
            objective: Objective::Layer,
            stages: vec![0.45, 0.9],
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
    /// The (other state, answer's state) pairs the ranking was fitted on.
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
/// shortened by 24-move windows; its states from the board to the goal, and for each depth
/// d ≥ 1 up to [`LAYER_SAMPLES`] states of the beam's layer d (evenly spread over it; empty
/// unless `samples`). `None` when the beam finds no answer shorter than the constructive one.
fn answer<H: Heuristic<VecBoard>>(
    h: &H,
    layout: &Layout,
    goal: &Goal,
    width: usize,
    samples: bool,
) -> Option<(Vec<VecBoard>, Vec<Vec<VecBoard>>)> {
    let board = VecBoard::from_layout(layout).expect("a board of the shape");
    let goal_key = VecBoard::from_layout(goal.layout())
        .expect("the goal")
        .key();
    let upper = AtomicU32::new(Constructive::solve_layout(layout, goal).len() as u32);
    let mut layers: Vec<Vec<VecBoard>> = vec![Vec::new()];
    let found = beam_observed(
        &board,
        &goal_key,
        h,
        width,
        1,
        Ties::Squares,
        &upper,
        &|| false,
        &BeamCounts::default(),
        &mut |_, layer| {
            if samples {
                let n = layer.len();
                let k = LAYER_SAMPLES.min(n);
                layers.push((0..k).map(|i| layer[i * n / k].clone()).collect());
            }
        },
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
    Some((states, layers))
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
/// boards, each followed by a fit of the pairs (other state, answer's state) along their
/// answers by `options.objective`; `progress` gets each round's report. Deterministic for
/// given options on any thread count (boards and pairs in order, sums in order).
///
/// Time: rounds × boards beams of `width` (about 0.2 s each at width 2,048 on 7×7, four times
/// that at 8,192) and 12 Newton steps on the pairs (with [`Objective::Layer`] about 2,800 a
/// 7×7 board of (2·cells + 1) features, twice that with stages; the defaults take about 2.5
/// minutes on 7×7 and 2 on 6×6 on two cores, release build).
///
/// # Panics
/// If `options.rounds` or `options.boards` is 0, or `options.stages` are not finite, positive
/// and increasing.
pub fn fit(
    shape: Shape,
    options: &FitOptions,
    progress: &mut dyn FnMut(usize, &RoundReport),
) -> RankingWeights {
    assert!(options.rounds > 0 && options.boards > 0, "nothing to fit");
    assert!(
        options.stages.iter().all(|f| f.is_finite())
            && std::iter::once(&0.0)
                .chain(&options.stages)
                .zip(&options.stages)
                .all(|(a, b)| a < b),
        "stages {:?}: not positive and increasing",
        options.stages
    );
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
        let samples = options.objective != Objective::Siblings;
        let answers: Vec<(Vec<VecBoard>, Vec<Vec<VecBoard>>)> = boards
            .par_iter()
            .filter_map(|layout| match &ranking {
                Some(r) => answer(r, layout, &goal, options.width, samples),
                None => answer(&lc, layout, &goal, options.width, samples),
            })
            .collect();
        let (w, pairs) = rank_fit(shape, &lc, &answers, &goal, options);
        progress(
            round,
            &RoundReport {
                answered: answers.len(),
                mean_length: answers.iter().map(|a| a.0.len() - 1).sum::<usize>() as f64
                    / answers.len().max(1) as f64,
                pairs,
            },
        );
        weights = Some(w);
    }
    weights.expect("at least one round")
}

/// The pairs of `answers` (states along each answer and the beam layers' samples) by
/// `options.objective`, and the fit: weights `w` minimising
/// `Σ log(1 + exp(−w · (f(other) − f(answer's state)))) + ridge/2 · |w|²` by 12 Newton steps
/// from 0 (with stages, f places a pair's features in the shared block and in its stage's
/// block), each stage's weights scaled so that linear conflict weighs 4 (a positive factor
/// keeps every ranking within the stage, and a beam compares states of one stage only).
/// Returns the weights and the number of pairs.
fn rank_fit(
    shape: Shape,
    lc: &LinearConflict,
    answers: &[(Vec<VecBoard>, Vec<Vec<VecBoard>>)],
    goal: &Goal,
    options: &FitOptions,
) -> (RankingWeights, usize) {
    let n = shape.cells();
    let p = 2 * n + 1;
    // Each pair as its stage and the nonzero entries of f(other) − f(answer's state).
    let mut pairs: Vec<(usize, Vec<(usize, f64)>)> = Vec::new();
    let mut push = |stage: usize, fs: &[f64], fc: &[f64]| {
        let d: Vec<(usize, f64)> = (0..p)
            .map(|j| (j, fs[j] - fc[j]))
            .filter(|&(_, v)| v != 0.0)
            .collect();
        if !d.is_empty() {
            pairs.push((stage, d));
        }
    };
    let siblings = options.objective != Objective::Layer;
    let layer = options.objective != Objective::Siblings;
    let froms: Vec<u64> = options.stages.iter().map(|&f| from_fixed(f)).collect();
    for (states, layers) in answers {
        let h0 = Heuristic::<VecBoard>::estimate(lc, &states[0]).min(u32::from(u16::MAX));
        for i in 0..states.len() - 1 {
            let stage = stage_and_left(&froms, h0, (i + 1) as u64).0;
            let chosen = &states[i + 1];
            let fc = features_of(shape, lc, goal, chosen);
            if siblings {
                for m in states[i].legal() {
                    let sibling = states[i].neighbor(m);
                    if sibling.key() == chosen.key()
                        || (i > 0 && sibling.key() == states[i - 1].key())
                    {
                        continue;
                    }
                    push(stage, &features_of(shape, lc, goal, &sibling), &fc);
                }
            }
            if layer && let Some(sampled) = layers.get(i + 1) {
                for other in sampled {
                    if other.key() != chosen.key() {
                        push(stage, &features_of(shape, lc, goal, other), &fc);
                    }
                }
            }
        }
    }
    let count = pairs.len();
    // With stages, each pair's features appear twice: in the block all stages share, and in
    // its stage's own block; a stage's weights are the sum of the two, so that the ridge
    // shrinks each stage toward the shared weights (a stage with few pairs, such as the far
    // offsets late in the answers, keeps the shared weights).
    let stages = options.stages.len() + 1;
    let all: Vec<Vec<(usize, f64)>> = pairs
        .into_iter()
        .map(|(k, d)| {
            if stages == 1 {
                return d;
            }
            let own: Vec<(usize, f64)> = d.iter().map(|&(j, v)| ((k + 1) * p + j, v)).collect();
            d.into_iter().chain(own).collect()
        })
        .collect();
    let refs: Vec<&Vec<(usize, f64)>> = all.iter().collect();
    let width = if stages == 1 { p } else { (stages + 1) * p };
    let w = newton(width, &refs, options.ridge);
    let mut blocks = (0..stages).map(|k| {
        let mut wk: Vec<f64> = w.as_slice()[..p].to_vec();
        if stages > 1 {
            for (j, x) in wk.iter_mut().enumerate() {
                *x += w[(k + 1) * p + j];
            }
        }
        scaled(n, &wk)
    });
    let first = blocks.next().expect("stage 0");
    let stages = blocks
        .zip(&options.stages)
        .map(|(weights, &from)| Stage { from, weights })
        .collect();
    (
        RankingWeights {
            shape,
            first,
            stages,
        },
        count,
    )
}

/// The weights minimising the logistic loss of `pairs` (nonzero entries of
/// f(other) − f(answer's state), `p` features) plus `ridge`/2 · |w|², by 12 Newton steps
/// from 0. O(12 · (Σ nonzeros² + p³)).
fn newton(p: usize, pairs: &[&Vec<(usize, f64)>], ridge: f64) -> DVector<f64> {
    let mut w = DVector::<f64>::zeros(p);
    for _ in 0..12 {
        let mut gradient = &w * ridge;
        let mut hessian = DMatrix::<f64>::identity(p, p) * ridge;
        for d in pairs {
            let z: f64 = d.iter().map(|&(j, v)| w[j] * v).sum();
            let s = 1.0 / (1.0 + z.exp()); // σ(−z): the probability of the wrong order
            for &(j, v) in *d {
                gradient[j] -= s * v;
            }
            let c = s * (1.0 - s);
            for &(i, vi) in *d {
                for &(j, vj) in *d {
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
    w
}

/// The fitted weights `w` of one stage (2·`n` + 1 features) scaled so that linear conflict
/// weighs 4 (a positive factor keeps every ranking).
fn scaled(n: usize, w: &[f64]) -> StageWeights {
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
    StageWeights {
        tile: weights_of(0),
        blank: weights_of(n),
        conflict: w[conflict_at] * k,
    }
}

/// The provenance header of a model file fitted with `options` (the `#` lines of
/// [`RankingWeights::to_text`]).
pub fn header(shape: Shape, options: &FitOptions) -> Vec<String> {
    let (w, h) = (shape.width(), shape.height());
    let stages: Vec<String> = options.stages.iter().map(ToString::to_string).collect();
    // The example's arguments and their names: the objective when it is not the first one
    // (siblings) or stages follow it, the stages when there are any.
    let mut args = vec![
        format!("{w}x{h}"),
        options.boards.to_string(),
        options.width.to_string(),
        options.seed.to_string(),
        options.rounds.to_string(),
    ];
    let mut names = vec!["boards a round", "beam width", "seed", "rounds"];
    if options.objective != Objective::Siblings || !stages.is_empty() {
        args.push(options.objective.name().to_owned());
        names.push("objective");
    }
    if !stages.is_empty() {
        args.push(stages.join(","));
        names.push("stages");
    }
    let mut lines = vec![
        format!("Learned beam ranking for {w}x{h} (npuzzle_suboptimal::LearnedRanking), blank-last goal."),
        "Fitted by: cargo run --release -p npuzzle-suboptimal --features fit --example fit_ranking --".to_owned(),
        format!("  {}   ({}; ridge {})", args.join(" "), names.join(", "), options.ridge),
        "Data: uniformly random solvable boards (ChaCha8 from the seed), never DeepCubeA's states;".to_owned(),
        match options.objective {
            Objective::Siblings => "  pairs: along each shortened beam answer, the child taken against its siblings.".to_owned(),
            Objective::Layer => format!("  pairs: along each shortened beam answer, the state at depth d against {LAYER_SAMPLES} of the beam's layer d."),
            Objective::Both => format!("  pairs: along each shortened beam answer, the child taken against its siblings and {LAYER_SAMPLES} of the beam's layer."),
        },
        "Weights: conflict x linear conflict + tile[|drow|][|dcol|] per tile + blank[|drow|][|dcol|].".to_owned(),
    ];
    if !options.stages.is_empty() {
        lines.push(format!(
            "Stages: weights of their own from depth ceil(f x h0) on, f in {} (h0: the start's linear conflict; a shared block plus one a stage).",
            stages.join(", ")
        ));
    }
    lines
}
