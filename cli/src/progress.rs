//! What a person sees on stderr while the CLI works: a spinner per search, a progress bar per
//! pattern-database build, and the auto policy's decisions — all through one
//! [`npuzzle::Observer`], [`Terminal`]. Spinners and bars are drawn only when stderr is a
//! terminal; messages always go to stderr. Imports no other CLI module.

use std::io::IsTerminal;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use npuzzle::npuzzle_pdb::{BuildProgress, Event, FORMAT_VERSION, TableKind, format_groups};
use npuzzle::{Engine, Goal, Observer, Progress, Shape};
use npuzzle_core::human_bytes;

/// The CLI's observer: spinners (if `spinners` and stderr is a terminal), build bars (on a
/// terminal) and one line on stderr per table build and per auto decision.
#[derive(Debug)]
pub struct Terminal {
    tty: bool,
    spinners: bool,
    spinner: Mutex<Option<ProgressBar>>,
    build: Mutex<Option<ProgressBar>>,
}

impl Terminal {
    /// An observer; `spinners` is false for `npuzzle bench`, which draws one bar for the run.
    pub fn new(spinners: bool) -> Terminal {
        Terminal {
            tty: std::io::stderr().is_terminal(),
            spinners,
            spinner: Mutex::new(None),
            build: Mutex::new(None),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Observer for Terminal {
    fn search_started(&self, engine: Engine) {
        if !(self.spinners && self.tty) {
            return;
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_message(format!("{}: starting", engine.name()));
        bar.enable_steady_tick(Duration::from_millis(120));
        *lock(&self.spinner) = Some(bar);
    }

    fn search_progress(&self, engine: Engine, progress: &Progress) {
        if let Some(bar) = lock(&self.spinner).as_ref() {
            bar.set_message(message(engine, progress));
        }
    }

    fn search_finished(&self, _engine: Engine) {
        if let Some(bar) = lock(&self.spinner).take() {
            bar.finish_and_clear();
        }
    }

    fn pdb_event(&self, shape: Shape, goal: &Goal, event: &Event<'_>) {
        match event {
            Event::Loaded { .. } => {}
            Event::Upgraded {
                path,
                from_version,
                store_error,
                ..
            } => match store_error {
                None => eprintln!(
                    "pdb: rewrote {} from format {from_version} to format {FORMAT_VERSION} (same entries, faster loading)",
                    path.display(),
                ),
                Some(e) => eprintln!(
                    "pdb: warning: {} is in format {from_version} and could not be rewritten: {e}",
                    path.display()
                ),
            },
            Event::Rejected { error } => eprintln!("warning: {error}; treated as not cached"),
            Event::Waiting { tiles, lock } => eprintln!(
                "pdb: another process is building the table of tiles {} (lock {}); waiting for it",
                format_groups(&[tiles.to_vec()]),
                lock.display()
            ),
            Event::Cleaned { tiles, files } => eprintln!(
                "pdb: removed {files} temporary file(s) left by an interrupted build of the table of tiles {}",
                format_groups(&[tiles.to_vec()])
            ),
            Event::Building {
                tiles,
                kind,
                entries,
                memory,
            } => {
                eprintln!(
                    "pdb: {} of tiles {} for {shape} {goal}: {entries} entries ({} on disk), {} peak memory",
                    match kind {
                        TableKind::Plain => "building the table",
                        TableKind::ZeroAware => "building the zero-aware table",
                        TableKind::RegionCoded =>
                            "deriving the region-coded form of the zero-aware table",
                        TableKind::Automaton { .. } => "building the duplicate-pruning automaton",
                        TableKind::Mtm => "building the multi-tile-metric table",
                    },
                    format_groups(&[tiles.to_vec()]),
                    human_bytes(entries + 128),
                    human_bytes(*memory)
                );
                if self.tty {
                    let b =
                        ProgressBar::with_draw_target(Some(*entries), ProgressDrawTarget::stderr());
                    b.set_style(
                        ProgressStyle::with_template(
                            "{bar:40} {percent:>3}% {msg} [{elapsed_precise}, eta {eta}]",
                        )
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                    );
                    *lock(&self.build) = Some(b);
                }
            }
            Event::Built {
                seconds,
                path,
                store_error,
                ..
            } => {
                if let Some(b) = lock(&self.build).take() {
                    b.finish_and_clear();
                }
                match (path, store_error) {
                    (Some(p), _) => {
                        eprintln!("pdb: built in {seconds:.1} s, stored in {}", p.display());
                    }
                    (None, Some(e)) => {
                        eprintln!(
                            "pdb: built in {seconds:.1} s; warning: not stored ({e}): the table is used from memory for this run only"
                        );
                    }
                    (None, None) => eprintln!("pdb: built in {seconds:.1} s"),
                }
            }
        }
    }

    fn pdb_progress(&self, p: &BuildProgress) {
        if let Some(b) = lock(&self.build).as_ref() {
            b.set_position(p.reached);
            b.set_message(format!("layer {}", p.layer));
        }
    }

    fn pdb_ready(&self, _shape: Shape, description: &str, seconds: f64) {
        eprintln!("pdb: {description} ready in {seconds:.1} s");
    }

    fn note(&self, text: &str) {
        eprintln!("npuzzle: {text}");
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
        Engine::IdaStar | Engine::AStarIdaStar => format!(
            "{}: threshold {}, {} expanded, {} nodes/s",
            engine.name(),
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
        Engine::Beam => "beam: searching".to_string(),
        Engine::Greedy => format!(
            "greedy: {} states stored, {} expanded",
            si(p.stored_states as f64),
            si(p.expanded as f64)
        ),
        // Any other engine of the registry: its bound, stored states and node rate.
        e => format!(
            "{}: bound {}, {} states stored, {} expanded, {} nodes/s",
            e.name(),
            p.bound,
            si(p.stored_states as f64),
            si(p.expanded as f64),
            si(rate)
        ),
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
    use npuzzle::Progress;

    #[test]
    fn messages() {
        let p = Progress {
            expanded: 2_500_000,
            generated: 5_000_000,
            seconds: 0.5,
            bound: 44,
            stored_states: 1234,
            bound_kind: npuzzle::BoundKind::FBound,
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
