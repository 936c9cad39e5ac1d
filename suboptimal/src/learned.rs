//! A learned ranking for beam search on 6×6 and 7×7: linear conflict plus a learned cost of
//! each tile's and the blank's offset from its goal cell, fitted by the project itself
//! (`npuzzle_suboptimal::fit`, feature `fit`) so that along the answers of its own beams each
//! answer's state at depth d ranks before the other states of the beam's layer d (bootstrap
//! learning of a heuristic, Arfaee, Zilles & Holte, "Learning heuristic functions for large
//! state spaces", Artificial Intelligence 175, 2011, fitted as learning to rank across the
//! layer, Xu & Fern, ICML 2007).
//!
//! The score of a board is
//!
//! ```text
//! score = conflict × LC + Σ over the tiles t of tile[|Δrow t|][|Δcolumn t|]
//!                       + blank[|Δrow blank|][|Δcolumn blank|]
//! ```
//!
//! where `LC` is linear conflict and `Δ` an item's offset from its goal cell (an item at home
//! adds nothing, so the goal scores 0). Updated in O(1) a move besides linear conflict's own
//! update. The score is **not admissible**: it ranks a beam's children and bounds nothing; its
//! memo carries linear conflict's exact value, which [`Heuristic::lower_bound`] returns, so a
//! beam still prunes with the admissible bound.
//!
//! **Stages.** A model may have later [`Stage`]s, each with weights of its own: stage k ranks
//! the states from depth `⌈from_k × h0⌉` below the beam's start on, h0 being the start's
//! linear conflict. Every state of a beam layer has the same depth, so a layer is ranked by
//! one stage's weights, and the weights can change with the progress of the solve (early on
//! far tiles weigh much more than late). The shipped models have three stages (from 0.45 and
//! 0.9); at a fixed beam width their answers are 1.8 % (7×7) and 1.1 % (6×6) shorter than
//! with one stage (BENCHMARKS.md, "Learned rankings by stage of the solve"). The depth is
//! counted from the board [`Heuristic::estimate_memo`] scored: the ranking is meant for
//! engines that score their start once and update every child's memo (the beams).

use npuzzle_core::{Board, Goal, Heuristic, HeuristicProperties, LinearConflict, Move, Shape};

/// The fixed-point scale of the weights: a score is in 1/16 of linear conflict's moves.
pub const SCALE: f64 = 16.0;

/// Added to every score to make it a `u32` that keeps the order of the scores: 2^24.
const OFFSET: i32 = 1 << 24;

/// The estimate of a score: the score plus [`OFFSET`], at least 0.
#[inline]
fn estimate_of(score: i32) -> u32 {
    score.saturating_add(OFFSET).max(0) as u32
}

/// The shipped models: (width, height, the model file's text). Fitted with
/// [`crate::fit::FitOptions::default`] by the `fit_ranking` example; a test re-fits them.
/// The 6×6 model ships since the beams' deduplication stopped moving its cut one h at a time
/// (before, a learned 6×6 beam cost twice linear conflict's, and its answers at 1 s were 3.1 %
/// longer: BENCHMARKS.md, "A learned ranking for the beams", "The learned ranking at linear
/// conflict's speed").
const SHIPPED: [(usize, usize, &str); 2] = [
    (6, 6, include_str!("../models/6x6.txt")),
    (7, 7, include_str!("../models/7x7.txt")),
];

/// The model file's text of `shape` in [`SHIPPED`], if it has one. O(1).
fn shipped_text(shape: Shape) -> Option<&'static str> {
    SHIPPED
        .iter()
        .find(|(w, h, _)| (*w, *h) == (shape.width(), shape.height()))
        .map(|(_, _, text)| *text)
}

/// A learned ranking for one goal ([`LearnedRanking::shipped`] for 6×6 and 7×7).
#[derive(Clone, Debug)]
pub struct LearnedRanking {
    weights: RankingWeights,
    /// `table[stage × cells² + item × cells + cell]` (item 0: the blank) in 1/[`SCALE`]
    /// moves, for the goal.
    table: Vec<i32>,
    /// The weight of linear conflict in 1/[`SCALE`], a stage.
    conflict: Vec<i32>,
    /// Where each stage after the first starts ([`Stage::from`] by [`from_fixed`]).
    froms: Vec<u64>,
    /// The board's cells.
    cells: usize,
    lc: LinearConflict,
}

/// The per-node memo of [`LearnedRanking`]: the score, linear conflict's value and the
/// node's stage. 12 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RankMemo {
    score: i32,
    /// Linear conflict's value in the low 24 bits (below 2^23 on any board up to 127×127),
    /// the stage in the high 8 ([`LC_BITS`]).
    lc_stage: u32,
    /// Moves from this node to the first layer of the next stage ([`NEVER`]: none ahead).
    left: u16,
    /// The start's linear conflict, at most `u16::MAX`.
    h0: u16,
}

/// The bits of [`RankMemo::lc_stage`] that hold linear conflict's value.
const LC_BITS: u32 = 24;

/// [`RankMemo::left`] when no later stage starts ahead (or it starts 65,535 moves or more
/// away: such a stage is never reached).
const NEVER: u16 = u16::MAX;

impl RankMemo {
    /// The memo of a node scored `score` by stage `stage`'s weights, with linear conflict
    /// `lc` (below 2^[`LC_BITS`]), `left` moves to the next stage and the start's `h0`.
    #[inline]
    fn new(score: i32, lc: u32, stage: usize, left: u16, h0: u16) -> RankMemo {
        RankMemo {
            score,
            lc_stage: lc | (stage as u32) << LC_BITS,
            left,
            h0,
        }
    }

    /// Linear conflict's value.
    #[inline]
    fn lc(&self) -> u32 {
        self.lc_stage & ((1 << LC_BITS) - 1)
    }

    /// The stage whose weights scored the node.
    #[inline]
    fn stage(&self) -> usize {
        (self.lc_stage >> LC_BITS) as usize
    }
}

/// A stage's [`Stage::from`] in fixed point (1/65,536), as [`stage_and_left`] takes it.
pub(crate) fn from_fixed(from: f64) -> u64 {
    (from * 65536.0).round().max(0.0) as u64
}

/// The first depth of the stage that starts at `from` (fixed point, [`from_fixed`]) below a
/// start whose linear conflict is `h0`: `⌈from · h0⌉`. O(1).
#[inline]
fn first_depth(from: u64, h0: u32) -> u64 {
    (from * u64::from(h0) + 0xFFFF) >> 16
}

/// The stage of a state `depth` moves below a start whose linear conflict is `h0` (the number
/// of `froms`, each later stage's [`Stage::from`] by [`from_fixed`] in increasing order,
/// whose first depth `⌈from · h0⌉` is at most `depth`) and the moves from it to the first
/// layer of the next stage ([`NEVER`] when none is ahead or it is 65,535 moves away or more).
/// O(stages).
pub(crate) fn stage_and_left(froms: &[u64], h0: u32, depth: u64) -> (usize, u16) {
    let stage = froms
        .iter()
        .take_while(|&&f| depth >= first_depth(f, h0))
        .count();
    let left = froms.get(stage).map_or(NEVER, |&f| {
        u16::try_from(first_depth(f, h0) - depth)
            .ok()
            .filter(|&l| l != NEVER)
            .unwrap_or(NEVER)
    });
    (stage, left)
}

/// The weights of one stage of a model: the cost of each tile's and the blank's offset from
/// its goal cell, and the weight of linear conflict.
#[derive(Clone, Debug, PartialEq)]
pub struct StageWeights {
    /// `tile[|Δrow| · W + |Δcolumn|]`: the cost of a tile that far from its goal cell (W·H
    /// weights; entry 0, at home, is 0), in units of the score, where a move of linear
    /// conflict counts [`StageWeights::conflict`].
    pub tile: Vec<f64>,
    /// The same for the blank.
    pub blank: Vec<f64>,
    /// The weight of linear conflict (the fit scales it to 4).
    pub conflict: f64,
}

/// A model's weights: what `fit::fit` (feature `fit`) returns and what the model files hold.
#[derive(Clone, Debug, PartialEq)]
pub struct RankingWeights {
    /// The board shape the weights are for.
    pub shape: Shape,
    /// The weights of the first stage (of every layer, when `stages` is empty).
    pub first: StageWeights,
    /// Later stages of the beam, each with its own weights, in increasing [`Stage::from`]
    /// (empty: the first stage's weights rank every layer).
    pub stages: Vec<Stage>,
}

/// A later stage of a model: the weights that rank the beam's layers from depth
/// `⌈from × h0⌉` on, h0 being the beam start's linear conflict (all states of a layer share
/// their depth, so a layer is ranked by one stage's weights).
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// Where the stage starts, as a fraction of the start's linear conflict.
    pub from: f64,
    /// Its weights.
    pub weights: StageWeights,
}

/// Why a model file could not be read or used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ModelError {
    /// A line that is not what the format says (1-based line number and why).
    #[error("ranking model, line {line}: {why}")]
    Line {
        /// The 1-based line number.
        line: usize,
        /// What was wrong.
        why: String,
    },
    /// The file ended before every weight was read.
    #[error("ranking model: {0}")]
    Incomplete(String),
    /// The model is for another board shape than the goal's.
    #[error("ranking model for {model} used on a {goal} goal")]
    Shape {
        /// The model's shape.
        model: String,
        /// The goal's shape.
        goal: String,
    },
    /// More later stages than a node's memo can tell apart ([`MAX_STAGES`]).
    #[error("ranking model with {0} later stages: at most {MAX_STAGES}")]
    Stages(usize),
}

/// The most later stages a model may have ([`RankingWeights::stages`]): a node's memo holds
/// its stage in 8 bits.
pub const MAX_STAGES: usize = 255;

impl RankingWeights {
    /// The model file's text: `#` comment lines (`header`, one a line), then `shape WxH`,
    /// `conflict C`, `tile` and H lines of W weights (row: |Δrow|, column: |Δcolumn|), `blank`
    /// and H lines of W weights; then for each later stage `stage FROM` (in full) and the same
    /// block of `conflict`, `tile` and `blank`; every weight with 4 decimals.
    pub fn to_text(&self, header: &[String]) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for line in header {
            let _ = writeln!(out, "# {line}");
        }
        let w = self.shape.width();
        let _ = writeln!(out, "shape {}x{}", w, self.shape.height());
        let block = |out: &mut String, s: &StageWeights| {
            let _ = writeln!(out, "conflict {:.4}", s.conflict);
            for (name, weights) in [("tile", &s.tile), ("blank", &s.blank)] {
                let _ = writeln!(out, "{name}");
                for row in weights.chunks(w) {
                    let row: Vec<String> = row.iter().map(|x| format!("{x:.4}")).collect();
                    let _ = writeln!(out, "{}", row.join(" "));
                }
            }
        };
        block(&mut out, &self.first);
        for stage in &self.stages {
            // In full (the shortest text that reads back as the same number): the stage's
            // first depth must be the one the fit used.
            let _ = writeln!(out, "stage {}", stage.from);
            block(&mut out, &stage.weights);
        }
        out
    }

    /// Reads [`RankingWeights::to_text`]'s format.
    ///
    /// # Errors
    /// [`ModelError`] naming the line that is not in the format (a stage that does not start
    /// after the one before it included), or what is missing.
    pub fn parse(text: &str) -> Result<RankingWeights, ModelError> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .collect();
        let at = std::cell::Cell::new(0);
        let lines_next = || {
            let line = lines.get(at.get()).copied();
            at.set(at.get() + 1);
            line
        };
        let next = |what: &str| {
            lines_next()
                .ok_or_else(|| ModelError::Incomplete(format!("the file ends before {what}")))
        };
        let number = |line: usize, v: &str| -> Result<f64, ModelError> {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or(ModelError::Line {
                    line,
                    why: format!("`{v}` is not a finite number"),
                })
        };
        let field = |(line, l): (usize, &str), name: &str| -> Result<String, ModelError> {
            l.strip_prefix(name)
                .map(|v| v.trim().to_owned())
                .ok_or(ModelError::Line {
                    line,
                    why: format!("expected `{name}`"),
                })
        };
        let (line, l) = next("`shape`")?;
        let shape_text = field((line, l), "shape")?;
        let shape = shape_text
            .split_once('x')
            .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
            .and_then(|(w, h)| Shape::new(w, h).ok())
            .ok_or(ModelError::Line {
                line,
                why: format!("`{shape_text}` is not a shape such as 7x7"),
            })?;
        let (w, h) = (shape.width(), shape.height());
        let read = |name: &str| -> Result<Vec<f64>, ModelError> {
            let (line, l) = next(&format!("`{name}`"))?;
            if l != name {
                return Err(ModelError::Line {
                    line,
                    why: format!("expected `{name}`"),
                });
            }
            let mut weights = Vec::with_capacity(w * h);
            for r in 0..h {
                let (line, l) = next(&format!("{name} row {r} of {h}"))?;
                let row: Vec<f64> = l
                    .split_whitespace()
                    .map(|v| number(line, v))
                    .collect::<Result<_, _>>()?;
                if row.len() != w {
                    return Err(ModelError::Line {
                        line,
                        why: format!("{} weights, expected {w}", row.len()),
                    });
                }
                weights.extend(row);
            }
            Ok(weights)
        };
        let block = || -> Result<StageWeights, ModelError> {
            let (line, l) = next("`conflict`")?;
            let conflict = number(line, &field((line, l), "conflict")?)?;
            Ok(StageWeights {
                tile: read("tile")?,
                blank: read("blank")?,
                conflict,
            })
        };
        let first = block()?;
        let mut stages: Vec<Stage> = Vec::new();
        while let Some((line, l)) = lines_next() {
            let from = number(line, &field((line, l), "stage")?)?;
            if stages.last().map_or(0.0, |s| s.from) >= from {
                return Err(ModelError::Line {
                    line,
                    why: format!("stage {from} does not start after the stage before"),
                });
            }
            stages.push(Stage {
                from,
                weights: block()?,
            });
        }
        Ok(RankingWeights {
            shape,
            first,
            stages,
        })
    }
}

/// The index of the offset of `cell` from `home` in a table of [`RankingWeights`]:
/// `|Δrow| · W + |Δcolumn|` on a board `width` cells wide (0 at home). O(1).
pub(crate) fn offset_index(width: usize, home: usize, cell: usize) -> usize {
    (home / width).abs_diff(cell / width) * width + (home % width).abs_diff(cell % width)
}

/// Fixed point: a weight as 1/[`SCALE`].
fn fixed(w: f64) -> i32 {
    (w * SCALE).round() as i32
}

impl LearnedRanking {
    /// The ranking of `weights` for `goal` (any goal of the model's shape: the weights are
    /// offsets from each item's goal cell). O(cells²).
    ///
    /// # Errors
    /// [`ModelError::Shape`] when the goal's shape is not the model's;
    /// [`ModelError::Stages`] when it has more than [`MAX_STAGES`] later stages.
    pub fn new(weights: &RankingWeights, goal: &Goal) -> Result<LearnedRanking, ModelError> {
        let shape = goal.shape();
        if shape != weights.shape {
            return Err(ModelError::Shape {
                model: format!("{}x{}", weights.shape.width(), weights.shape.height()),
                goal: format!("{}x{}", shape.width(), shape.height()),
            });
        }
        if weights.stages.len() > MAX_STAGES {
            return Err(ModelError::Stages(weights.stages.len()));
        }
        let (n, w) = (shape.cells(), shape.width());
        let blocks =
            std::iter::once(&weights.first).chain(weights.stages.iter().map(|s| &s.weights));
        let mut table = Vec::with_capacity((weights.stages.len() + 1) * n * n);
        let mut conflict = Vec::new();
        for stage in blocks {
            for item in 0..n {
                let home = goal.cell_of(item);
                let costs = if item == 0 { &stage.blank } else { &stage.tile };
                table.extend((0..n).map(|cell| {
                    let offset = offset_index(w, home, cell);
                    if offset == 0 { 0 } else { fixed(costs[offset]) }
                }));
            }
            conflict.push(fixed(stage.conflict));
        }
        Ok(LearnedRanking {
            weights: weights.clone(),
            table,
            conflict,
            froms: weights.stages.iter().map(|s| from_fixed(s.from)).collect(),
            cells: n,
            lc: LinearConflict::new(goal),
        })
    }

    /// The shipped ranking for `goal`'s shape, `None` for shapes without a model (all but
    /// 6×6 and 7×7). O(cells²) and the parse of a 2 KB file.
    ///
    /// # Panics
    /// Never: the shipped models parse (a test reads each).
    pub fn shipped(goal: &Goal) -> Option<LearnedRanking> {
        let text = shipped_text(goal.shape())?;
        let weights = RankingWeights::parse(text).expect("the shipped models parse (tested)");
        Some(LearnedRanking::new(&weights, goal).expect("the same shape"))
    }

    /// Whether `shape` has a shipped model ([`LearnedRanking::shipped`]). O(1).
    pub fn has_shipped(shape: Shape) -> bool {
        shipped_text(shape).is_some()
    }

    /// The weights it was built from.
    pub fn weights(&self) -> &RankingWeights {
        &self.weights
    }

    /// The memo of a beam's start `board` (depth 0): its stage's score, its linear conflict
    /// and the moves to the next stage. O(cells) plus linear conflict's estimate.
    fn score<B: Board>(&self, board: &B) -> RankMemo {
        let lc = Heuristic::<B>::estimate(&self.lc, board);
        debug_assert!(lc < 1 << LC_BITS, "linear conflict fits in {LC_BITS} bits");
        let h0 = lc.min(u32::from(u16::MAX));
        let (stage, left) = stage_and_left(&self.froms, h0, 0);
        RankMemo::new(self.score_in(board, stage, lc), lc, stage, left, h0 as u16)
    }

    /// The score of `board` by stage `stage`'s weights, its linear conflict being `lc`.
    /// O(cells).
    fn score_in<B: Board>(&self, board: &B, stage: usize, lc: u32) -> i32 {
        let n = self.weights.shape.cells();
        let base = stage * n * n;
        let mut s = self.conflict[stage] * lc as i32;
        for c in 0..n {
            s += self.table[base + board.tile(c) * n + c];
        }
        s
    }

    /// The child of `board` (whose memo is `memo`) by `m`, where the child's layer is the
    /// first of the next stage (`memo.left` is 1): its stage (the next, or a later one starting
    /// at the same depth) and the moves to the following one, and its score from scratch by
    /// its stage's weights, as [`Heuristic::update_memo`] returns it. `lc`: the child's linear
    /// conflict. O(cells + stages).
    #[cold]
    #[inline(never)]
    fn restaged<B: Board>(&self, board: &B, memo: &RankMemo, m: Move, lc: u32) -> (u32, RankMemo) {
        let h0 = u32::from(memo.h0);
        let (stage, left) = match self.froms.get(memo.stage()) {
            Some(&f) => stage_and_left(&self.froms, h0, first_depth(f, h0)),
            // Not reached: `left` counts down to 1 only toward a stage ahead.
            None => (memo.stage(), NEVER),
        };
        let mut child = board.clone();
        child.apply(m);
        let score = self.score_in(&child, stage, lc);
        (
            estimate_of(score),
            RankMemo::new(score, lc, stage, left, memo.h0),
        )
    }

    /// The weight of `item` (0: the blank) standing on `cell`, in the stage whose table
    /// starts at `base`.
    #[inline]
    fn weight(&self, base: usize, item: usize, cell: usize) -> i32 {
        self.table[base + item * self.cells + cell]
    }
}

impl<B: Board> Heuristic<B> for LearnedRanking {
    type Memo = RankMemo;

    fn name(&self) -> &'static str {
        "learned"
    }

    /// Neither admissible nor consistent: a ranking, not a bound.
    fn properties(&self) -> HeuristicProperties {
        HeuristicProperties::NONE
    }

    /// The score in 1/16 moves plus 2^24 (so that it is positive). O(cells).
    fn estimate(&self, board: &B) -> u32 {
        estimate_of(self.score(board).score)
    }

    /// From scratch (O(cells)): engines that rank by this heuristic use
    /// [`Heuristic::update_memo`], O(1) besides linear conflict's update.
    fn update(&self, board: &B, _h: u32, m: Move) -> u32 {
        let mut child = board.clone();
        child.apply(m);
        Heuristic::<B>::estimate(self, &child)
    }

    fn estimate_memo(&self, board: &B) -> (u32, RankMemo) {
        let memo = self.score(board);
        (estimate_of(memo.score), memo)
    }

    #[inline]
    fn update_memo(&self, board: &B, _h: u32, memo: &RankMemo, m: Move) -> (u32, RankMemo) {
        let lc = self.lc.update(board, memo.lc(), m);
        if memo.left == 1 {
            return self.restaged(board, memo, m, lc);
        }
        let stage = memo.stage();
        let base = stage * self.cells * self.cells;
        let blank = board.blank();
        let from = board.tile_cell(m);
        let tile = board.tile(from);
        let score = memo.score
            + self.weight(base, tile, blank)
            + self.weight(base, 0, from)
            + self.conflict[stage] * (lc as i32 - memo.lc() as i32)
            - self.weight(base, tile, from)
            - self.weight(base, 0, blank);
        // NEVER stays NEVER; otherwise at least 2 here.
        let left = if memo.left == NEVER {
            NEVER
        } else {
            memo.left - 1
        };
        (
            estimate_of(score),
            RankMemo::new(score, lc, stage, left, memo.h0),
        )
    }

    /// Linear conflict's value, carried in the memo: admissible.
    #[inline]
    fn lower_bound(&self, _h: u32, memo: &RankMemo) -> Option<u32> {
        Some(memo.lc())
    }

    fn for_goal(&self, goal: &Goal) -> Option<Self> {
        LearnedRanking::new(&self.weights, goal).ok()
    }
}

#[cfg(test)]
mod tests {
    use npuzzle_core::{Board, Goal, Heuristic, Layout, Move, Shape};
    use npuzzle_nxn::VecBoard;
    use rand::{Rng, SeedableRng};

    use super::*;

    /// Pseudo-random weights for a shape (a fixed seed).
    fn weights(shape: Shape, seed: u64) -> RankingWeights {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let n = shape.cells();
        let mut some = || -> Vec<f64> { (0..n).map(|_| rng.random_range(-8.0..8.0)).collect() };
        RankingWeights {
            shape,
            first: StageWeights {
                tile: some(),
                blank: some(),
                conflict: 4.0,
            },
            stages: Vec::new(),
        }
    }

    /// Along random walks, for the blank-last goal and a custom one, the memo's incremental
    /// score equals the score from scratch, and the lower bound is linear conflict's value.
    #[test]
    fn incremental_scores_equal_scores_from_scratch() {
        for (w, h) in [(3, 3), (4, 5), (7, 7)] {
            let shape = Shape::new(w, h).unwrap();
            let standard = Goal::blank_last(shape);
            let mut cells: Vec<usize> = (0..shape.cells()).collect();
            cells.rotate_left(3);
            let custom = Goal::custom(Layout::new(shape, &cells).unwrap());
            for goal in [standard, custom] {
                let r = LearnedRanking::new(&weights(shape, 7), &goal).unwrap();
                let lc = npuzzle_core::LinearConflict::new(&goal);
                let mut b = VecBoard::from_layout(goal.layout()).unwrap();
                assert_eq!(Heuristic::<VecBoard>::estimate(&r, &b), estimate_of(0));
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
                let (mut est, mut memo) = Heuristic::<VecBoard>::estimate_memo(&r, &b);
                for _ in 0..2000 {
                    let legal: Vec<Move> = b.legal().into_iter().collect();
                    let m = legal[rng.random_range(0..legal.len())];
                    (est, memo) = Heuristic::<VecBoard>::update_memo(&r, &b, est, &memo, m);
                    b.apply(m);
                    assert_eq!(est, Heuristic::<VecBoard>::estimate(&r, &b));
                    assert_eq!(
                        Heuristic::<VecBoard>::lower_bound(&r, est, &memo),
                        Some(Heuristic::<VecBoard>::estimate(&lc, &b))
                    );
                }
            }
        }
    }

    /// A model of three stages (from 0.45 and 0.9 of the start's linear conflict), each of
    /// its own pseudo-random weights.
    fn staged(shape: Shape) -> RankingWeights {
        let mut w = weights(shape, 11);
        w.stages = [(0.45, 12), (0.9, 13)]
            .into_iter()
            .map(|(from, seed)| Stage {
                from,
                weights: StageWeights {
                    conflict: 3.0,
                    ..weights(shape, seed).first
                },
            })
            .collect();
        w
    }

    /// Along random walks from a start (a beam's start: `estimate_memo`), each state's
    /// incremental score is its stage's score from scratch, the stage being the one of its
    /// depth (`⌈from × h0⌉`), and every stage is reached (from a start one move from the goal,
    /// both later stages start at depth 1); the bound stays linear conflict.
    #[test]
    fn staged_scores_follow_the_depth_and_equal_scores_from_scratch() {
        let shape = Shape::square(7).unwrap();
        let goal = Goal::blank_last(shape);
        let w = staged(shape);
        let r = LearnedRanking::new(&w, &goal).unwrap();
        let lc = npuzzle_core::LinearConflict::new(&goal);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for scramble in [400, 1] {
            let mut start = VecBoard::from_layout(goal.layout()).unwrap();
            for _ in 0..scramble {
                let legal: Vec<Move> = start.legal().into_iter().collect();
                start.apply(legal[rng.random_range(0..legal.len())]);
            }
            let h0 = Heuristic::<VecBoard>::estimate(&lc, &start);
            assert!(if scramble == 1 { h0 == 1 } else { h0 > 20 }, "{h0}");
            let mut b = start.clone();
            let (mut est, mut memo) = Heuristic::<VecBoard>::estimate_memo(&r, &b);
            assert_eq!(
                est,
                Heuristic::<VecBoard>::estimate(&r, &b),
                "stage 0 at the start"
            );
            let mut seen = [false; 3];
            for depth in 1..=(2 * h0).max(40) {
                let legal: Vec<Move> = b.legal().into_iter().collect();
                let m = legal[rng.random_range(0..legal.len())];
                (est, memo) = Heuristic::<VecBoard>::update_memo(&r, &b, est, &memo, m);
                b.apply(m);
                let stage = [0.45, 0.9]
                    .iter()
                    .filter(|&&f| depth >= (f * f64::from(h0)).ceil() as u32)
                    .count();
                seen[stage] = true;
                let lc_now = Heuristic::<VecBoard>::estimate(&lc, &b);
                assert_eq!(
                    est,
                    estimate_of(r.score_in(&b, stage, lc_now)),
                    "scramble {scramble}, depth {depth}"
                );
                assert_eq!(
                    Heuristic::<VecBoard>::lower_bound(&r, est, &memo),
                    Some(lc_now)
                );
            }
            let expected = if scramble == 1 {
                [false, false, true]
            } else {
                [true; 3]
            };
            assert_eq!(seen, expected, "scramble {scramble}");
        }
        // The stages' scores differ: the test would see a stage taken for another.
        let b = VecBoard::from_layout(goal.layout()).unwrap();
        let mut moved = b.clone();
        moved.apply(b.legal().into_iter().next().unwrap());
        assert_ne!(r.score_in(&moved, 1, 5), r.score_in(&moved, 2, 5));
    }

    /// `stage_and_left` counts the stages whose first depth is reached, even two at one
    /// depth, and the moves to the next one.
    #[test]
    fn stage_and_left_count_the_stages_reached_and_the_moves_to_the_next() {
        let froms: Vec<u64> = [0.45, 0.9].into_iter().map(from_fixed).collect();
        assert_eq!(stage_and_left(&froms, 100, 0), (0, 45));
        assert_eq!(stage_and_left(&froms, 100, 44), (0, 1));
        assert_eq!(stage_and_left(&froms, 100, 45), (1, 45));
        assert_eq!(stage_and_left(&froms, 100, 89), (1, 1));
        assert_eq!(stage_and_left(&froms, 100, 90), (2, NEVER));
        assert_eq!(stage_and_left(&froms, 1, 0), (0, 1));
        assert_eq!(
            stage_and_left(&froms, 1, 1),
            (2, NEVER),
            "both start at depth 1"
        );
        assert_eq!(
            stage_and_left(&froms, 0, 0),
            (2, NEVER),
            "the goal: both at depth 0"
        );
        assert_eq!(stage_and_left(&[], 100, 1000), (0, NEVER));
        // A stage 65,535 moves away or more is never reached.
        let far = [from_fixed(1000.0)];
        assert_eq!(stage_and_left(&far, 65, 0), (0, 65_000));
        assert_eq!(stage_and_left(&far, 66, 0), (0, NEVER));
    }

    #[test]
    fn staged_model_text_round_trips_and_stages_must_increase() {
        let shape = Shape::new(4, 3).unwrap();
        let w = staged(shape);
        let text = w.to_text(&[]);
        let back = RankingWeights::parse(&text).unwrap();
        assert_eq!(back.stages.len(), 2);
        assert_eq!(
            back.stages[1].from.to_bits(),
            0.9f64.to_bits(),
            "read back in full"
        );
        assert_eq!(back.to_text(&[]), text);
        let swapped = text.replacen("stage 0.9", "stage 0.4", 1);
        assert!(matches!(
            RankingWeights::parse(&swapped),
            Err(ModelError::Line { why, .. }) if why.contains("does not start after")
        ));
        let cut = text
            .lines()
            .take(text.lines().count() - 2)
            .collect::<Vec<_>>();
        assert!(matches!(
            RankingWeights::parse(&cut.join("\n")),
            Err(ModelError::Incomplete(_))
        ));
    }

    #[test]
    fn model_text_round_trips_and_bad_files_name_the_line() {
        let shape = Shape::new(3, 4).unwrap();
        let w = weights(shape, 3);
        let text = w.to_text(&["a header".into()]);
        let back = RankingWeights::parse(&text).unwrap();
        assert_eq!(back.shape, shape);
        for (a, b) in back
            .first
            .tile
            .iter()
            .chain(&back.first.blank)
            .zip(w.first.tile.iter().chain(&w.first.blank))
        {
            assert!((a - b).abs() < 1e-4);
        }
        let bad = text.replace("conflict", "conflikt");
        assert_eq!(
            RankingWeights::parse(&bad),
            Err(ModelError::Line {
                line: 3,
                why: "expected `conflict`".into()
            })
        );
        let short = text.lines().take(8).collect::<Vec<_>>().join("\n");
        assert!(matches!(
            RankingWeights::parse(&short),
            Err(ModelError::Incomplete(_))
        ));
        let wide = text.replacen("\ntile\n", "\ntile\n1 ", 1);
        assert!(matches!(
            RankingWeights::parse(&wide),
            Err(ModelError::Line { line: 5, .. })
        ));
        let other = Goal::blank_last(Shape::new(4, 4).unwrap());
        assert!(matches!(
            LearnedRanking::new(&back, &other),
            Err(ModelError::Shape { .. })
        ));
        let goal = Goal::blank_last(shape);
        let mut many = back.clone();
        many.stages = (1..=MAX_STAGES + 1)
            .map(|k| Stage {
                from: k as f64,
                weights: back.first.clone(),
            })
            .collect();
        assert_eq!(
            LearnedRanking::new(&many, &goal).err(),
            Some(ModelError::Stages(MAX_STAGES + 1))
        );
        many.stages.pop();
        assert!(LearnedRanking::new(&many, &goal).is_ok());
    }

    /// The shipped models parse, are for their shapes, and weigh linear conflict 4.
    #[test]
    fn the_shipped_models_are_for_6x6_and_7x7() {
        for side in [6, 7] {
            let goal = Goal::blank_last(Shape::square(side).unwrap());
            let r = LearnedRanking::shipped(&goal).expect("a model");
            assert_eq!(r.weights().shape, goal.shape());
            assert!((r.weights().first.conflict - 4.0).abs() < 1e-9);
            assert!(LearnedRanking::has_shipped(goal.shape()));
        }
        for side in [4, 5, 8] {
            let goal = Goal::blank_last(Shape::square(side).unwrap());
            assert!(LearnedRanking::shipped(&goal).is_none());
        }
        assert!(!LearnedRanking::has_shipped(Shape::new(6, 7).unwrap()));
    }
}
