//! A learned ranking for beam search: an additive function of where each tile stands, fitted by
//! least squares to the remaining lengths of answers the project's own beams find (bootstrap
//! learning of a heuristic: Arfaee, Zilles & Holte, "Learning heuristic functions for large
//! state spaces", Artificial Intelligence 175, 2011).
//!
//! The score of a board is
//!
//! ```text
//! score = bias + Σ over the cells c of table[home(item on c)][c] + conflict × LC
//! ```
//!
//! where `home(x)` is the goal cell of tile `x` (of the blank, for the blank), `LC` is linear
//! conflict and the weights are fitted to the number of moves the project's answers still need
//! from each of their states. The one-hot (home, cell) terms can express Manhattan distance,
//! its squares and any other function of where each tile stands; the linear-conflict term adds
//! what the tiles of a line do to each other. Updated in O(1) a move besides linear conflict's
//! own update, so a beam ranks by it at nearly linear conflict's speed.
//!
//! The score is **not admissible**: it ranks a beam's children and never bounds anything. Its
//! memo carries linear conflict's exact value, which [`Heuristic::lower_bound`] returns, so
//! beams still prune with the admissible bound.

use npuzzle_core::{Board, Goal, Heuristic, HeuristicProperties, LinearConflict, Move, Shape};

/// The fixed-point scale of the weights: a score is in 1/16 moves.
pub const SCALE: f64 = 16.0;

/// Added to every score to make it a `u32` that keeps the order of the scores (which can be
/// negative near the goal): 2^24, a million moves at [`SCALE`].
const OFFSET: i32 = 1 << 24;

/// The estimate of an unclamped score: the score plus [`OFFSET`], at least 0.
#[inline]
fn estimate_of(score: i32) -> u32 {
    score.saturating_add(OFFSET).max(0) as u32
}

/// A fitted ranking for one board shape ([`LearnedRanking::parse`] reads the shipped files).
#[derive(Clone, Debug)]
pub struct LearnedRanking {
    shape: Shape,
    /// `table[home × cells + cell]` in 1/[`SCALE`] moves.
    table: Vec<i32>,
    /// The weight of linear conflict, in 1/[`SCALE`] moves a move of the bound.
    conflict: i32,
    /// The constant term, in 1/[`SCALE`] moves.
    bias: i32,
    /// The goal cell of each tile (index 0: the blank) of the goal it was built for.
    home: Vec<u16>,
    lc: LinearConflict,
}

/// The per-node memo of [`LearnedRanking`]: the unclamped score and linear conflict's value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RankMemo {
    score: i32,
    lc: u32,
}

/// A model's weights in moves (before the fixed-point scaling): what [`fit`] returns and what
/// the model files hold.
#[derive(Clone, Debug, PartialEq)]
pub struct RankingWeights {
    /// The board shape the weights are for.
    pub shape: Shape,
    /// `table[home × cells + cell]`, cells² weights, in moves.
    pub table: Vec<f64>,
    /// The weight of linear conflict.
    pub conflict: f64,
    /// The constant term, in moves.
    pub bias: f64,
}

/// Why a model file could not be read.
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
    /// The model file's text: `#` comment lines (`header`, one per line), then `shape WxH`,
    /// `bias B`, `conflict C`, and `cells` lines of `cells` weights each (line `home`: the
    /// weights of an item whose goal cell is `home`, standing on cell 0, 1, ...), every weight
    /// written with 4 decimals.
    pub fn to_text(&self, header: &[String]) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for line in header {
            let _ = writeln!(out, "# {line}");
        }
        let n = self.shape.cells();
        let _ = writeln!(out, "shape {}x{}", self.shape.width(), self.shape.height());
        let _ = writeln!(out, "bias {:.4}", self.bias);
        let _ = writeln!(out, "conflict {:.4}", self.conflict);
        for home in 0..n {
            let row: Vec<String> = self.table[home * n..(home + 1) * n]
                .iter()
                .map(|w| format!("{w:.4}"))
                .collect();
            let _ = writeln!(out, "{}", row.join(" "));
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
        let mut field = |name: &str| -> Result<(usize, String), ModelError> {
            let (line, l) = lines
                .next()
                .ok_or_else(|| ModelError::Incomplete(format!("no `{name}` line")))?;
            let value = l
                .strip_prefix(name)
                .map(str::trim)
                .ok_or(ModelError::Line {
                    line,
                    why: format!("expected `{name} ...`"),
                })?;
            Ok((line, value.to_owned()))
        };
        let (line, shape) = field("shape")?;
        let shape = shape
            .split_once('x')
            .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
            .and_then(|(w, h)| Shape::new(w, h).ok())
            .ok_or(ModelError::Line {
                line,
                why: format!("`{shape}` is not a shape such as 7x7"),
            })?;
        let number = |(line, v): (usize, String)| -> Result<f64, ModelError> {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or(ModelError::Line {
                    line,
                    why: format!("`{v}` is not a finite number"),
                })
        };
        let bias = number(field("bias")?)?;
        let conflict = number(field("conflict")?)?;
        let n = shape.cells();
        let mut table = Vec::with_capacity(n * n);
        for home in 0..n {
            let (line, l) = lines.next().ok_or_else(|| {
                ModelError::Incomplete(format!("{home} of {n} table lines, expected {n}"))
            })?;
            let row: Vec<f64> = l
                .split_whitespace()
                .map(|v| number((line, v.to_owned())))
                .collect::<Result<_, _>>()?;
            if row.len() != n {
                return Err(ModelError::Line {
                    line,
                    why: format!("{} weights, expected {n}", row.len()),
                });
            }
            table.extend(row);
        }
        if let Some((line, _)) = lines.next() {
            return Err(ModelError::Line {
                line,
                why: "text after the last table line".into(),
            });
        }
        Ok(RankingWeights {
            shape,
            table,
            conflict,
            bias,
        })
    }
}

/// Fixed point: a weight in moves as 1/[`SCALE`] moves.
fn fixed(w: f64) -> i32 {
    (w * SCALE).round() as i32
}

impl LearnedRanking {
    /// The ranking of `weights` for `goal` (tiles are looked up by their goal cell in
    /// `goal`, so a custom goal of the same shape reuses the weights of the tile that belongs
    /// on each cell). O(cells²).
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
        let n = shape.cells();
        Ok(LearnedRanking {
            shape,
            table: weights.table.iter().map(|&w| fixed(w)).collect(),
            conflict: fixed(weights.conflict),
            bias: fixed(weights.bias),
            home: (0..n).map(|t| goal.cell_of(t) as u16).collect(),
            lc: LinearConflict::new(goal),
        })
    }

    /// The unclamped score of `board` and its linear conflict. O(cells) plus linear
    /// conflict's estimate.
    fn score<B: Board>(&self, board: &B) -> RankMemo {
        let n = self.shape.cells();
        let lc = Heuristic::<B>::estimate(&self.lc, board);
        let mut s = self.bias + self.conflict * lc as i32;
        for c in 0..n {
            s += self.table[usize::from(self.home[board.tile(c)]) * n + c];
        }
        RankMemo { score: s, lc }
    }

    /// The weight of the item whose goal cell is `home` standing on `cell`.
    #[inline]
    fn weight(&self, item: usize, cell: usize) -> i32 {
        let n = self.shape.cells();
        self.table[usize::from(self.home[item]) * n + cell]
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

    /// The score, in 1/16 moves, plus 2^24 (so that it is positive). O(cells).
    fn estimate(&self, board: &B) -> u32 {
        estimate_of(self.score(board).score)
    }

    /// From scratch (O(cells)): engines that rank by this heuristic use
    /// [`Heuristic::update_memo`], which is O(1) besides linear conflict's update.
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
        let n = self.shape.cells();
        (goal.shape() == self.shape).then(|| LearnedRanking {
            home: (0..n).map(|t| goal.cell_of(t) as u16).collect(),
            lc: LinearConflict::new(goal),
            ..self.clone()
        })
    }
}

#[cfg(test)]
mod tests {
    use npuzzle_core::{Board, Goal, Heuristic, Move, Shape};
    use npuzzle_nxn::VecBoard;
    use rand::{Rng, SeedableRng};

    use super::*;

    /// Pseudo-random weights for a shape (a fixed seed).
    fn weights(shape: Shape, seed: u64) -> RankingWeights {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let n = shape.cells();
        RankingWeights {
            shape,
            table: (0..n * n).map(|_| rng.random_range(-8.0..8.0)).collect(),
            conflict: rng.random_range(0.5..3.0),
            bias: rng.random_range(-100.0..100.0),
        }
    }

    /// Along random walks, the memo's incremental score equals the score from scratch, and
    /// the lower bound is linear conflict's value.
    #[test]
    fn incremental_scores_equal_scores_from_scratch() {
        for (w, h) in [(3, 3), (4, 5), (7, 7)] {
            let shape = Shape::new(w, h).unwrap();
            let goal = Goal::blank_last(shape);
            let r = LearnedRanking::new(&weights(shape, 7), &goal).unwrap();
            let lc = npuzzle_core::LinearConflict::new(&goal);
            let mut b = VecBoard::from_layout(goal.layout()).unwrap();
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

    #[test]
    fn model_text_round_trips_and_bad_files_name_the_line() {
        let shape = Shape::new(3, 3).unwrap();
        let w = weights(shape, 3);
        let text = w.to_text(&["a header".into()]);
        let back = RankingWeights::parse(&text).unwrap();
        assert_eq!(back.shape, shape);
        assert!(
            back.table
                .iter()
                .zip(&w.table)
                .all(|(a, b)| (a - b).abs() < 1e-4)
        );
        let bad = text.replace("conflict", "conflikt");
        assert!(matches!(
            RankingWeights::parse(&bad),
            Err(ModelError::Line { line: 4, .. })
        ));
        let short: String = text.lines().take(8).map(|l| format!("{l}\n")).collect();
        assert!(matches!(
            RankingWeights::parse(&short),
            Err(ModelError::Incomplete(_))
        ));
        let other = Goal::blank_last(Shape::new(4, 4).unwrap());
        assert!(matches!(
            LearnedRanking::new(&back, &other),
            Err(ModelError::Shape { .. })
        ));
    }
}
