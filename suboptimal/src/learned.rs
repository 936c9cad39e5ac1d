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
    /// `table[item × cells + cell]` (item 0: the blank) in 1/[`SCALE`] moves, for the goal.
    table: Vec<i32>,
    /// The weight of linear conflict in 1/[`SCALE`].
    conflict: i32,
    lc: LinearConflict,
}

/// The per-node memo of [`LearnedRanking`]: the score and linear conflict's value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RankMemo {
    score: i32,
    lc: u32,
}

/// A model's weights: what `fit::fit` (feature `fit`) returns and what the model files hold.
#[derive(Clone, Debug, PartialEq)]
pub struct RankingWeights {
    /// The board shape the weights are for.
    pub shape: Shape,
    /// `tile[|Δrow| · W + |Δcolumn|]`: the cost of a tile that far from its goal cell (W·H
    /// weights; entry 0, at home, is 0).
    pub tile: Vec<f64>,
    /// The same for the blank.
    pub blank: Vec<f64>,
    /// The weight of linear conflict (the fit scales it to 4).
    pub conflict: f64,
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
}

impl RankingWeights {
    /// The model file's text: `#` comment lines (`header`, one a line), then `shape WxH`,
    /// `conflict C`, `tile` and H lines of W weights (row: |Δrow|, column: |Δcolumn|), `blank`
    /// and H lines of W weights; every weight with 4 decimals.
    pub fn to_text(&self, header: &[String]) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for line in header {
            let _ = writeln!(out, "# {line}");
        }
        let w = self.shape.width();
        let _ = writeln!(out, "shape {}x{}", w, self.shape.height());
        let _ = writeln!(out, "conflict {:.4}", self.conflict);
        for (name, weights) in [("tile", &self.tile), ("blank", &self.blank)] {
            let _ = writeln!(out, "{name}");
            for row in weights.chunks(w) {
                let row: Vec<String> = row.iter().map(|x| format!("{x:.4}")).collect();
                let _ = writeln!(out, "{}", row.join(" "));
            }
        }
        out
    }

    /// Reads [`RankingWeights::to_text`]'s format.
    ///
    /// # Errors
    /// [`ModelError`] naming the line that is not in the format, or what is missing.
    pub fn parse(text: &str) -> Result<RankingWeights, ModelError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let mut next = |what: &str| {
            lines
                .next()
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
        let (line, l) = next("`conflict`")?;
        let conflict = number(line, &field((line, l), "conflict")?)?;
        let (w, h) = (shape.width(), shape.height());
        let mut read = |name: &str| -> Result<Vec<f64>, ModelError> {
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
        let tile = read("tile")?;
        let blank = read("blank")?;
        if let Some((line, _)) = lines.next() {
            return Err(ModelError::Line {
                line,
                why: "text after the last weight".into(),
            });
        }
        Ok(RankingWeights {
            shape,
            tile,
            blank,
            conflict,
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
    /// [`ModelError::Shape`] when the goal's shape is not the model's.
    pub fn new(weights: &RankingWeights, goal: &Goal) -> Result<LearnedRanking, ModelError> {
        let shape = goal.shape();
        if shape != weights.shape {
            return Err(ModelError::Shape {
                model: format!("{}x{}", weights.shape.width(), weights.shape.height()),
                goal: format!("{}x{}", shape.width(), shape.height()),
            });
        }
        let (n, w) = (shape.cells(), shape.width());
        let mut table = vec![0; n * n];
        for item in 0..n {
            let home = goal.cell_of(item);
            let costs = if item == 0 {
                &weights.blank
            } else {
                &weights.tile
            };
            for cell in 0..n {
                let offset = offset_index(w, home, cell);
                table[item * n + cell] = if offset == 0 { 0 } else { fixed(costs[offset]) };
            }
        }
        Ok(LearnedRanking {
            weights: weights.clone(),
            table,
            conflict: fixed(weights.conflict),
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

    /// The score of `board` and its linear conflict. O(cells) plus linear conflict's estimate.
    fn score<B: Board>(&self, board: &B) -> RankMemo {
        let n = self.weights.shape.cells();
        let lc = Heuristic::<B>::estimate(&self.lc, board);
        let mut s = self.conflict * lc as i32;
        for c in 0..n {
            s += self.table[board.tile(c) * n + c];
        }
        RankMemo { score: s, lc }
    }

    /// The weight of `item` (0: the blank) standing on `cell`.
    #[inline]
    fn weight(&self, item: usize, cell: usize) -> i32 {
        self.table[item * self.weights.shape.cells() + cell]
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
        let lc = self.lc.update(board, memo.lc, m);
        let blank = board.blank();
        let from = board.tile_cell(m);
        let tile = board.tile(from);
        let score = memo.score
            + self.weight(tile, blank)
            + self.weight(0, from)
            + self.conflict * (lc as i32 - memo.lc as i32)
            - self.weight(tile, from)
            - self.weight(0, blank);
        (estimate_of(score), RankMemo { score, lc })
    }

    /// Linear conflict's value, carried in the memo: admissible.
    #[inline]
    fn lower_bound(&self, _h: u32, memo: &RankMemo) -> Option<u32> {
        Some(memo.lc)
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
            tile: some(),
            blank: some(),
            conflict: 4.0,
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

    #[test]
    fn model_text_round_trips_and_bad_files_name_the_line() {
        let shape = Shape::new(3, 4).unwrap();
        let w = weights(shape, 3);
        let text = w.to_text(&["a header".into()]);
        let back = RankingWeights::parse(&text).unwrap();
        assert_eq!(back.shape, shape);
        for (a, b) in back
            .tile
            .iter()
            .chain(&back.blank)
            .zip(w.tile.iter().chain(&w.blank))
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
    }

    /// The shipped models parse, are for their shapes, and weigh linear conflict 4.
    #[test]
    fn the_shipped_models_are_for_6x6_and_7x7() {
        for side in [6, 7] {
            let goal = Goal::blank_last(Shape::square(side).unwrap());
            let r = LearnedRanking::shipped(&goal).expect("a model");
            assert_eq!(r.weights().shape, goal.shape());
            assert!((r.weights().conflict - 4.0).abs() < 1e-9);
            assert!(LearnedRanking::has_shipped(goal.shape()));
        }
        for side in [4, 5, 8] {
            let goal = Goal::blank_last(Shape::square(side).unwrap());
            assert!(LearnedRanking::shipped(&goal).is_none());
        }
        assert!(!LearnedRanking::has_shipped(Shape::new(6, 7).unwrap()));
    }
}
