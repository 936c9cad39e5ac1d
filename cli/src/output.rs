//! Printing `solve`'s answers ([`npuzzle::Answer`]): text, JSON lines (through serde), or the
//! textbook board sequence. Imports only [`crate::args`] (the format) and [`crate::progress`]
//! (number formatting).

use std::fmt::Write as _;
use std::io::{self, Write};

use npuzzle::{Answer, Engine, Guarantee, HeuristicKind, Metric, Notation, Record, Stats};
use npuzzle_core::human_bytes;

use crate::args::SolveFormat;
use crate::progress::si;

/// Where an answer stands among the boards of one run: `index` (1-based) of `total`.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    /// 1-based index of the board.
    pub index: usize,
    /// Number of boards in the run; `None` when there are several and the input is still being
    /// read (streamed boards).
    pub total: Option<usize>,
}

/// Writes `answer` in `format`, its moves in `notation` in text output (JSON always carries
/// both, `moves` and `moves_counts`). With several boards, text output names each board first
/// and text and boards output separate answers by a blank line.
///
/// # Errors
/// Write errors (a broken pipe included), for the caller to handle.
pub fn write_answer(
    out: &mut impl Write,
    format: SolveFormat,
    notation: Notation,
    answer: &Answer,
    pos: Position,
) -> io::Result<()> {
    if pos.index > 1 && format != SolveFormat::Json {
        writeln!(out)?;
    }
    match format {
        SolveFormat::Text => {
            match pos.total {
                Some(1) => {}
                Some(total) => writeln!(out, "Board {} of {total}: {}", pos.index, answer.layout)?,
                None => writeln!(out, "Board {}: {}", pos.index, answer.layout)?,
            }
            write_text(out, answer, notation)
        }
        SolveFormat::Json => write_json(out, answer),
        SolveFormat::Boards => write_boards(out, answer),
    }
}

/// [`write_solution_text`], then for a partial goal the goal and the board reached (or why no
/// board completing it can be reached).
fn write_text(out: &mut impl Write, answer: &Answer, notation: Notation) -> io::Result<()> {
    write_solution_text(out, answer, notation)?;
    if let Some(partial) = &answer.partial {
        if answer.solution.is_some() {
            writeln!(
                out,
                "Partial goal {} (x: any tile) reached as {}",
                partial.board_text(),
                answer.goal.layout().to_compact()
            )?;
        } else {
            writeln!(
                out,
                "Partial goal {} (x: any tile): every completion of it has the other parity",
                partial.board_text()
            )?;
        }
    }
    Ok(())
}

/// `Solved in N moves (optimal): MOVES` and a statistics line, or `No solution: <parity>`.
fn write_solution_text(
    out: &mut impl Write,
    answer: &Answer,
    notation: Notation,
) -> io::Result<()> {
    let Some(solution) = &answer.solution else {
        return writeln!(out, "No solution: {}", answer.parity.explain());
    };
    let n = answer.length();
    let moves = if n == 0 {
        "none, the board is already the goal".to_string()
    } else {
        notation.format(&solution.moves)
    };
    let plural = if n == 1 { "" } else { "s" };
    let quality = match solution.guarantee {
        Guarantee::Optimal => "optimal".to_string(),
        Guarantee::WithinFactor(w) => format!(
            "not proven optimal: at most {w} times the optimum, at least {} moves",
            answer.lower_bound
        ),
        Guarantee::Unproven => format!(
            "not proven optimal: at least {} by the heuristic",
            answer.lower_bound
        ),
    };
    if answer.metric == Metric::Mtm {
        let stm = solution.moves.len();
        let stm_plural = if stm == 1 { "" } else { "s" };
        writeln!(
            out,
            "Solved in {n} MTM move{plural} ({quality} in the multi-tile metric; {stm} single-tile move{stm_plural}): {moves}"
        )?;
    } else {
        writeln!(out, "Solved in {n} move{plural} ({quality}): {moves}")?;
    }
    writeln!(
        out,
        "{}",
        stats_line(answer.engine, answer.heuristic, &solution.stats)
    )
}

/// `idastar + linear-conflict: 1234 expanded, 5678 generated, 0.012 s, 12.3 M nodes/s, ...`.
fn stats_line(engine: Engine, heuristic: HeuristicKind, s: &Stats) -> String {
    let mut line = format!(
        "{} + {}: {} expanded, {} generated, {:.3} s, {} nodes/s",
        engine.name(),
        heuristic.name(),
        s.expanded,
        s.generated,
        s.seconds,
        si(s.nodes_per_second())
    );
    // Writing to a String cannot fail.
    let _ = match engine {
        Engine::IdaStar | Engine::AStarIdaStar => {
            let n = s.iterations.len();
            let plural = if n == 1 { "" } else { "s" };
            if engine == Engine::AStarIdaStar {
                let _ = write!(
                    line,
                    ", A* stored {} states ({})",
                    s.stored_states,
                    human_bytes(s.peak_memory_bytes)
                );
            }
            match s.iterations.last() {
                Some(last) => write!(
                    line,
                    ", {n} iteration{plural}, last threshold {}",
                    last.threshold
                ),
                None => write!(line, ", {n} iteration{plural}"),
            }
        }
        Engine::Bidirectional => match &s.bidirectional {
            Some(b) => write!(
                line,
                ", {} + {} expanded forward + backward, met {} + {} moves from start + goal, lower bound {}, {} states stored, peak memory {}",
                b.forward_expanded,
                b.backward_expanded,
                b.meeting_g_forward,
                b.meeting_g_backward,
                b.lower_bound,
                s.stored_states,
                human_bytes(s.peak_memory_bytes)
            ),
            None => write!(line, ", {} states stored", s.stored_states),
        },
        Engine::Constructive | Engine::Beam => {
            write!(line, ", heuristic lower bound {}", s.initial_h)
        }
        // A* and its relatives, and any engine the registry says stores states.
        e if e.info().stores_states && s.peak_memory_bytes > 0 => write!(
            line,
            ", {} states stored, peak memory {}",
            s.stored_states,
            human_bytes(s.peak_memory_bytes)
        ),
        e if e.info().stores_states => write!(line, ", {} states stored", s.stored_states),
        _ => Ok(()),
    };
    line
}

/// One line of JSON: the facade's [`npuzzle::Record`] (`board`, `width`, `height`, `goal` (the
/// goal board), `engine`, `heuristic`, `solvable`, `optimal`, `guarantee`, `lower_bound`,
/// `length`, `moves`, `stats`, `parity`), the same record the web app's API answers.
/// Unsolvable boards have `"solvable": false` and `null` for `optimal`, `length`, `moves` and
/// `stats`.
fn write_json(out: &mut impl Write, answer: &Answer) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &Record::from(answer)).map_err(io::Error::from)?;
    writeln!(out)
}

/// Every optimal solution of a board (`solve --all-optimal` / `--count`), or every one within
/// k moves of the optimum (`--within K`): their number and the ones listed.
#[derive(Clone, Copy, Debug)]
pub struct OptimalSet<'a> {
    /// The solutions counted (optimal ones, or within k moves of the optimum) and listed.
    pub all: &'a npuzzle::AllOptimalAnswer,
    /// Whether they were asked for (`--all-optimal`, `--within`), not only counted.
    pub listed: bool,
}

/// Writes `answer` (its first optimal solution) with every optimal solution: in text, the
/// answer, then `Optimal solutions: N` and one numbered line per listed sequence; in JSON, the
/// record with `optimal_count` (and `optimal_solutions`, the listed sequences). With
/// `--within K`: `Solutions within K moves of the optimum: N (L moves: a, L+2 moves: b)` and
/// the listed ones, shortest first; in JSON `within`, `within_count`, `counts_by_length` and
/// `solutions` ([`npuzzle::AllOptimalAnswer::record`]). With `--metric mtm` the lengths are MTM
/// moves (`20 MTM moves: 4, 21 MTM moves: 96`), text lists the solutions in `notation` (counts
/// by default), and JSON has each list also with counts (`optimal_solutions_counts`,
/// `solutions_counts`).
///
/// # Errors
/// Write errors.
pub fn write_optimal_set(
    out: &mut impl Write,
    format: SolveFormat,
    notation: Notation,
    answer: &Answer,
    pos: Position,
    set: &OptimalSet<'_>,
) -> io::Result<()> {
    let all = set.all;
    if format == SolveFormat::Json {
        serde_json::to_writer(&mut *out, &all.record(set.listed)).map_err(io::Error::from)?;
        return writeln!(out);
    }
    write_answer(out, format, notation, answer, pos)?;
    if !answer.is_solvable() {
        return Ok(());
    }
    // Lengths in the answer's metric.
    let unit = match answer.metric {
        Metric::Stm => "moves",
        Metric::Mtm => "MTM moves",
    };
    let head = if all.within == 0 {
        format!("Optimal solutions: {}", all.count)
    } else {
        let by_length: Vec<String> = all
            .counts_by_length
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(i, n)| format!("{} {unit}: {n}", answer.length() + i))
            .collect();
        format!(
            "Solutions within {} move{} of the optimum: {} ({})",
            all.within,
            if all.within == 1 { "" } else { "s" },
            all.count,
            by_length.join(", ")
        )
    };
    let shown = all.solutions.len() as u64;
    if !set.listed {
        return writeln!(out, "{head}");
    }
    if shown < all.count {
        let order = if all.within == 0 {
            ""
        } else {
            ", shortest first"
        };
        writeln!(
            out,
            "{head} (the first {shown} listed{order}; --limit K lists more)"
        )?;
    } else {
        writeln!(out, "{head}")?;
    }
    for (i, s) in all.solutions.iter().enumerate() {
        writeln!(out, "{:>6}. {}", i + 1, notation.format(s))?;
    }
    Ok(())
}

/// The textbook format: `Minimum number of moves = N`, then every board from the start to the
/// goal as a grid, a blank line between boards; `No solution possible` when unsolvable.
fn write_boards(out: &mut impl Write, answer: &Answer) -> io::Result<()> {
    let Some(solution) = &answer.solution else {
        return writeln!(out, "No solution possible");
    };
    let metric = match answer.metric {
        Metric::Stm => "",
        Metric::Mtm => " (multi-tile metric; one board per single-tile move below)",
    };
    if solution.guarantee.is_optimal() {
        writeln!(out, "Minimum number of moves = {}{metric}", answer.length())?;
    } else {
        writeln!(
            out,
            "Number of moves = {} (not proven minimal){metric}",
            answer.length()
        )?;
    }
    let mut board = answer.layout.clone();
    write!(out, "{}", board.to_grid())?;
    for &m in &solution.moves {
        // The solution was verified, so every move is legal.
        let legal = board.apply(m);
        debug_assert!(legal, "verified solutions have legal moves only");
        write!(out, "\n{}", board.to_grid())?;
    }
    Ok(())
}

/// The median of sorted values (the mean of the middle two for an even count); `None` when
/// empty. O(1).
pub fn median(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some(f64::midpoint(sorted[n / 2 - 1], sorted[n / 2])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::{Goal, Solution};
    use npuzzle_core::{Iteration, parse_board, parse_moves};

    fn answer(board: &str, moves: &str) -> Answer {
        let layout = parse_board(board, None).unwrap();
        let goal = Goal::blank_last(layout.shape());
        let parity = goal.parity(&layout).unwrap();
        let solution = parity.solvable.then(|| Solution {
            moves: parse_moves(moves).unwrap(),
            guarantee: Guarantee::Optimal,
            stats: Stats {
                expanded: 2,
                generated: 5,
                seconds: 0.5,
                iterations: vec![Iteration {
                    threshold: 2,
                    expanded: 2,
                    generated: 5,
                }],
                ..Stats::default()
            },
        });
        Answer {
            layout,
            goal,
            engine: Engine::IdaStar,
            heuristic: HeuristicKind::Manhattan,
            weight: None,
            parity,
            lower_bound: solution.as_ref().map_or(0, |s| s.moves.len() as u32),
            solution,
            notes: Vec::new(),
            metric: npuzzle::Metric::Stm,
            partial: None,
        }
    }

    fn render(format: SolveFormat, a: &Answer) -> String {
        render_in(format, Notation::Letters, a)
    }

    fn render_in(format: SolveFormat, notation: Notation, a: &Answer) -> String {
        let mut v = Vec::new();
        write_answer(
            &mut v,
            format,
            notation,
            a,
            Position {
                index: 1,
                total: Some(1),
            },
        )
        .unwrap();
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn medians() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[1.0, 2.0, 9.0]), Some(2.0));
        assert_eq!(median(&[1.0, 2.0, 4.0, 9.0]), Some(3.0));
    }

    #[test]
    fn text() {
        let a = answer("123456078", "LL");
        assert_eq!(
            render(SolveFormat::Text, &a),
            "Solved in 2 moves (optimal): LL\nidastar + manhattan: 2 expanded, 5 generated, 0.500 s, 10 nodes/s, 1 iteration, last threshold 2\n"
        );
        let u = answer("123456870", "");
        assert!(render(SolveFormat::Text, &u).starts_with("No solution: the permutation"));
        // Counts notation; the multi-tile metric's length.
        let text = render_in(SolveFormat::Text, Notation::Counts, &a);
        assert!(
            text.starts_with("Solved in 2 moves (optimal): L2\n"),
            "{text}"
        );
        let mut m = answer("123456078", "LL");
        m.metric = Metric::Mtm;
        m.lower_bound = 1;
        let text = render_in(SolveFormat::Text, Notation::Counts, &m);
        assert!(
            text.starts_with(
                "Solved in 1 MTM move (optimal in the multi-tile metric; 2 single-tile moves): L2\n"
            ),
            "{text}"
        );
        let v: serde_json::Value = serde_json::from_str(&render(SolveFormat::Json, &m)).unwrap();
        assert_eq!(
            (
                &v["metric"],
                &v["length"],
                &v["length_stm"],
                &v["length_mtm"]
            ),
            (&"mtm".into(), &1.into(), &2.into(), &1.into())
        );
        assert_eq!(
            (&v["moves"], &v["moves_counts"]),
            (&"LL".into(), &"L2".into())
        );
    }

    #[test]
    fn boards() {
        let a = answer("123456078", "LL");
        assert_eq!(
            render(SolveFormat::Boards, &a),
            "Minimum number of moves = 2\n1 2 3\n4 5 6\n0 7 8\n\n1 2 3\n4 5 6\n7 0 8\n\n1 2 3\n4 5 6\n7 8 0\n"
        );
        assert_eq!(
            render(SolveFormat::Boards, &answer("123456870", "")),
            "No solution possible\n"
        );
    }

    #[test]
    fn json() {
        let v: serde_json::Value =
            serde_json::from_str(&render(SolveFormat::Json, &answer("123456078", "LL"))).unwrap();
        assert_eq!(v["length"], 2);
        assert_eq!(v["moves"], "LL");
        assert_eq!(v["goal"], "123456780");
        assert_eq!(v["stats"]["generated"], 5);
        assert_eq!(v["stats"]["iterations"][0]["threshold"], 2);
        let v: serde_json::Value =
            serde_json::from_str(&render(SolveFormat::Json, &answer("123456870", ""))).unwrap();
        assert_eq!(v["solvable"], false);
        assert!(v["length"].is_null() && v["moves"].is_null() && v["optimal"].is_null());
        assert_eq!(v["parity"]["transpositions"], 1);
    }
}
