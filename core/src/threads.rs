//! How many threads a search runs on, as users give it: `0` means one per available core.
//! Resolved here and nowhere else; validated here and nowhere else.

use std::fmt;

/// A thread count as a user gives it: `0` for one thread per available core, else exactly that
/// many, at most [`Threads::MAX`]. Engines that take a plain `usize` (for example
/// `npuzzle_idastar::IdaStar::threads`) resolve it with [`Threads::resolve`]; front ends
/// validate what users type with [`Threads::new`].
///
/// ```
/// use npuzzle_core::Threads;
/// assert_eq!(Threads::new(2)?.count(), 2);
/// assert!(Threads::new(0)?.count() >= 1); // every available core
/// assert!(Threads::new(Threads::MAX + 1).is_err());
/// # Ok::<(), npuzzle_core::TooManyThreads>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Threads(usize);

/// A thread count above [`Threads::MAX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at most {max} threads (0 = one per available core), not {requested}", max = Threads::MAX)]
pub struct TooManyThreads {
    /// The count asked for.
    pub requested: usize,
}

impl Threads {
    /// The most threads a search accepts: 1,024. More workers than cores only slow parallel
    /// IDA\* down (they share the cores and the work queue), and every worker is an OS thread:
    /// 100,000 of them took minutes to start and to stop.
    pub const MAX: usize = 1024;

    /// One thread per available core.
    pub const EVERY_CORE: Threads = Threads(0);

    /// `requested` threads (`0`: one per available core).
    ///
    /// # Errors
    /// [`TooManyThreads`] above [`Threads::MAX`].
    pub fn new(requested: usize) -> Result<Threads, TooManyThreads> {
        if requested > Threads::MAX {
            return Err(TooManyThreads { requested });
        }
        Ok(Threads(requested))
    }

    /// The count as given (`0`: every core).
    pub fn requested(self) -> usize {
        self.0
    }

    /// The threads to start: [`Threads::resolve`] of the count given.
    pub fn count(self) -> usize {
        Threads::resolve(self.0)
    }

    /// The threads to start for a count as given: `requested` itself, or for `0` the available
    /// parallelism ([`std::thread::available_parallelism`]; 1 when the system cannot tell).
    /// For `0`, one system call (the standard library asks the system each time).
    pub fn resolve(requested: usize) -> usize {
        match requested {
            0 => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            n => n,
        }
    }
}

impl fmt::Display for Threads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => write!(f, "every core ({})", self.count()),
            n => write!(f, "{n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_is_every_core_and_the_maximum_is_refused() {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        assert_eq!(Threads::new(0).unwrap().count(), cores);
        assert_eq!(Threads::EVERY_CORE.count(), cores);
        assert_eq!(Threads::new(3).unwrap().count(), 3);
        assert_eq!(Threads::new(3).unwrap().requested(), 3);
        assert_eq!(Threads::new(Threads::MAX).unwrap().count(), Threads::MAX);
        let err = Threads::new(Threads::MAX + 1).unwrap_err();
        assert_eq!(err.requested, Threads::MAX + 1);
        assert_eq!(
            err.to_string(),
            "at most 1024 threads (0 = one per available core), not 1025"
        );
    }
}
