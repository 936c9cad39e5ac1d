//! Garbage input for the facade's goal parser (issue 13): random strings and token soups as
//! `--goal`, with and without a shape. Never a panic; an error is `Error::BadValue` naming the
//! text; an accepted custom goal is a valid board that reads back from its printed form. The
//! cargo-fuzz target `goal` runs the same checks for millions of inputs.

use npuzzle::{Error, parse_goal};
use npuzzle_core::{GoalKind, Shape, parse_board};
use proptest::prelude::*;

const TOKENS: &[&str] = &[
    "blank-last",
    "blank-first",
    "blank",
    "-",
    "last",
    "0",
    "1",
    "2",
    "3",
    "5",
    "8",
    "15",
    "16",
    "123456780",
    "123456789abcdef0",
    " ",
    ",",
    "\n",
    "#",
    "x",
    "é",
    "99999999999999999999",
];

fn goal_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(TOKENS), 0..20).prop_map(|v| v.concat()),
        ".{0,40}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn goals_never_panic(
        text in goal_text(),
        size in prop::option::of((2usize..=5, 2usize..=5).prop_map(|(w, h)| Shape::new(w, h).unwrap())),
    ) {
        match parse_goal(&text, size) {
            Ok(GoalKind::Custom(layout)) => {
                if let Some(s) = size {
                    prop_assert_eq!(layout.shape(), s);
                }
                prop_assert_eq!(parse_board(&layout.to_line(), Some(layout.shape())).unwrap(), layout);
            }
            Ok(kind) => prop_assert!(
                matches!(kind, GoalKind::BlankLast | GoalKind::BlankFirst)
                    && ["blank-last", "blank-first"].contains(&text.trim())
            ),
            Err(e) => {
                prop_assert!(
                    matches!(&e, Error::BadValue { setting: npuzzle::Setting::Goal, value, .. } if *value == text),
                    "{:?}", e
                );
                let msg = e.to_string();
                prop_assert!(msg.contains("bad goal") && msg.contains(&format!("{text:?}")), "{}", msg);
            }
        }
    }
}
