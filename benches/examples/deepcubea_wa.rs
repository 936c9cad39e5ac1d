//! Scratch: weighted A* and anytime lengths on DeepCubeA dev states.
use std::time::{Duration, Instant};

use npuzzle_core::{
    Board, Goal, Layout, Limits, LinearConflict, Manhattan, Outcome, Shape, Solver,
};
use npuzzle_nxn::{AnytimeOptions, Constructive, VecBoard, WeightedAStar, anytime, beam, shorten};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = &args[1];
    let count: usize = args[2].parse().unwrap();
    let mode = &args[3];
    let text = std::fs::read_to_string(file).unwrap();
    let (mut sum, mut dsum) = (0usize, 0usize);
    for line in text.lines().filter(|l| !l.starts_with('#')).take(count) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let cells: Vec<usize> = f[3..].iter().map(|t| t.parse().unwrap()).collect();
        let side = (cells.len() as f64).sqrt() as usize;
        let shape = Shape::new(side, side).unwrap();
        let layout = Layout::new(shape, &cells).unwrap();
        let goal = Goal::blank_last(shape);
        let b = VecBoard::from_layout(&layout).unwrap();
        let h = LinearConflict::new(&goal);
        let mut out = format!("{} dca={}", f[0], f[1]);
        dsum += f[1].parse::<usize>().unwrap();
        if let Some(rest) = mode.strip_prefix("beam:") {
            for wd in rest.split(',') {
                let width: usize = wd.parse().unwrap();
                let t = Instant::now();
                let up = std::sync::atomic::AtomicU32::new(u32::MAX);
                let gk = VecBoard::from_layout(goal.layout()).unwrap().key();
                let m = beam(&b, &gk, &h, width, &up, &|| false).unwrap();
                npuzzle_core::verify(&layout, &m, goal.layout()).unwrap();
                let sh = shorten(&b, &m, 24, 50_000, None);
                sum += sh.len();
                out += &format!(
                    " b{width}:{}->{}({:.2}s)",
                    m.len(),
                    sh.len(),
                    t.elapsed().as_secs_f64()
                );
            }
        } else if let Some(rest) = mode.strip_prefix("any:") {
            let p: Vec<&str> = rest.split(':').collect();
            let secs: f64 = p[0].parse().unwrap();
            let mut o = AnytimeOptions::default();
            if p.len() > 1 {
                o.threads = p[1].parse().unwrap();
            }
            if p.len() > 2 {
                o.window = p[2].parse().unwrap();
            }
            let t = Instant::now();
            let Outcome::Solved(c) = Constructive
                .solve(&b, &goal, &Manhattan::new(&goal), &Limits::default())
                .unwrap()
            else {
                panic!()
            };
            let limits = Limits {
                timeout: Some(Duration::from_secs_f64(secs)),
                ..Limits::default()
            };
            let a = anytime(&b, &goal, &h, &c.moves, &o, &limits).unwrap();
            npuzzle_core::verify(&layout, &a.moves, goal.layout()).unwrap();
            sum += a.moves.len();
            out += &format!(
                " cons={} any={} lb={} ({:.2}s) {:?}",
                c.moves.len(),
                a.moves.len(),
                a.lower_bound,
                t.elapsed().as_secs_f64(),
                a.log
            );
        } else {
            let weights: Vec<f64> = mode.split(',').map(|w| w.parse().unwrap()).collect();
            for &w in &weights {
                let t = Instant::now();
                let limits = Limits {
                    memory_bytes: Some(3 << 30),
                    timeout: Some(Duration::from_secs(60)),
                    ..Limits::default()
                };
                match WeightedAStar::new(w).unwrap().solve(&b, &goal, &h, &limits) {
                    Ok(Outcome::Solved(s)) => {
                        let t1 = t.elapsed().as_secs_f64();
                        let sh = shorten(&b, &s.moves, 24, 50_000, None);
                        out += &format!(
                            " w{w}:{}->{}({t1:.2}s,{:.2}s,{}k)",
                            s.moves.len(),
                            sh.len(),
                            t.elapsed().as_secs_f64(),
                            s.stats.expanded / 1000
                        );
                        sum += sh.len();
                    }
                    r => out += &format!(" w{w}:fail({:?})", r.err().map(|e| e.to_string())),
                }
            }
        }
        println!("{out}");
    }
    println!("sum {sum} dca {dsum} ratio {:.3}", sum as f64 / dsum as f64);
}
