//! Prints the size and build time of the duplicate-pruning automaton ([`Fsm`]) per shape and
//! depth: `cargo run --profile heavy -p npuzzle-idastar --example fsm_size -- 4x4 5x5 -- 10 12 14`.

use std::time::Instant;

use npuzzle_core::Shape;
use npuzzle_idastar::Fsm;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let split = args.iter().position(|a| a == "--").unwrap_or(args.len());
    let shapes: Vec<Shape> = args[..split]
        .iter()
        .map(|s| {
            let (w, h) = s.split_once('x').expect("WxH");
            Shape::new(w.parse().expect("width"), h.parse().expect("height")).expect("shape")
        })
        .collect();
    let depths: Vec<u32> = args
        .get(split + 1..)
        .unwrap_or(&[])
        .iter()
        .map(|d| d.parse().expect("depth"))
        .collect();
    println!("shape depth patterns states bytes seconds branching");
    for &shape in &shapes {
        for &depth in &depths {
            let t = Instant::now();
            let fsm = Fsm::build(shape, depth).expect("buildable");
            let seconds = t.elapsed().as_secs_f64();
            println!(
                "{shape} {depth} {} {} {} {seconds:.2} {:.4}",
                fsm.patterns(),
                fsm.states(),
                fsm.bytes(),
                branching(&fsm)
            );
        }
    }
}

/// The asymptotic branching factor of the tree the automaton leaves: the number of kept move
/// strings of length 80 over that of length 79, from every start cell together (a dynamic
/// program over the automaton's states; compare 2.1304 and 2.3676, the parent-pruned trees of
/// the 15- and 24-puzzle, Korf 1985 and Korf & Taylor 1996).
fn branching(fsm: &Fsm) -> f64 {
    let table = fsm.table();
    let states = fsm.states();
    let mut count = vec![0f64; states];
    for c in 0..fsm.shape().cells() {
        count[fsm.start(c) as usize] = 1.0;
    }
    let mut ratio = 0.0;
    for _ in 0..80 {
        let mut next = vec![0f64; states];
        for (s, &n) in count.iter().enumerate() {
            if n == 0.0 {
                continue;
            }
            for &t in &table[4 * s..4 * s + 4] {
                if t != npuzzle_idastar::fsm::DEAD {
                    next[t as usize] += n;
                }
            }
        }
        let (a, b): (f64, f64) = (count.iter().sum(), next.iter().sum());
        ratio = b / a;
        // Rescale to stay in range.
        count = next.into_iter().map(|x| x / b).collect();
    }
    ratio
}
