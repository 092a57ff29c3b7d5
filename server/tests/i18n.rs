//! The web client's two languages (web-client/i18n.js): the catalogs web-client/i18n/en.json and
//! web-client/i18n/zh-CN.json hold the same keys; every key the client's code uses is in them and
//! every key in them is used; every refusal code the server can send has a sentence in both; and
//! the Chinese catalog is Chinese. Pure Rust, no browser: the files are read from the source tree.
//!
//! Key conventions (web-client/i18n.js says the same): a literal `t('key')` or `t("key")` uses a
//! key; static HTML names keys in `data-i18n`, `data-i18n-placeholder`, `data-i18n-aria-label`
//! and `data-i18n-title`; a key chosen at run time is written either as a quoted literal somewhere in
//! the code (`t(mine ? 'a.b' : 'a.c')`) or as `` t(`prefix.${...}`) `` with a prefix in
//! [`DYNAMIC_PREFIXES`]. Plural forms are i18next's: `key_one`/`key_other` (and
//! `key_ordinal_one`/`_two`/`_few`/`_other`) in English, `key_other` (`key_ordinal_other`) in
//! Chinese, which has one form.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use skirmish_protocol::ErrorCode;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Keys built at run time, by prefix: each is followed by a value the code names as it runs.
const DYNAMIC_PREFIXES: &[&str] = &[
    // A server refusal's stable code (i18n.js, `refusal`): checked against the server's codes below.
    "error.",
    // A gomoku opening's name (`openingLabel`) and its kind (direct, indirect).
    "opening.",
    // A junqi rank (`rankLabels`, `layoutProblems`).
    "rank.",
    // A junqi post's kind letter: S, R, C, H (`postLabel`).
    "junqi.post.",
    // A colour: black, white, red, blue.
    "colour.",
    // A plane battle variant, shot result, cell state, facing and readiness badge.
    "plane.variant.",
    "plane.result.",
    "plane.cell.",
    "plane.badge_",
    "facing.",
    // A gomoku rule set: its name and its note.
    "gomoku.rule.",
    "gomoku.rule_note.",
    // A tournament's state and game in the lobby's list.
    "tournament.state.",
    "tournament.game.",
    // The tournament page's settings, standings columns (name and explanation) and match states.
    "tournament.setting.",
    "tournament.col.",
    "tournament.col_title.",
    "tournament.match_state.",
    // How a match ended (`End::kind`, dom.js `endText`) and why a seat forfeited.
    "end.",
    "forfeit.",
    // A page module's game in the create-room form (games.js: lobby.js lists each).
    "create.game_",
    // The rules page's link and section anchor per game (`rulesHref`, `rulesLink`).
    "rules.link.",
    "rules.anchor.",
    // A bot's level: easy, medium, hard (bot_levels.js).
    "bots.level.",
];

/// Words a Chinese value may hold in ASCII letters: the product's name, the names of keys and
/// standards players type or read as they are.
const ZH_ASCII_ALLOWED: &[&str] = &[
    "Skirmish", "SHA", "https", "Ctrl", "C", "R", "a", "Bradley", "Terry",
];

/// The plural suffixes i18next appends, longest first.
const PLURAL_SUFFIXES: &[&str] = &[
    "_ordinal_one",
    "_ordinal_two",
    "_ordinal_few",
    "_ordinal_many",
    "_ordinal_zero",
    "_ordinal_other",
    "_zero",
    "_one",
    "_two",
    "_few",
    "_many",
    "_other",
];

/// The plural forms each language needs, by Intl.PluralRules: cardinal and ordinal categories.
fn forms(lang: &str, ordinal: bool) -> BTreeSet<&'static str> {
    match (lang, ordinal) {
        ("en", false) => ["_one", "_other"].into(),
        ("en", true) => ["_ordinal_one", "_ordinal_two", "_ordinal_few", "_ordinal_other"].into(),
        (_, false) => ["_other"].into(),
        (_, true) => ["_ordinal_other"].into(),
    }
}

fn catalog(lang: &str) -> BTreeMap<String, String> {
    let path = root().join(format!("web-client/i18n/{lang}.json"));
    serde_json::from_str(&read(&path))
        .unwrap_or_else(|e| panic!("{} is not a flat map of strings: {e}", path.display()))
}

/// A catalog's keys by base key (plural suffixes removed), each with the suffixes it has.
fn bases(cat: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<&'static str>> {
    let mut out: BTreeMap<String, BTreeSet<&'static str>> = BTreeMap::new();
    for key in cat.keys() {
        match PLURAL_SUFFIXES.iter().find(|s| key.ends_with(*s)) {
            Some(suffix) => {
                out.entry(key[..key.len() - suffix.len()].to_owned())
                    .or_default()
                    .insert(suffix);
            }
            None => {
                out.entry(key.clone()).or_default();
            }
        }
    }
    out
}

/// The client's own modules (vendor/ excluded) and pages: (path, text).
fn client_files(ext: &str) -> Vec<(PathBuf, String)> {
    let dir = root().join("web-client");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("web-client/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files.into_iter().map(|p| (p.clone(), read(&p))).collect()
}

/// Every string literal (single- or double-quoted, on one line) in JavaScript source.
fn literals(js: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in js.lines() {
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c == '/' && line[i..].starts_with("//") {
                break;
            }
            if c == '\'' || c == '"' {
                let start = i + 1;
                let mut end = None;
                while let Some((j, d)) = chars.next() {
                    if d == '\\' {
                        chars.next();
                    } else if d == c {
                        end = Some(j);
                        break;
                    }
                }
                if let Some(end) = end {
                    out.insert(line[start..end].to_owned());
                }
            }
        }
    }
    out
}

/// What follows each `t(` call (not `xt(`) in `js`: the text up to the end of the line.
fn t_calls(js: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = js[from..].find("t(") {
        let i = from + at;
        let before = js[..i].chars().next_back();
        let line = js[js[..i].rfind('\n').map_or(0, |n| n + 1)..i].trim_start();
        let comment = line.starts_with("//") || line.starts_with('*') || line.starts_with("/*");
        if !comment && !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '$') {
            let rest = &js[i + 2..];
            out.push(&rest[..rest.find('\n').unwrap_or(rest.len())]);
        }
        from = i + 2;
    }
    out
}

/// The keys the HTML pages name in their data-i18n* attributes.
fn html_keys() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (_, html) in client_files("html") {
        for attr in [
            "data-i18n=\"",
            "data-i18n-placeholder=\"",
            "data-i18n-aria-label=\"",
            "data-i18n-title=\"",
        ] {
            for (i, _) in html.match_indices(attr) {
                let rest = &html[i + attr.len()..];
                out.insert(rest[..rest.find('"').expect("a closed attribute")].to_owned());
            }
        }
    }
    out
}

#[test]
fn both_catalogs_have_the_same_keys_with_each_languages_plural_forms() {
    let en = bases(&catalog("en"));
    let zh = bases(&catalog("zh-CN"));
    let only_en: Vec<_> = en.keys().filter(|k| !zh.contains_key(*k)).collect();
    let only_zh: Vec<_> = zh.keys().filter(|k| !en.contains_key(*k)).collect();
    assert!(
        only_en.is_empty() && only_zh.is_empty(),
        "only in en.json: {only_en:?}; only in zh-CN.json: {only_zh:?}"
    );
    for (key, en_forms) in &en {
        let plural = !en_forms.is_empty();
        let ordinal = en_forms.iter().any(|s| s.starts_with("_ordinal"));
        for (lang, have) in [("en", en_forms), ("zh-CN", &zh[key])] {
            let want = if plural {
                forms(lang, ordinal)
            } else {
                BTreeSet::new()
            };
            assert_eq!(
                have, &want,
                "{lang}: `{key}` has plural forms {have:?}, wants {want:?}"
            );
        }
    }
}

#[test]
fn every_key_the_client_uses_is_in_the_catalogs_and_every_key_is_used() {
    let en = bases(&catalog("en"));
    let mut used_literally = BTreeSet::new();
    let mut all_literals = BTreeSet::new();
    let mut problems = Vec::new();
    for (path, js) in client_files("js") {
        all_literals.extend(literals(&js));
        for call in t_calls(&js) {
            let name = path.file_name().unwrap().to_string_lossy();
            match call.chars().next() {
                Some(q @ ('\'' | '"')) => {
                    let key = &call[1..call[1..].find(q).map_or(0, |n| n + 1)];
                    if !en.contains_key(key) {
                        problems.push(format!("{name}: t('{key}') is in no catalog"));
                    }
                    used_literally.insert(key.to_owned());
                }
                Some('`') => {
                    let prefix = &call[1..call.find("${").unwrap_or(1)];
                    if !DYNAMIC_PREFIXES.contains(&prefix) {
                        problems.push(format!(
                            "{name}: t(`{prefix}${{...}}`) builds keys under a prefix not in DYNAMIC_PREFIXES"
                        ));
                    }
                }
                // `t(key, ...)`, `t(cond ? 'a' : 'b')`: keys passed in; their literals are checked as uses below.
                _ => {}
            }
        }
    }
    let html = html_keys();
    for key in &html {
        if !en.contains_key(key) {
            problems.push(format!("HTML: data-i18n key `{key}` is in no catalog"));
        }
    }
    for key in en.keys() {
        let used = all_literals.contains(key)
            || html.contains(key)
            || DYNAMIC_PREFIXES.iter().any(|p| key.starts_with(p));
        if !used {
            problems.push(format!("`{key}` is in the catalogs but no page uses it"));
        }
    }
    assert!(
        !used_literally.is_empty(),
        "no t('...') call found: the scan is broken"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every refusal code the server can send: the protocol's own, over the WebSocket and HTTP
/// ([`ErrorCode::ALL`]), and each engine's rule errors (every `fn code` in games/src).
fn server_codes() -> BTreeSet<String> {
    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a source folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let snake = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c == '_');
    let mut codes: BTreeSet<String> = ErrorCode::ALL.iter().map(|c| c.as_str().to_owned()).collect();
    let mut files = Vec::new();
    rust_files(&root().join("games/src"), &mut files);
    for path in files {
        let text = read(&path);
        for (start, _) in text.match_indices("fn code(&self)") {
            let body = &text[start..];
            let body = &body[..body.find("\n    }\n").unwrap_or(body.len())];
            for part in body.split("=> \"").skip(1) {
                let code = &part[..part.find('"').unwrap_or(0)];
                if snake(code) {
                    codes.insert(code.to_owned());
                }
            }
        }
    }
    codes
}

#[test]
fn every_refusal_code_has_a_sentence_in_both_languages() {
    let codes = server_codes();
    // The scan found the codes it should (one of each source), or it is broken.
    for known in [
        "room_full",
        "cell_public",
        "forbidden_point",
        "railway_turn",
        "no_such_tournament",
        "no_such_match",
    ] {
        assert!(
            codes.contains(known),
            "the scan of the server's codes missed `{known}`: {codes:?}"
        );
    }
    for lang in ["en", "zh-CN"] {
        let cat = catalog(lang);
        let missing: Vec<_> = codes
            .iter()
            .filter(|c| !cat.contains_key(&format!("error.{c}")))
            .collect();
        assert!(
            missing.is_empty(),
            "{lang}.json has no sentence for the server's codes {missing:?}"
        );
    }
    // And no sentence for a code the server does not send, but the client's own `disconnected`
    // (net.js, a lost connection).
    let stale: Vec<_> = catalog("en")
        .keys()
        .filter_map(|k| k.strip_prefix("error."))
        .filter(|c| !codes.contains(*c) && *c != "disconnected")
        .map(str::to_owned)
        .collect();
    assert!(
        stale.is_empty(),
        "sentences for codes the server does not send: {stale:?}"
    );
}

#[test]
fn the_chinese_catalog_holds_no_english() {
    let mut problems = Vec::new();
    for (key, value) in catalog("zh-CN") {
        // {{placeholders}} are filled in by the page.
        let mut text = String::new();
        let mut rest = value.as_str();
        while let Some(open) = rest.find("{{") {
            text.push_str(&rest[..open]);
            rest = rest[open..]
                .find("}}")
                .map_or("", |close| &rest[open + close + 2..]);
        }
        text.push_str(rest);
        for word in text
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| !w.is_empty())
        {
            if !ZH_ASCII_ALLOWED.contains(&word) {
                problems.push(format!("{key}: `{word}` in {value:?}"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "English in zh-CN.json:\n{}",
        problems.join("\n")
    );
}
