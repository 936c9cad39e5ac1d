//! A spinner on stderr showing how a search is getting on, only when stderr is a terminal.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use npuzzle_core::Progress;

use crate::plan::Engine;

/// A spinner for one search; inert (no output at all) when stderr is not a terminal.
#[derive(Debug)]
pub struct Spinner {
    bar: Option<ProgressBar>,
    engine: Engine,
}

impl Spinner {
    /// Starts a spinner for a search by `engine`, if `show` and stderr is a terminal.
    pub fn start(engine: Engine, show: bool) -> Spinner {
        let bar = (show && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.set_message(format!("{}: starting", engine.name()));
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        Spinner { bar, engine }
    }

    /// Shows the latest progress report (called from the engine's observer).
    pub fn update(&self, p: &Progress) {
        if let Some(bar) = &self.bar {
            bar.set_message(message(self.engine, p));
        }
    }

    /// Removes the spinner from the terminal.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The spinner's text: IDA*'s threshold, expansions and node rate; A*'s f-bound and stored
/// states.
fn message(engine: Engine, p: &Progress) -> String {
    let rate = if p.seconds > 0.0 {
        p.generated as f64 / p.seconds
    } else {
        0.0
    };
    match engine {
        Engine::IdaStar => format!(
            "idastar: threshold {}, {} expanded, {} nodes/s",
            p.bound,
            si(p.expanded as f64),
            si(rate)
        ),
        Engine::AStar | Engine::WeightedAStar => format!(
            "{}: f-bound {}, {} states stored, {} expanded",
            engine.name(),
            p.bound,
            si(p.stored_states as f64),
            si(p.expanded as f64)
        ),
        Engine::Bidirectional => format!(
            "bidirectional: lower bound {}, {} states stored, {} expanded",
            p.bound,
            si(p.stored_states as f64),
            si(p.expanded as f64)
        ),
        Engine::Constructive => "constructive: placing tiles".to_string(),
    }
}

/// A count with an SI prefix: `950`, `12.3 k`, `4.56 M`, `7.89 G`.
pub fn si(v: f64) -> String {
    if v >= 1e9 {
        format!("{:.2} G", v / 1e9)
    } else if v >= 1e6 {
        format!("{:.1} M", v / 1e6)
    } else if v >= 1e3 {
        format!("{:.1} k", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages() {
        let p = Progress {
            expanded: 2_500_000,
            generated: 5_000_000,
            seconds: 0.5,
            bound: 44,
            stored_states: 1234,
        };
        assert_eq!(
            message(Engine::IdaStar, &p),
            "idastar: threshold 44, 2.5 M expanded, 10.0 M nodes/s"
        );
        assert_eq!(
            message(Engine::AStar, &p),
            "astar: f-bound 44, 1.2 k states stored, 2.5 M expanded"
        );
        assert_eq!(si(999.0), "999");
        assert_eq!(si(3.2e9), "3.20 G");
    }
}
