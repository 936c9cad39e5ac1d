//! Partitions of the tiles into disjoint groups: the built-in 4×4 ones (7-6-2, the 4×4 default;
//! 6-6-3, 5-5-5, 7-8), the built-in 5×5 one (6-6-6-6, the 5×5 default), a row-major default for
//! other shapes, and user-given ones (`1,2,3/4,5,6`).

use std::fmt;
use std::str::FromStr;

use npuzzle_core::{Goal, Shape};

use crate::PdbError;

/// Which partition to use, before it is resolved against a goal.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum PartitionSpec {
    /// 7-6-2 on 4×4 boards, 6-6-6-6 on 5×5 boards, the row-major default on other boards of at
    /// most 25 cells, banded groups of 5 (up to 36 cells) or 4 tiles above (see
    /// [`PartitionSpec::resolve`]).
    #[default]
    Default,
    /// 7-6-2 (4×4 only): the 7-tile group of the 7-8 partition, and its 8 tiles split 6 + 2.
    /// The 4×4 default: its tables build in about 30 s once (57,657,600 + 5,765,760 + 240
    /// entries, 61 MB), and with reflection it needs 11× fewer IDA* nodes than 6-6-3 on the
    /// hardest seed15 board (`BENCHMARKS.md`, "15-puzzle out of the box").
    P762,
    /// The Korf & Felner (2002) 6-6-3 partition (4×4 only).
    P663,
    /// The Korf & Felner (2002) 5-5-5 partition (4×4 only).
    P555,
    /// The Felner, Korf & Hanan (2004) 7-8 partition (4×4 only).
    P78,
    /// The Korf & Felner (2002) 6-6-6-6 partition of the 24-puzzle (5×5 only): four tables of
    /// 127,512,000 one-byte entries (121.6 MiB each).
    P6666,
    /// Explicit groups of tile numbers.
    Custom(Vec<Vec<u8>>),
}

/// Cells (in the blank-first 4×4 goal, blank on cell 0) of the built-in groups. For another goal
/// whose blank is on a corner, the cells are mapped by the symmetry of the square that takes
/// cell 0 to that corner, and the groups are the tiles on those goal cells.
const P663_CELLS: [&[u8]; 3] = [&[4, 5, 8, 9, 12, 13], &[6, 7, 10, 11, 14, 15], &[1, 2, 3]];
const P555_CELLS: [&[u8]; 3] = [&[1, 2, 3, 6, 7], &[4, 5, 8, 9, 12], &[10, 11, 13, 14, 15]];
const P78_CELLS: [&[u8]; 2] = [&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]];
/// 7-6-2: 7-8's first group (so its table serves both), then 7-8's second group split into the
/// six cells farthest from the blank and the two next to the first group.
const P762_CELLS: [&[u8]; 3] = [&[1, 2, 3, 4, 5, 6, 7], &[10, 11, 12, 13, 14, 15], &[8, 9]];
/// Cells (in the blank-first 5×5 goal) of the 6-6-6-6 groups, Korf & Felner (2002), figure 3:
/// the top-left, top-right, bottom-left and bottom-right blocks around the centre cell 12.
const P6666_CELLS: [&[u8]; 4] = [
    &[1, 2, 5, 6, 7, 12],
    &[3, 4, 8, 9, 13, 14],
    &[10, 11, 15, 16, 20, 21],
    &[17, 18, 19, 22, 23, 24],
];

impl PartitionSpec {
    /// A short name: `default`, `762`, `663`, `555`, `78`, `6666`, or the groups as `1,2,3/4,5,6`.
    pub fn name(&self) -> String {
        match self {
            PartitionSpec::Default => "default".into(),
            PartitionSpec::P762 => "762".into(),
            PartitionSpec::P663 => "663".into(),
            PartitionSpec::P555 => "555".into(),
            PartitionSpec::P78 => "78".into(),
            PartitionSpec::P6666 => "6666".into(),
            PartitionSpec::Custom(groups) => format_groups(groups),
        }
    }

    /// The groups (tile numbers, each group sorted ascending) for `goal`.
    ///
    /// Built-in 4×4 partitions follow Korf & Felner (2002) and Felner, Korf & Hanan (2004) for
    /// the blank-first goal (7-8: tiles 1–7 and 8–15; 6-6-3: the left and right halves of the
    /// bottom three rows and the top row's three tiles; 5-5-5: {1,2,3,6,7}, {4,5,8,9,12},
    /// {10,11,13,14,15}); 7-6-2 (the 4×4 default) is 7-8 with its 8-tile group split into
    /// {10,...,15} and {8,9}, chosen by measurement among 6-6-3, 5-5-5, 7-7-1, three 7-6-2
    /// splits and maxima of two or three 6-6-3 partitions (`BENCHMARKS.md`). The built-in 5×5
    /// partition 6-6-6-6 follows Korf & Felner (2002) for the blank-first goal: {1,2,5,6,7,12},
    /// {3,4,8,9,13,14}, {10,11,15,16,20,21}, {17,18,19,22,23,24}. For a goal whose blank is on
    /// another corner the same cell shapes are mirrored to that corner (blank-last, the square
    /// turned by 180°: 7-8 = tiles 1–8 and 9–15; 6-6-6-6 = {13,18,19,20,23,24},
    /// {11,12,16,17,21,22}, {4,5,9,10,14,15}, {1,2,3,6,7,8}); for a blank elsewhere they are used
    /// as cells of the row-major order unchanged. The default is 7-6-2 on 4×4, 6-6-6-6 on 5×5;
    /// on other shapes of at most 25 cells it splits the goal's tiles in row-major goal order into
    /// `⌈(N-1)/6⌉` groups of near-equal size (3×3: 4-4; 3×4: 6-5; 2×4: 4-3); above 25 cells into
    /// `⌈(N-1)/s⌉` compact groups of near-equal size, `s` = 5 up to 36 cells and 4 above
    /// ([`large_group_size`]), taking the goal's cells in bands of two rows, column by column
    /// (6×6: seven 5-tile groups; 7×7: twelve 4-tile groups, mostly 2×2 blocks).
    ///
    /// # Errors
    /// [`PdbError::BadPartition`] for a named 4×4 or 5×5 partition on another shape, or a custom one
    /// whose tiles repeat, are 0 or are not on the board, or with an empty group.
    pub fn resolve(&self, goal: &Goal) -> Result<Vec<Vec<u8>>, PdbError> {
        let shape = goal.shape();
        let square = |n: usize| shape.width() == n && shape.height() == n;
        let (cells, side): (&[&[u8]], usize) = match self {
            PartitionSpec::Custom(groups) => {
                let mut seen = vec![false; shape.cells()];
                for g in groups {
                    check_group(g, shape.cells())?;
                    for &t in g {
                        if std::mem::replace(&mut seen[t as usize], true) {
                            return Err(PdbError::BadPartition(format!(
                                "tile {t} is in two groups of {}",
                                format_groups(groups)
                            )));
                        }
                    }
                }
                return Ok(groups.iter().cloned().map(sorted).collect());
            }
            PartitionSpec::Default if square(5) => (&P6666_CELLS, 5),
            PartitionSpec::Default if !square(4) => return Ok(row_major(goal)),
            PartitionSpec::Default | PartitionSpec::P762 => (&P762_CELLS, 4),
            PartitionSpec::P663 => (&P663_CELLS, 4),
            PartitionSpec::P555 => (&P555_CELLS, 4),
            PartitionSpec::P78 => (&P78_CELLS, 4),
            PartitionSpec::P6666 => (&P6666_CELLS, 5),
        };
        if !square(side) {
            return Err(PdbError::BadPartition(format!(
                "the {} partition is defined for {side}x{side} boards, not {shape}; give the \
                 groups explicitly (--pdb 1,2,3/4,5,6,...) or use the default",
                self.name()
            )));
        }
        let map = corner_map(shape, goal.cell_of(0));
        Ok(cells
            .iter()
            .map(|g| {
                let mut tiles: Vec<u8> = g
                    .iter()
                    .map(|&c| goal.layout().tile(map(c as usize)) as u8)
                    .collect();
                tiles.sort_unstable();
                tiles
            })
            .collect())
    }
}

/// The symmetry of the square taking cell 0 to the corner `blank` (identity if `blank` is not
/// a corner).
fn corner_map(shape: Shape, blank: usize) -> impl Fn(usize) -> usize {
    let w = shape.width();
    let h = shape.height();
    let (br, bc) = (blank / w, blank % w);
    let flip_r = br == h - 1 && (bc == 0 || bc == w - 1);
    let flip_c = bc == w - 1 && (br == 0 || br == h - 1);
    move |c| {
        let (r, col) = (c / w, c % w);
        let r = if flip_r { h - 1 - r } else { r };
        let col = if flip_c { w - 1 - col } else { col };
        r * w + col
    }
}

/// Boards of more than this many cells get the banded default partition ([`banded`]) with
/// groups of [`large_group_size`] tiles; smaller ones the row-major one with groups of 6.
pub(crate) const ROW_MAJOR_MAX_CELLS: usize = 25;

/// The tiles per group of the default partition on a board of more than
/// 25 cells (`ROW_MAJOR_MAX_CELLS`): 5 up to 36 cells (6×6: 7 tables of 45,239,040 entries, 302
/// MiB, minutes to build), 4 above (7×7: 12 tables of 5,085,024 entries, 58 MiB, half a minute;
/// 5-tile groups there would need 228,826,080 entries a table, 2.1 GB in all and ten times the
/// build time: BENCHMARKS.md, "Pattern databases on 6×6 and 7×7").
pub fn large_group_size(cells: usize) -> usize {
    if cells <= 36 { 5 } else { 4 }
}

/// The default partition for shapes other than 4×4 and 5×5: row-major groups of 6 up to
/// [`ROW_MAJOR_MAX_CELLS`] cells, banded groups above.
fn row_major(goal: &Goal) -> Vec<Vec<u8>> {
    let cells = goal.shape().cells();
    if cells > ROW_MAJOR_MAX_CELLS {
        return banded(goal, large_group_size(cells));
    }
    let tiles: Vec<u8> = goal
        .layout()
        .cells()
        .iter()
        .filter(|&&t| t != 0)
        .map(|&t| t as u8)
        .collect();
    near_equal(&tiles, 6)
}

/// Compact groups of about `size` tiles: the goal's cells in bands of two rows, each band
/// column by column (top cell, then bottom), cut into `⌈(N-1)/size⌉` runs of near-equal length,
/// so that most groups are 2 × `size/2` blocks whose tiles interact in both directions.
fn banded(goal: &Goal, size: usize) -> Vec<Vec<u8>> {
    let shape = goal.shape();
    let w = shape.width();
    let mut order: Vec<usize> = (0..shape.cells()).collect();
    order.sort_by_key(|&c| (c / w / 2, c % w, c / w));
    let tiles: Vec<u8> = order
        .into_iter()
        .map(|c| goal.layout().tile(c) as u8)
        .filter(|&t| t != 0)
        .collect();
    near_equal(&tiles, size)
}

/// `tiles` cut in order into `⌈len/size⌉` runs of near-equal length, each sorted.
fn near_equal(tiles: &[u8], size: usize) -> Vec<Vec<u8>> {
    let groups = tiles.len().div_ceil(size).max(1);
    let (base, extra) = (tiles.len() / groups, tiles.len() % groups);
    let mut out = Vec::new();
    let mut at = 0;
    for g in 0..groups {
        let len = base + usize::from(g < extra);
        out.push(sorted(tiles[at..at + len].to_vec()));
        at += len;
    }
    out
}

/// `tiles` in ascending order.
fn sorted(mut tiles: Vec<u8>) -> Vec<u8> {
    tiles.sort_unstable();
    tiles
}

/// Checks one group: non-empty, tiles in `1..n`, no repeats.
///
/// # Errors
/// [`PdbError::BadGroup`] naming the problem.
pub(crate) fn check_group(tiles: &[u8], n: usize) -> Result<(), PdbError> {
    if tiles.is_empty() {
        return Err(PdbError::BadGroup("a group is empty".into()));
    }
    if tiles.len() >= n {
        return Err(PdbError::BadGroup(format!(
            "a group of {} tiles leaves no free cell on a board of {n} cells",
            tiles.len()
        )));
    }
    let mut seen = 0u64;
    for &t in tiles {
        if t == 0 {
            return Err(PdbError::BadGroup(
                "tile 0 is the blank and cannot be in a group".into(),
            ));
        }
        if usize::from(t) >= n {
            return Err(PdbError::BadGroup(format!(
                "tile {t} is not on a board of {n} cells (tiles are 1..{})",
                n - 1
            )));
        }
        if seen & (1 << t) != 0 {
            return Err(PdbError::BadGroup(format!("tile {t} repeats in a group")));
        }
        seen |= 1 << t;
    }
    Ok(())
}

/// `1,2,3/4,5,6`.
pub fn format_groups(groups: &[Vec<u8>]) -> String {
    groups
        .iter()
        .map(|g| g.iter().map(u8::to_string).collect::<Vec<_>>().join(","))
        .collect::<Vec<_>>()
        .join("/")
}

impl fmt::Display for PartitionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for PartitionSpec {
    type Err = PdbError;

    /// `default`, `762` (or `7-6-2`), `663` (or `6-6-3`), `555`, `78`, `6666` (or `6-6-6-6`), or
    /// groups of tile numbers separated by `/`
    /// with tiles separated by `,` (whitespace ignored). Tiles are checked against a board only
    /// in [`PartitionSpec::resolve`].
    fn from_str(s: &str) -> Result<PartitionSpec, PdbError> {
        let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        match t.as_str() {
            "default" => return Ok(PartitionSpec::Default),
            "762" | "7-6-2" => return Ok(PartitionSpec::P762),
            "663" | "6-6-3" => return Ok(PartitionSpec::P663),
            "555" | "5-5-5" => return Ok(PartitionSpec::P555),
            "78" | "7-8" => return Ok(PartitionSpec::P78),
            "6666" | "6-6-6-6" => return Ok(PartitionSpec::P6666),
            _ => {}
        }
        if !t.contains(',') && !t.contains('/') {
            return Err(PdbError::BadPartition(format!(
                "unknown partition {s:?}: expected 762, 663, 555, 78, 6666, default, or groups such as \
                 1,2,3/4,5,6"
            )));
        }
        let tile = |x: &str| {
            x.parse().map_err(|_| {
                PdbError::BadPartition(format!("{x:?} in partition {s:?} is not a tile number"))
            })
        };
        let group = |g: &str| g.split(',').map(tile).collect::<Result<Vec<u8>, _>>();
        let groups = t.split('/').map(group).collect::<Result<_, _>>()?;
        Ok(PartitionSpec::Custom(groups))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::Goal;

    fn s(n: usize) -> Shape {
        Shape::square(n).unwrap()
    }

    #[test]
    fn built_in_partitions_for_both_goals() {
        let bf = Goal::blank_first(s(4));
        assert_eq!(
            PartitionSpec::P78.resolve(&bf).unwrap(),
            vec![
                vec![1, 2, 3, 4, 5, 6, 7],
                vec![8, 9, 10, 11, 12, 13, 14, 15]
            ]
        );
        let bl = Goal::blank_last(s(4));
        assert_eq!(
            PartitionSpec::P78.resolve(&bl).unwrap(),
            vec![
                vec![9, 10, 11, 12, 13, 14, 15],
                vec![1, 2, 3, 4, 5, 6, 7, 8]
            ]
        );
        assert_eq!(PartitionSpec::P663.resolve(&bf).unwrap()[2], vec![1, 2, 3]);
        // The 4×4 default is 7-6-2, sharing its 7-tile table with 7-8 for both goals.
        for (goal, seven) in [(&bf, vec![1, 2, 3, 4, 5, 6, 7]), (&bl, (9..16).collect())] {
            let g = PartitionSpec::Default.resolve(goal).unwrap();
            assert_eq!(g, PartitionSpec::P762.resolve(goal).unwrap());
            assert_eq!(g[0], seven);
            assert_eq!(g[0], PartitionSpec::P78.resolve(goal).unwrap()[0]);
        }
        assert_eq!(
            PartitionSpec::P762.resolve(&bl).unwrap(),
            vec![(9..16).collect(), vec![1, 2, 3, 4, 5, 6], vec![7, 8]]
        );
        assert_eq!(
            PartitionSpec::P762.resolve(&bf).unwrap()[1..],
            [vec![10, 11, 12, 13, 14, 15], vec![8, 9]]
        );
        for spec in [
            PartitionSpec::P762,
            PartitionSpec::P663,
            PartitionSpec::P555,
            PartitionSpec::P78,
        ] {
            for goal in [&bf, &bl] {
                let mut all: Vec<u8> = spec.resolve(goal).unwrap().concat();
                all.sort_unstable();
                assert_eq!(all, (1..16).collect::<Vec<u8>>());
            }
        }
    }

    #[test]
    fn korf_6666_for_the_corner_goals() {
        let bf = Goal::blank_first(s(5));
        let korf = vec![
            vec![1, 2, 5, 6, 7, 12],
            vec![3, 4, 8, 9, 13, 14],
            vec![10, 11, 15, 16, 20, 21],
            vec![17, 18, 19, 22, 23, 24],
        ];
        assert_eq!(PartitionSpec::P6666.resolve(&bf).unwrap(), korf);
        // The default on 5×5 is 6-6-6-6.
        assert_eq!(PartitionSpec::Default.resolve(&bf).unwrap(), korf);
        // Blank-last: the same cell shapes turned by 180° (cell c → 24 − c), tile = cell + 1.
        let bl = Goal::blank_last(s(5));
        assert_eq!(
            PartitionSpec::P6666.resolve(&bl).unwrap(),
            vec![
                vec![13, 18, 19, 20, 23, 24],
                vec![11, 12, 16, 17, 21, 22],
                vec![4, 5, 9, 10, 14, 15],
                vec![1, 2, 3, 6, 7, 8],
            ]
        );
        // A custom goal with the blank on the top-right corner: mirrored left-right.
        let mut cells: Vec<usize> = (1..25).collect();
        cells.insert(4, 0);
        let tr = Goal::custom(npuzzle_core::Layout::new(s(5), &cells).unwrap());
        let groups = PartitionSpec::P6666.resolve(&tr).unwrap();
        // Cells 3, 2, 9, 8, 7, 12 hold tiles 4, 3, 9, 8, 7, 12.
        assert_eq!(groups[0], vec![3, 4, 7, 8, 9, 12]);
        for goal in [&bf, &bl, &tr] {
            let groups = PartitionSpec::P6666.resolve(goal).unwrap();
            assert!(groups.iter().all(|g| g.len() == 6));
            let mut all: Vec<u8> = groups.concat();
            all.sort_unstable();
            assert_eq!(all, (1..25).collect::<Vec<u8>>());
        }
        for bad in [s(4), s(6), Shape::new(5, 4).unwrap()] {
            let e = PartitionSpec::P6666.resolve(&Goal::blank_first(bad));
            assert!(
                matches!(e, Err(PdbError::BadPartition(ref m)) if m.contains("5x5")),
                "{e:?}"
            );
        }
        assert_eq!(
            "6666".parse::<PartitionSpec>().unwrap(),
            PartitionSpec::P6666
        );
        assert_eq!(
            "6-6-6-6".parse::<PartitionSpec>().unwrap(),
            PartitionSpec::P6666
        );
        assert_eq!(PartitionSpec::P6666.name(), "6666");
    }

    #[test]
    fn defaults_on_large_boards() {
        let g = PartitionSpec::Default
            .resolve(&Goal::blank_last(s(7)))
            .unwrap();
        assert_eq!(g.len(), 12);
        assert!(g.iter().all(|g| g.len() == 4));
        // Bands of two rows, column by column: 2×2 blocks, the first ones {1,2,8,9}, {3,4,10,11}.
        assert_eq!(g[0], vec![1, 2, 8, 9]);
        assert_eq!(g[1], vec![3, 4, 10, 11]);
        // The last row is a band of its own: tiles 43..48 (the blank's cell left out).
        assert_eq!(g[11], vec![45, 46, 47, 48]);
        let g = PartitionSpec::Default
            .resolve(&Goal::blank_last(s(6)))
            .unwrap();
        assert_eq!(g.len(), 7);
        assert!(g.iter().all(|g| g.len() == 5));
        assert_eq!(g.concat().len(), 35);
        let g = PartitionSpec::Default
            .resolve(&Goal::blank_first(Shape::new(5, 6).unwrap()))
            .unwrap();
        assert_eq!((g.len(), g.concat().len()), (6, 29));
    }

    #[test]
    fn defaults_on_small_boards() {
        let g = PartitionSpec::Default
            .resolve(&Goal::blank_last(s(3)))
            .unwrap();
        assert_eq!(g, vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
        let g = PartitionSpec::Default
            .resolve(&Goal::blank_first(Shape::new(4, 3).unwrap()))
            .unwrap();
        assert_eq!(g, vec![vec![1, 2, 3, 4, 5, 6], vec![7, 8, 9, 10, 11]]);
        assert!(
            PartitionSpec::P663
                .resolve(&Goal::blank_last(s(3)))
                .is_err()
        );
    }

    #[test]
    fn parsing_and_validation() {
        let p: PartitionSpec = "1,2,3/4, 5".parse().unwrap();
        assert_eq!(p, PartitionSpec::Custom(vec![vec![1, 2, 3], vec![4, 5]]));
        assert_eq!(p.name(), "1,2,3/4,5");
        assert!("7-8".parse::<PartitionSpec>().unwrap() == PartitionSpec::P78);
        assert_eq!("762".parse::<PartitionSpec>().unwrap(), PartitionSpec::P762);
        assert_eq!(PartitionSpec::P762.name(), "762");
        assert!("abc".parse::<PartitionSpec>().is_err());
        assert!("1,x".parse::<PartitionSpec>().is_err());
        let goal = Goal::blank_last(s(3));
        for bad in ["1,2/2,3", "0,1", "1,9", "1,2,3,4,5,6,7,8,8", "1,2/"] {
            let p: Result<PartitionSpec, _> = bad.parse();
            assert!(
                p.is_err() || p.unwrap().resolve(&goal).is_err(),
                "{bad} accepted"
            );
        }
    }
}
