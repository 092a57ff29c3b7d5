//! Named opening positions: the 26 standard renju openings and the seed paper's three formations
//! (docs/rules.md, gomoku, "Openings").

/// A named opening: stones in the order they are played, black first, on a 15x15 board (centred
/// on a larger one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedOpening {
    /// The name rooms and tournaments use: lowercase, such as `kansei` or `slanted-three`.
    pub name: &'static str,
    /// The traditional name (Japanese for renju openings, Chinese for the seed's formations).
    pub title: &'static str,
    /// The stones, alternately black and white, as points such as `h8`.
    pub moves: &'static [&'static str],
    /// Where the position comes from, and how balanced it is known to be.
    pub note: &'static str,
}

/// The 26 standard renju openings (RIF): black at the centre, white next to it directly (`h9`,
/// 13 "direct" openings) or diagonally (`i9`, 13 "indirect" ones), and black's third stone within
/// the central 5x5, named and assessed (under renju rules) as renju.net's opening page lists them.
pub const RENJU: [NamedOpening; 26] = [
    named("kansei", "寒星", &["h8", "h9", "h10"], "direct 1; black wins"),
    named("keigetsu", "渓月", &["h8", "h9", "i10"], "direct 2; black wins"),
    named(
        "sosei",
        "疎星",
        &["h8", "h9", "j10"],
        "direct 3; about equal, white slightly better",
    ),
    named("kagetsu", "花月", &["h8", "h9", "i9"], "direct 4; black wins"),
    named("zangetsu", "残月", &["h8", "h9", "j9"], "direct 5; black better"),
    named("ugetsu", "雨月", &["h8", "h9", "i8"], "direct 6; black wins"),
    named("kinsei", "金星", &["h8", "h9", "j8"], "direct 7; black wins"),
    named(
        "shogetsu",
        "松月",
        &["h8", "h9", "h7"],
        "direct 8; black slightly better",
    ),
    named(
        "kyugetsu",
        "丘月",
        &["h8", "h9", "i7"],
        "direct 9; black slightly better",
    ),
    named(
        "shingetsu",
        "新月",
        &["h8", "h9", "j7"],
        "direct 10; black better",
    ),
    named(
        "zuisei",
        "瑞星",
        &["h8", "h9", "h6"],
        "direct 11; about equal, black slightly better",
    ),
    named("sangetsu", "山月", &["h8", "h9", "i6"], "direct 12; black better"),
    named("yusei", "遊星", &["h8", "h9", "j6"], "direct 13; white wins"),
    named(
        "chosei",
        "長星",
        &["h8", "i9", "j10"],
        "indirect 1; about equal, white slightly better",
    ),
    named("kyogetsu", "峡月", &["h8", "i9", "j9"], "indirect 2; black wins"),
    named("kosei", "恒星", &["h8", "i9", "j8"], "indirect 3; black wins"),
    named("suigetsu", "水月", &["h8", "i9", "j7"], "indirect 4; black wins"),
    named(
        "ryusei",
        "流星",
        &["h8", "i9", "j6"],
        "indirect 5; white slightly better",
    ),
    named("ungetsu", "雲月", &["h8", "i9", "i8"], "indirect 6; black wins"),
    named("hogetsu", "浦月", &["h8", "i9", "i7"], "indirect 7; black wins"),
    named("rangetsu", "嵐月", &["h8", "i9", "i6"], "indirect 8; black wins"),
    named(
        "gingetsu",
        "銀月",
        &["h8", "i9", "h7"],
        "indirect 9; black better",
    ),
    named("myojo", "明星", &["h8", "i9", "h6"], "indirect 10; black wins"),
    named(
        "shagetsu",
        "斜月",
        &["h8", "i9", "g7"],
        "indirect 11; black slightly better",
    ),
    named(
        "meigetsu",
        "名月",
        &["h8", "i9", "g6"],
        "indirect 12; black better",
    ),
    named("suisei", "彗星", &["h8", "i9", "f6"], "indirect 13; white wins"),
];

/// The seed paper's three formations (seed 001: 斜三阵, 四角阵, 梅花阵), for black to win from with
/// white to move, on a freestyle board. The paper's figures did not survive in its text, so these
/// positions are rebuilt from the formations' names: black's shape (three on a diagonal; four in a
/// square; four around an empty heart like a plum blossom) with white's stones where a defender
/// would have put them.
pub const SEED: [NamedOpening; 3] = [
    named(
        "slanted-three",
        "斜三阵",
        &["h8", "i9", "i7", "h9", "j6"],
        "seed 001; black's three on a diagonal (h8 i7 j6), white to move",
    ),
    named(
        "square",
        "四角阵",
        &["h8", "g9", "i8", "j9", "h7", "g6", "i7"],
        "seed 001; black's four in a square (h8 i8 h7 i7), white to move",
    ),
    named(
        "plum-blossom",
        "梅花阵",
        &["h9", "h8", "g8", "g10", "i8", "j6", "h7"],
        "seed 001; black's four around white's h8 (white's others, g10 and j6, on no common line), white to move; the paper reports no forced black win",
    ),
];

/// Every named opening: [`RENJU`] then [`SEED`].
pub fn all() -> impl Iterator<Item = &'static NamedOpening> {
    RENJU.iter().chain(SEED.iter())
}

/// The named opening called `name` (lowercase, as in [`NamedOpening::name`]).
pub fn named_opening(name: &str) -> Option<&'static NamedOpening> {
    all().find(|o| o.name == name)
}

const fn named(
    name: &'static str,
    title: &'static str,
    moves: &'static [&'static str],
    note: &'static str,
) -> NamedOpening {
    NamedOpening {
        name,
        title,
        moves,
        note,
    }
}
