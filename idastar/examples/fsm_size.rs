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
    println!("shape depth patterns states bytes seconds");
    for &shape in &shapes {
        for &depth in &depths {
            let t = Instant::now();
            let fsm = Fsm::build(shape, depth).expect("buildable");
            println!(
                "{shape} {depth} {} {} {} {:.2}",
                fsm.patterns(),
                fsm.states(),
                fsm.bytes(),
                t.elapsed().as_secs_f64()
            );
        }
    }
}
