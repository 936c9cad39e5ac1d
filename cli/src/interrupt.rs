//! SIGINT (Ctrl-C) and SIGTERM: the first one sets the process's cancel flag, which the running
//! search checks with its other limits (every few thousand nodes) and stops on with
//! `Limit::Cancelled`, and which a pattern-database build checks every 32,768 patterns (it
//! stops within milliseconds, storing nothing: `npuzzle_pdb::Cache::cancel_on`); the command
//! then prints what it had proven and exits with status
//! **130**. A signal that arrives while the command waits for input, or a second signal, ends
//! the process at once with status 130 (nothing is half-written then: answers are flushed one
//! by one). A bottom layer like [`crate::status`]: imports no other CLI module.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// The exit status of an interrupted command: 128 + SIGINT, as shells report a Ctrl-C.
pub const EXIT_INTERRUPTED: u8 = 130;

/// The cancel flag, set by the first signal.
fn flag_cell() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// Whether the command is waiting for input (no search to stop: a signal ends it at once).
static WAITING: AtomicBool = AtomicBool::new(false);

/// The process's cancel flag, for [`npuzzle::Config::cancel`] and the engines' limits.
pub fn flag() -> Arc<AtomicBool> {
    Arc::clone(flag_cell())
}

/// Whether SIGINT or SIGTERM has arrived.
pub fn interrupted() -> bool {
    flag_cell().load(Ordering::Relaxed)
}

/// Starts the thread that turns SIGINT and SIGTERM into the cancel flag (see the module docs).
///
/// # Errors
/// The signal handlers cannot be registered.
pub fn install() -> io::Result<()> {
    let mut signals = Signals::new([SIGINT, SIGTERM])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for _ in signals.forever() {
                let again = flag_cell().swap(true, Ordering::SeqCst);
                if again || WAITING.load(Ordering::SeqCst) {
                    let _ = writeln!(
                        io::stderr().lock(),
                        "interrupted{}",
                        if again { "" } else { " while reading input" }
                    );
                    std::process::exit(i32::from(EXIT_INTERRUPTED));
                }
            }
        })?;
    Ok(())
}

/// Runs `read` (a read of input that may block) with signals ending the process at once.
pub fn waiting<T>(read: impl FnOnce() -> T) -> T {
    WAITING.store(true, Ordering::SeqCst);
    if interrupted() {
        // The signal came before the wait began: end now rather than after the read.
        let _ = writeln!(io::stderr().lock(), "interrupted while reading input");
        std::process::exit(i32::from(EXIT_INTERRUPTED));
    }
    let v = read();
    WAITING.store(false, Ordering::SeqCst);
    v
}
