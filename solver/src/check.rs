//! Solvability and lower bounds without search (`npuzzle check`), and the judgement of a
//! solution someone found by hand (`npuzzle check BOARD --moves STRING`: [`check_solution`],
//! [`Npuzzle::check_solution`]).

use npuzzle_core::{
    Board, Goal, Heuristic, Layout, LinearConflict, Manhattan, Metric, Move, MtmManhattan, Parity,
    PartialGoal, PartialHeuristic, PartialManhattan, moves_to_string, mtm_length, parse_moves,
};
use npuzzle_nxn::VecBoard;
use serde::Serialize;

use crate::{Config, Engine, Error, HeuristicKind, Npuzzle, SearchSettings, Setting};

/// What can be said about a board without searching.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// The goal the board was checked against; for a partial goal ([`check_partial`]), the
    /// completion its parity verdict was decided against.
    pub goal: Goal,
    /// The partial goal the board was checked against ([`check_partial`]); `None` for a full
    /// goal.
    pub partial: Option<PartialGoal>,
    /// The parity argument: solvable or not, and why.
    pub parity: Parity,
    /// The Manhattan-distance lower bound, in moves (0 when unsolvable).
    pub manhattan: u32,
    /// The linear-conflict lower bound (Hansson, Mayer & Yung 1992), in moves (0 when
    /// unsolvable); at least [`Check::manhattan`].
    pub linear_conflict: u32,
}

/// Checks `layout` against `goal`: parity, then the Manhattan and linear-conflict lower bounds
/// for solvable boards. O(W·H·(W + H)).
///
/// # Errors
/// [`Error::Goal`] when the goal's shape differs from the board's.
pub fn check(layout: &Layout, goal: &Goal) -> Result<Check, Error> {
    let parity = goal.parity(layout)?;
    let (manhattan, linear_conflict) = if parity.solvable {
        let board = VecBoard::from_layout(layout)?;
        (
            Manhattan::new(goal).estimate(&board),
            LinearConflict::new(goal).estimate(&board),
        )
    } else {
        (0, 0)
    };
    Ok(Check {
        goal: goal.clone(),
        partial: None,
        parity,
        manhattan,
        linear_conflict,
    })
}

/// Checks `layout` against a partial goal (`npuzzle_core::partial`: cells that do not
/// matter): whether some completion of it is reachable (parity, [`PartialGoal::solvability`]),
/// then for a reachable one the Manhattan distance of the tiles that matter and that plus their
/// linear conflicts ([`PartialManhattan`] in STM), both admissible for the partial goal.
/// O(W·H·(W + H)).
///
/// # Errors
/// [`Error::Goal`] when the partial goal's shape differs from the board's.
pub fn check_partial(layout: &Layout, goal: &PartialGoal) -> Result<Check, Error> {
    let (completion, parity) = goal.deciding_completion(layout)?;
    let (manhattan, linear_conflict) = if parity.solvable {
        let (cells, pos) = cells_and_positions(layout);
        let manhattan = goal
            .tiles()
            .iter()
            .map(|&t| {
                let (p, g) = (
                    usize::from(pos[usize::from(t)]),
                    goal.cell_of(usize::from(t)).unwrap_or(0),
                );
                let w = layout.shape().width();
                ((p / w).abs_diff(g / w) + (p % w).abs_diff(g % w)) as u32
            })
            .sum();
        let conflicts = PartialManhattan::new(goal, Metric::Stm).estimate(&cells, &pos);
        (manhattan, conflicts)
    } else {
        (0, 0)
    };
    Ok(Check {
        goal: Goal::custom(completion),
        partial: Some(goal.clone()),
        parity,
        manhattan,
        linear_conflict,
    })
}

/// The board's tile on each cell and each tile's cell (the arrays a [`PartialHeuristic`]
/// reads). O(W·H).
fn cells_and_positions(layout: &Layout) -> (Vec<u16>, Vec<u16>) {
    let cells = layout.cells().to_vec();
    let mut pos = vec![0u16; cells.len()];
    for (cell, &t) in cells.iter().enumerate() {
        pos[usize::from(t)] = cell as u16;
    }
    (cells, pos)
}

/// The node budget of the optimal search that [`check_solution`] runs to compare a given
/// solution with the optimum: 20,000,000 generated nodes (one or two seconds of IDA\* with
/// linear conflict; every 8-puzzle and most 15-puzzles of up to about 50 moves are within
/// it). Past it, the solution is judged against the proven lower bound instead.
pub const CHECK_NODE_BUDGET: u64 = 20_000_000;

/// The first move of a given solution that no tile can make.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IllegalMove {
    /// Its 0-based index in the move list (the moves before it were replayed).
    pub index: usize,
    /// The move's letter (`U D L R`: the direction the tile slides).
    #[serde(rename = "move")]
    pub mv: char,
    /// The blank's cell before the move (row-major, 0-based).
    pub blank_cell: usize,
    /// The blank's row and column (0-based).
    pub blank_row: usize,
    /// The blank's column (0-based).
    pub blank_column: usize,
    /// Why, in words: which edge of the board the blank is on.
    pub reason: String,
}

/// A cell whose tile differs from the goal's after the replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WrongCell {
    /// The cell (row-major, 0-based).
    pub cell: usize,
    /// Its row (0-based).
    pub row: usize,
    /// Its column (0-based).
    pub column: usize,
    /// The tile the replayed board has there (0 = the blank).
    pub tile: usize,
    /// The tile the goal has there.
    pub expected: usize,
}

/// What is known about the optimum when a solution is judged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Optimum {
    /// The optimal length, proven (by an optimal search within the budget, or because the given
    /// solution's length equals a lower bound). `moves` is an optimal solution (the given one
    /// when it is optimal and no search ran).
    Known {
        /// The optimal length, in moves.
        length: u32,
        /// An optimal solution, letters `U D L R`.
        moves: String,
        /// How it was proven, in words.
        how: String,
    },
    /// Not computed within the budget: only a proven lower bound (and the shortest solution
    /// known, when the search found one without proving it optimal).
    AtLeast {
        /// The proven lower bound on the optimal length, in moves.
        lower_bound: u32,
        /// Why the optimum is not known, and what proves the bound, in words.
        how: String,
    },
    /// The board cannot reach the goal (parity): no solution exists.
    Unsolvable,
}

/// The judgement of a given move list on a board: legality, whether it reaches the goal (and
/// which cells are wrong if not), and its length against the optimum. Serialised as the JSON
/// object of `npuzzle check --moves ... --format json` and the web app's `POST /api/check`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SolutionCheck {
    /// The start board, compact ([`Layout::to_compact`]).
    pub board: String,
    /// Board width, in cells.
    pub width: usize,
    /// Board height, in cells.
    pub height: usize,
    /// The goal board, compact; for a partial goal, its board text with `x` for the cells that
    /// do not matter (`123xxxxxx`).
    pub goal: String,
    /// The partial goal's name (`first-rows:1`, `fringe`, or its board text;
    /// `npuzzle_core::PartialGoal::name`), when the moves were judged against one; absent from
    /// the JSON otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial_goal: Option<String>,
    /// The moves given, normalised to letters `U D L R`.
    pub moves: String,
    /// The metric `length`, `optimum` and `extra_moves` count in: `"stm"` (every letter is a
    /// move) or `"mtm"` (multi-tile metric: a run of one letter is one move).
    pub metric: Metric,
    /// How many moves were given, in `metric` (`RRU` is 3 in STM, 2 in MTM).
    pub length: usize,
    /// Whether every move is legal.
    pub legal: bool,
    /// The first illegal move, if any (the replay stops before it).
    pub illegal: Option<IllegalMove>,
    /// The board after the legal moves (all of them when [`SolutionCheck::legal`]), compact.
    pub reached: String,
    /// Whether the moves are legal and end on the goal.
    pub solves: bool,
    /// The cells of [`SolutionCheck::reached`] that differ from the goal (empty when it is the
    /// goal); for a partial goal, the cells that matter only.
    pub wrong_cells: Vec<WrongCell>,
    /// Whether the board can reach the goal at all (parity).
    pub solvable: bool,
    /// The parity argument, in one sentence.
    pub parity: String,
    /// What is known about the optimum.
    pub optimum: Optimum,
    /// Whether the given moves are a proven optimal solution: `Some(true)` optimal, `Some(false)`
    /// proven longer than the optimum (or not a solution), `None` not decided (the optimum is
    /// unknown and the length is above the lower bound).
    pub optimal: Option<bool>,
    /// Moves more than the optimum (`length - optimum`), when the moves solve the board and
    /// the optimum is known.
    pub extra_moves: Option<u32>,
}

impl SolutionCheck {
    /// The moves replayed on `layout` against `goal`, without judging the length
    /// ([`SolutionCheck::optimum`] is [`Optimum::Unsolvable`] or a lower bound of 0 here;
    /// [`Npuzzle::check_solution`] fills it in). O(W·H + moves).
    ///
    /// # Errors
    /// [`Error::Goal`] when the goal's shape differs from the board's.
    pub fn replay(layout: &Layout, goal: &Goal, moves: &[Move]) -> Result<SolutionCheck, Error> {
        let parity = goal.parity(layout)?;
        let required: Vec<Option<u16>> = goal.layout().cells().iter().map(|&t| Some(t)).collect();
        Ok(Self::judge_replay(
            layout,
            goal.layout().to_compact(),
            &required,
            &parity,
            moves,
        ))
    }

    /// [`SolutionCheck::replay`] against a partial goal (`npuzzle_core::partial`): the moves
    /// solve the board when every tile that matters ends on its cell (and the blank on its cell
    /// when the goal fixes it); [`SolutionCheck::goal`] is the partial goal's board text and
    /// [`SolutionCheck::partial_goal`] its name. O(W·H + moves).
    ///
    /// # Errors
    /// [`Error::Goal`] when the partial goal's shape differs from the board's.
    pub fn replay_partial(
        layout: &Layout,
        goal: &PartialGoal,
        moves: &[Move],
    ) -> Result<SolutionCheck, Error> {
        let parity = goal.solvability(layout)?;
        let mut c = Self::judge_replay(layout, goal.board_text(), goal.cells(), &parity, moves);
        c.partial_goal = Some(goal.name());
        Ok(c)
    }

    /// Replays `moves` and compares the board reached with `required` (the tile each cell must
    /// hold, `None` where any may).
    fn judge_replay(
        layout: &Layout,
        goal: String,
        required: &[Option<u16>],
        parity: &Parity,
        moves: &[Move],
    ) -> SolutionCheck {
        let shape = layout.shape();
        let (w, h) = (shape.width(), shape.height());
        let mut board = layout.clone();
        let mut illegal = None;
        for (index, &m) in moves.iter().enumerate() {
            let blank = board.blank();
            if !board.apply(m) {
                let (row, column) = (blank / w, blank % w);
                let edge = match m {
                    Move::Up => "in the bottom row, so no tile is below it to slide up",
                    Move::Down => "in the top row, so no tile is above it to slide down",
                    Move::Left => {
                        "in the rightmost column, so no tile is right of it to slide left"
                    }
                    Move::Right => {
                        "in the leftmost column, so no tile is left of it to slide right"
                    }
                };
                illegal = Some(IllegalMove {
                    index,
                    mv: m.letter(),
                    blank_cell: blank,
                    blank_row: row,
                    blank_column: column,
                    reason: format!(
                        "the blank is at row {}, column {} (cell {blank}) of the {w}x{h} board, {edge}",
                        row + 1,
                        column + 1
                    ),
                });
                break;
            }
        }
        let wrong_cells: Vec<WrongCell> = board
            .cells()
            .iter()
            .zip(required)
            .enumerate()
            .filter_map(|(cell, (&tile, &expected))| {
                let expected = expected.filter(|&e| e != tile)?;
                Some(WrongCell {
                    cell,
                    row: cell / w,
                    column: cell % w,
                    tile: usize::from(tile),
                    expected: usize::from(expected),
                })
            })
            .collect();
        let solves = illegal.is_none() && wrong_cells.is_empty();
        SolutionCheck {
            board: layout.to_compact(),
            width: w,
            height: h,
            goal,
            partial_goal: None,
            moves: moves_to_string(moves),
            metric: Metric::Stm,
            length: moves.len(),
            legal: illegal.is_none(),
            illegal,
            reached: board.to_compact(),
            solves,
            wrong_cells,
            solvable: parity.solvable,
            parity: parity.explain(),
            optimum: if parity.solvable {
                Optimum::AtLeast {
                    lower_bound: 0,
                    how: "not judged".into(),
                }
            } else {
                Optimum::Unsolvable
            },
            optimal: if solves { None } else { Some(false) },
            extra_moves: None,
        }
    }

    /// The verdict in one line: `solves the board in 31 moves: optimal`, `does not solve the
    /// board: move 3 (U) is illegal: ...`, `solves the board in 35 moves: 4 more than the
    /// optimum (31)`, ...
    pub fn verdict(&self) -> String {
        if let Some(i) = &self.illegal {
            return format!(
                "does not solve the board: move {} ({}) is illegal: {}",
                i.index + 1,
                i.mv,
                i.reason
            );
        }
        if !self.solves {
            let n = self.wrong_cells.len();
            return format!(
                "does not solve the board: after {} move{} the board is {}, with {n} cell{} wrong",
                self.length,
                plural(self.length),
                self.reached,
                plural(n)
            );
        }
        let head = format!(
            "solves the board in {} {}move{}",
            self.length,
            if self.metric == Metric::Mtm {
                "MTM "
            } else {
                ""
            },
            plural(self.length)
        );
        match (&self.optimum, self.extra_moves) {
            (Optimum::Known { .. }, Some(0)) => format!("{head}: optimal"),
            (Optimum::Known { length, .. }, Some(extra)) => {
                format!("{head}: {extra} more than the optimum ({length})")
            }
            (Optimum::AtLeast { lower_bound, .. }, _) => format!(
                "{head}: the optimum is not known; at most {} more than the proven lower bound ({lower_bound})",
                self.length.saturating_sub(*lower_bound as usize)
            ),
            _ => head,
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

impl Npuzzle {
    /// Judges `moves` as a solution of `layout` for this solver's goal (full or partial):
    /// replays them ([`SolutionCheck::replay`], [`SolutionCheck::replay_partial`]), then
    /// compares their length with the optimum — proven without search when the moves solve the
    /// board and their length equals the linear-conflict lower bound (MTM: mtm-manhattan; a
    /// partial goal: partial-manhattan over the tiles that matter), else computed by this
    /// solver (within `settings`' limits;
    /// use an optimal engine and a node budget such as [`CHECK_NODE_BUDGET`]). When the search
    /// hits a limit or does not prove optimality, the length is compared with the proven lower
    /// bound (the linear-conflict bound, the f-bound an optimal engine reached, the length the
    /// search proved) and [`Optimum::AtLeast`] says so.
    ///
    /// # Errors
    /// [`Error::Goal`] when the goal does not fit the board; [`Error::Pdb`] when the solver's
    /// pattern databases cannot be opened; a limit is **not** an error here.
    pub fn check_solution(
        &self,
        layout: &Layout,
        moves: &[Move],
        settings: &SearchSettings,
    ) -> Result<SolutionCheck, Error> {
        let metric = self.config.metric;
        let (mut c, lc, bound_name) = if let Some(kind) = &self.config.partial {
            // A partial goal: the tiles that matter, their Manhattan distance and linear
            // conflicts (STM) or the multi-tile bound over them (MTM).
            let goal = crate::partial::resolve(kind, layout.shape())?;
            let c = SolutionCheck::replay_partial(layout, &goal, moves)?;
            let (cells, pos) = cells_and_positions(layout);
            let bound = PartialManhattan::new(&goal, metric);
            (c, bound.estimate(&cells, &pos), bound.name())
        } else {
            let goal = Goal::new(&self.config.goal, layout.shape())?;
            let c = SolutionCheck::replay(layout, &goal, moves)?;
            let board = VecBoard::from_layout(layout)?;
            // The bound without search: linear conflict in STM, mtm-manhattan in MTM
            // (admissible there; linear conflict is not).
            match metric {
                Metric::Stm => (
                    c,
                    LinearConflict::new(&goal).estimate(&board),
                    "linear-conflict",
                ),
                Metric::Mtm => (
                    c,
                    MtmManhattan::new(&goal).estimate(&board),
                    "mtm-manhattan",
                ),
            }
        };
        if metric == Metric::Mtm {
            c.metric = metric;
            c.length = mtm_length(moves);
        }
        if !c.solvable {
            return Ok(c);
        }
        let given = u32::try_from(c.length).unwrap_or(u32::MAX);
        c.optimum = if c.solves && given == lc {
            Optimum::Known {
                length: given,
                moves: c.moves.clone(),
                how: format!("its length equals the {bound_name} lower bound ({lc})"),
            }
        } else {
            match self.solve_with(layout, settings) {
                Ok(answer) if answer.is_optimal() => Optimum::Known {
                    length: answer.length() as u32,
                    moves: answer.moves(),
                    how: format!(
                        "proven by optimal search, {} + {}",
                        answer.engine.name(),
                        answer.heuristic.name()
                    ),
                },
                Ok(answer) => Optimum::AtLeast {
                    lower_bound: answer.lower_bound.max(lc),
                    how: format!(
                        "the {} engine found {} moves without proving optimality; lower bound from the heuristic",
                        answer.engine.name(),
                        answer.length()
                    ),
                },
                Err(e) => {
                    let Some((limit, progress)) = e.limit() else {
                        return Err(e);
                    };
                    let proven = if self.proves_bound_when_stopped() {
                        progress.bound
                    } else {
                        0
                    };
                    Optimum::AtLeast {
                        lower_bound: lc.max(proven),
                        how: format!(
                            "optimal search stopped by the {limit} at f-bound {}; lower bound: {}",
                            progress.bound,
                            if proven > lc {
                                "every solution has at least the f-bound IDA* reached"
                            } else {
                                bound_name
                            }
                        ),
                    }
                }
            }
        };
        if c.solves {
            match &c.optimum {
                Optimum::Known { length, .. } => {
                    c.extra_moves = Some(given - length);
                    c.optimal = Some(given == *length);
                }
                Optimum::AtLeast { lower_bound, .. } if given == *lower_bound => {
                    c.optimal = Some(true);
                    c.extra_moves = Some(0);
                    c.optimum = Optimum::Known {
                        length: given,
                        moves: c.moves.clone(),
                        how: format!("its length equals the proven lower bound ({given})"),
                    };
                }
                _ => {}
            }
        }
        Ok(c)
    }
}

/// The solver [`check_solution`] judges with: IDA\* with linear conflict (optimal, no tables
/// to build), within [`CHECK_NODE_BUDGET`] generated nodes, for `goal` (`blank-last`,
/// `blank-first`, a board, or a partial goal such as `first-row` or `123xxxxxx`, which IDA\*
/// searches with tables over its tiles that matter, built in memory: about 2 s for the 4×4's
/// first two rows).
///
/// # Errors
/// [`Error::BadValue`] for a malformed goal.
pub fn check_config(goal: &str) -> Result<Config, Error> {
    check_config_in(goal, Metric::Stm)
}

/// [`check_config`] in `metric`: in the multi-tile metric, IDA\* over MTM moves with auto's MTM
/// heuristic (the multi-tile pattern databases, built once when missing and no time limit is
/// set, [`HeuristicKind::MtmPdb`]), within [`CHECK_NODE_BUDGET`] generated nodes; the given
/// moves are then counted in MTM (a run of one letter is one move).
///
/// # Errors
/// [`Error::BadValue`] for a malformed goal.
pub fn check_config_in(goal: &str, metric: Metric) -> Result<Config, Error> {
    let config = Config::new()
        .goal(goal)?
        .engine(Engine::IdaStar)
        .max_nodes(CHECK_NODE_BUDGET);
    Ok(match metric {
        // A partial goal searches with its own tables over the tiles that matter, built in
        // memory on the board (`npuzzle_pdb::PartialDb`), in either metric.
        Metric::Stm if config.partial.is_some() => config,
        Metric::Stm => config.heuristic(HeuristicKind::LinearConflict),
        Metric::Mtm => config.metric(Metric::Mtm),
    })
}

/// Parses a move string for [`check_solution`] (`npuzzle_core::parse_moves`: letters `U D L
/// R`, case-insensitive; spaces and commas ignored).
///
/// # Errors
/// [`Error::BadValue`] naming [`Setting::Moves`] and the bad character.
pub fn read_moves(text: &str) -> Result<Vec<Move>, Error> {
    parse_moves(text).map_err(|e| Error::BadValue {
        setting: Setting::Moves,
        value: excerpt(text, e.position),
        reason: e.to_string(),
    })
}

/// At most this many characters of a bad move string are quoted in its error.
const QUOTED_CHARACTERS: usize = 40;

/// `text` as an error quotes it: whole when short, else the [`QUOTED_CHARACTERS`] around
/// `position` (a character index) with `…` for what is left out and the whole length, so that
/// a 120,000-move string with one bad letter gives a short message. O(length of `text`).
fn excerpt(text: &str, position: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= QUOTED_CHARACTERS {
        return text.to_string();
    }
    let start = position
        .saturating_sub(QUOTED_CHARACTERS / 2)
        .min(chars.len() - QUOTED_CHARACTERS);
    let end = start + QUOTED_CHARACTERS;
    format!(
        "{}{}{} ({} characters)",
        if start > 0 { "…" } else { "" },
        chars[start..end].iter().collect::<String>(),
        if end < chars.len() { "…" } else { "" },
        chars.len()
    )
}

/// Judges a solution given as text: `moves` (letters `U D L R`, the tile-slide notation) on
/// `board` (any format [`crate::parse_board`] reads) for `goal` (`blank-last`,
/// `blank-first` or a board), with [`check_config`]'s solver. See
/// [`Npuzzle::check_solution`].
///
/// ```
/// let c = npuzzle::check::check_solution("1 2 3 4 5 6 0 7 8", "LL", "blank-last")?;
/// assert!(c.solves && c.optimal == Some(true));
/// let c = npuzzle::check::check_solution("1 2 3 4 5 6 0 7 8", "LLR", "blank-last")?;
/// assert!(!c.solves && c.wrong_cells.len() == 2);
/// let c = npuzzle::check::check_solution("1 2 3 4 5 6 0 7 8", "R", "blank-last")?;
/// assert_eq!(c.illegal.map(|i| i.index), Some(0));
/// # Ok::<(), npuzzle::Error>(())
/// ```
///
/// # Errors
/// [`Error::Parse`] for a malformed board, [`Error::BadValue`] for a bad move character or
/// goal, [`Error::Goal`] for a goal of another shape.
pub fn check_solution(board: &str, moves: &str, goal: &str) -> Result<SolutionCheck, Error> {
    let moves = read_moves(moves)?;
    let solver = check_config(goal)?.build()?;
    let layout = crate::parse_board(board, None)?;
    solver.check_solution(&layout, &moves, &solver.settings())
}
