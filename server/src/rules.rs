//! The rules page, `GET /rules`: docs/rules.md (compiled into the program) rendered to HTML once,
//! with an `id` on every heading so that the web client can link to a game's section
//! (`/rules#1-plane-battle`, `/rules#2-gomoku`, `/rules#3-junqi`). `GET /rules?lang=zh-CN` is the
//! same page in Simplified Chinese, from docs/rules.zh-CN.md, its headings anchored the same way
//! (`/rules?lang=zh-CN#2-五子棋`); each page's header links to the other.

use std::sync::LazyLock;

use axum::extract::Query;
use axum::response::Html;
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use serde::Deserialize;

/// The rules as written: docs/rules.md in the source tree.
pub(crate) const RULES_MARKDOWN: &str = include_str!("../../docs/rules.md");

/// The rules in Simplified Chinese: docs/rules.zh-CN.md, a translation with the same sections.
pub(crate) const RULES_MARKDOWN_ZH: &str = include_str!("../../docs/rules.zh-CN.md");

/// A heading's anchor: its text in lower case, letters, digits and CJK kept, runs of anything
/// else as one `-` (GitHub's style for ASCII headings: "1. Plane battle" gives `1-plane-battle`).
pub(crate) fn anchor(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// docs/rules.md as an HTML fragment, every heading given the id [`anchor`] makes of its text
/// (a repeated anchor gets `-2`, `-3`, ... as GitHub does).
pub(crate) fn rules_html() -> String {
    markdown_html(RULES_MARKDOWN)
}

/// `markdown` as an HTML fragment, its headings anchored as [`rules_html`] says.
fn markdown_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let events: Vec<Event<'_>> = Parser::new_ext(markdown, options).collect();
    let mut seen = std::collections::HashMap::<String, usize>::new();
    let mut out: Vec<Event<'_>> = Vec::with_capacity(events.len());
    let mut i = 0;
    while i < events.len() {
        if let Event::Start(Tag::Heading { level, .. }) = &events[i] {
            let level: HeadingLevel = *level;
            let end = events[i..]
                .iter()
                .position(|e| matches!(e, Event::End(TagEnd::Heading(_))))
                .map_or(events.len(), |n| i + n);
            let text: String = events[i + 1..end]
                .iter()
                .filter_map(|e| match e {
                    Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                    _ => None,
                })
                .collect();
            let mut id = anchor(&text);
            let count = seen.entry(id.clone()).or_insert(0);
            *count += 1;
            if *count > 1 {
                id = format!("{id}-{count}");
            }
            out.push(Event::Start(Tag::Heading {
                level,
                id: Some(id.into()),
                classes: Vec::new(),
                attrs: Vec::new(),
            }));
            i += 1;
            continue;
        }
        out.push(events[i].clone());
        i += 1;
    }
    let mut html = String::with_capacity(markdown.len() * 2);
    pulldown_cmark::html::push_html(&mut html, out.into_iter());
    html
}

/// A whole rules page: `lang` its `<html lang>`, `title` and `lobby` its words, `switch` the
/// link to the other language's page (`href`, the other language's tag, its name in itself).
fn page_of(lang: &str, title: &str, lobby: &str, switch: (&str, &str, &str), body: &str) -> String {
    let (href, other, name) = switch;
    format!(
        r#"<!doctype html>
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title}</title>
  <link rel="stylesheet" href="/style.css">
</head>
<body>
  <header class="top">
    <a class="brand" href="/">Skirmish <span aria-hidden="true">✈</span></a>
    <a class="top-link" href="/">{lobby}</a>
    <a class="lang-switch" id="lang-switch" href="{href}" lang="{other}" hreflang="{other}" data-lang="{other}">{name}</a>
  </header>
  <main id="main" class="rules-page">
{body}
  </main>
</body>
</html>
"#
    )
}

/// The English rules page, made on first use.
static PAGE: LazyLock<String> = LazyLock::new(|| {
    page_of(
        "en",
        "Rules · Skirmish",
        "Lobby",
        ("/rules?lang=zh-CN", "zh-CN", "中文"),
        &rules_html(),
    )
});

/// The Chinese rules page, made on first use.
static PAGE_ZH: LazyLock<String> = LazyLock::new(|| {
    page_of(
        "zh-CN",
        "规则 · Skirmish",
        "大厅",
        ("/rules?lang=en", "en", "English"),
        &markdown_html(RULES_MARKDOWN_ZH),
    )
});

/// The query of `GET /rules`: `lang=zh-CN` asks for the Chinese page (any other value, or none,
/// for the English one).
#[derive(Debug, Deserialize)]
pub(crate) struct RulesQuery {
    /// A BCP 47 language tag; `zh-CN` (or any `zh*`) picks the Chinese page.
    lang: Option<String>,
}

/// `GET /rules`: the rules page, in English unless `?lang=zh-CN`.
pub(crate) async fn page(Query(query): Query<RulesQuery>) -> Html<&'static str> {
    let chinese = query
        .lang
        .is_some_and(|lang| lang.to_ascii_lowercase().starts_with("zh"));
    Html(if chinese { PAGE_ZH.as_str() } else { PAGE.as_str() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_githubs_for_the_sections() {
        assert_eq!(anchor("1. Plane battle"), "1-plane-battle");
        assert_eq!(anchor("Forbidden points (renju)"), "forbidden-points-renju");
        assert_eq!(anchor("The CAAI engine protocol"), "the-caai-engine-protocol");
    }

    #[test]
    fn the_page_has_every_game_and_the_sections_the_code_cites() {
        let html = rules_html();
        for id in [
            "1-plane-battle",
            "2-gomoku",
            "3-junqi",
            // Cited by name in docstrings and errors across the repository.
            "the-plane",
            "boards-and-counts",
            "deploy",
            "attack",
            "scoring",
            "alternative-match-format",
            "rule-sets",
            "forbidden-points-renju",
            "openings",
            "draw-offers-and-takebacks",
            "board",
            "pieces",
            "deployment",
            "moves",
            "combat",
            "what-the-referee-tells",
            "end-of-the-game",
            "the-caai-engine-protocol",
        ] {
            assert!(html.contains(&format!("id=\"{id}\"")), "no heading #{id}");
        }
        assert!(html.contains("<table>"), "tables are rendered");
        assert!(!html.contains("<script"), "the page carries no script");
    }

    #[test]
    fn both_pages_count_gomoku_rows_from_the_bottom_as_the_board_does() {
        // The board (web-client/gomoku.js) draws row 1 at the bottom and `a1` bottom left.
        let english = rules_html();
        assert!(english.contains("rows counted from 1 at the <strong>bottom</strong>"));
        assert!(english.contains("<code>a1</code> is the bottom-left point"));
        let chinese = markdown_html(RULES_MARKDOWN_ZH);
        assert!(chinese.contains("行从<strong>下往上</strong>从 1 数起"));
        assert!(chinese.contains("<code>a1</code> 是左下角"));
    }

    #[test]
    fn the_chinese_page_has_the_english_pages_sections() {
        let heads = |md: &str| -> Vec<usize> {
            md.lines()
                .filter(|l| l.starts_with('#'))
                .map(|l| l.chars().take_while(|&c| c == '#').count())
                .collect()
        };
        assert_eq!(
            heads(RULES_MARKDOWN),
            heads(RULES_MARKDOWN_ZH),
            "docs/rules.zh-CN.md has the same headings, in the same order and depth, as docs/rules.md"
        );
        let html = markdown_html(RULES_MARKDOWN_ZH);
        // The web client links here by these anchors (web-client/i18n/zh-CN.json, rules.anchor.*).
        for id in [
            "1-飞机大战",
            "2-五子棋",
            "3-军棋",
            "禁手-连珠",
            "求和与悔棋",
            "布阵",
        ] {
            assert!(html.contains(&format!("id=\"{id}\"")), "no heading #{id}");
        }
        assert!(PAGE_ZH.contains(r#"<html lang="zh-CN">"#));
        assert!(PAGE_ZH.contains(r#"href="/rules?lang=en""#));
        assert!(PAGE.contains(r#"href="/rules?lang=zh-CN""#));
    }
}
