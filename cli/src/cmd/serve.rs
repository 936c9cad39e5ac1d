//! `npuzzle serve`: the local web app of the `npuzzle-web` crate (page and JSON API), on
//! `--host`:`--port`.

use anyhow::{Context, Result};
use npuzzle_web::Options;

use crate::args::ServeArgs;
use crate::status::Status;

/// Runs `npuzzle serve` until Ctrl-C.
///
/// # Errors
/// The address cannot be bound (in use, not an address of this machine) or serving fails.
pub fn run(args: &ServeArgs) -> Result<Status> {
    let options = Options {
        host: args.host,
        port: args.port,
        max_timeout: args.max_timeout,
        default_timeout: Options::default().default_timeout.min(args.max_timeout),
        pdb_dir: args.pdb_dir.clone(),
        ..Options::default()
    };
    if options.is_exposed() {
        eprintln!(
            "warning: listening on {}, which is not a loopback address: anyone who can reach it can run searches here (each up to {} s)",
            args.host,
            args.max_timeout.as_secs_f64()
        );
    }
    let addr = options.addr();
    npuzzle_web::run(options, |bound| {
        eprintln!("npuzzle: serving the web app on http://{bound}/ (Ctrl-C stops it)");
    })
    .with_context(|| format!("cannot serve on {addr}"))?;
    Ok(Status::Success)
}
