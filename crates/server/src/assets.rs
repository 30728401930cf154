//! The front end and the source texts, embedded in the binary: plain HTML, CSS and JS with
//! no build step, and the seed texts with the rules of record for the rules panel.

use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A static file: its bytes and content type.
pub struct Asset {
    pub body: &'static [u8],
    pub content_type: &'static str,
}

/// The static files served under `/assets/`.
pub fn asset(name: &str) -> Option<Asset> {
    let (body, content_type): (&'static [u8], &'static str) = match name {
        "i18n.js" => (i18n_script(), "text/javascript; charset=utf-8"),
        "app.css" => (
            include_bytes!("../assets/app.css"),
            "text/css; charset=utf-8",
        ),
        "common.js" => (
            include_bytes!("../assets/common.js"),
            "text/javascript; charset=utf-8",
        ),
        "lobby.js" => (
            include_bytes!("../assets/lobby.js"),
            "text/javascript; charset=utf-8",
        ),
        "game.js" => (
            include_bytes!("../assets/game.js"),
            "text/javascript; charset=utf-8",
        ),
        "lab.js" => (
            include_bytes!("../assets/lab.js"),
            "text/javascript; charset=utf-8",
        ),
        "pieces.js" => (
            include_bytes!("../assets/pieces.js"),
            "text/javascript; charset=utf-8",
        ),
        "analysis.js" => (
            include_bytes!("../assets/analysis.js"),
            "text/javascript; charset=utf-8",
        ),
        "favicon.svg" => (include_bytes!("../assets/favicon.svg"), "image/svg+xml"),
        _ => return None,
    };
    Some(Asset { body, content_type })
}

/// The languages of the interface, each with its catalogue of the pages' texts
/// (`assets/i18n/LANG.json`: the same keys in each).
pub const LANGUAGES: &[(&str, &str)] = &[
    ("en", include_str!("../assets/i18n/en.json")),
    ("es", include_str!("../assets/i18n/es.json")),
];

/// The catalogue of `lang` (English for a language the interface does not have), read once.
pub fn catalogue(lang: &str) -> &'static BTreeMap<String, String> {
    static PARSED: OnceLock<Vec<(&'static str, BTreeMap<String, String>)>> = OnceLock::new();
    let parsed = PARSED.get_or_init(|| {
        LANGUAGES
            .iter()
            .map(|(l, text)| {
                let map = serde_json::from_str(text)
                    .unwrap_or_else(|e| panic!("i18n/{l}.json is not a catalogue: {e}"));
                (*l, map)
            })
            .collect()
    });
    let pick = |l: &str| parsed.iter().find(|(code, _)| *code == l);
    let (_, map) = pick(lang)
        .or_else(|| pick("en"))
        .expect("an English catalogue");
    map
}

/// The text of `key` in `lang`, as the pages' `t(key)` finds it: the language's, else
/// English, else the key itself.
pub fn text(lang: &str, key: &str) -> String {
    catalogue(lang)
        .get(key)
        .or_else(|| catalogue("en").get(key))
        .cloned()
        .unwrap_or_else(|| key.to_string())
}

/// The Lab's chart words in `lang`, from its catalogue: titles, legends and axes, and seat
/// names and end reasons in the games' own words (`seat.*`, `reason.*`).
pub fn chart_text(lang: &str) -> libro_lab::ChartText {
    let words = |prefix: &str| -> BTreeMap<String, String> {
        catalogue("en")
            .keys()
            .filter_map(|k| k.strip_prefix(prefix))
            .map(|w| (w.to_string(), text(lang, &format!("{prefix}{w}"))))
            .collect()
    };
    libro_lab::ChartText {
        outcomes: text(lang, "lab.chart.outcomes"),
        end_reasons: text(lang, "lab.chart.end-reasons"),
        durations: text(lang, "lab.chart.durations"),
        heatmap: text(lang, "lab.chart.heatmap"),
        wins: text(lang, "lab.svg.wins"),
        no_single_winner: text(lang, "lab.svg.no_single_winner"),
        share_axis: text(lang, "lab.svg.share_axis"),
        plies_axis: text(lang, "lab.svg.plies_axis"),
        reading: text(lang, "lab.svg.reading"),
        as_set: text(lang, "lab.as_set"),
        darkest: text(lang, "lab.svg.darkest"),
        cell: text(lang, "lab.svg.cell"),
        seats: words("seat."),
        reasons: words("reason."),
    }
}

/// `i18n.js` with the catalogues before it: `const CATALOGUES = {"en": {...}, ...}`.
fn i18n_script() -> &'static [u8] {
    static SCRIPT: OnceLock<String> = OnceLock::new();
    SCRIPT
        .get_or_init(|| {
            let catalogues: Vec<String> = LANGUAGES
                .iter()
                .map(|(lang, text)| format!("\"{lang}\": {text}"))
                .collect();
            format!(
                "const CATALOGUES = {{{}}};\n{}",
                catalogues.join(",\n"),
                include_str!("../assets/i18n.js")
            )
        })
        .as_bytes()
}

/// The language a page is shown in: the `libro-lang` cookie's, else the first of the
/// browser's Accept-Language (by its weights) that the interface has, else English.
pub fn language(cookie: Option<&str>, accept: Option<&str>) -> &'static str {
    let known = |tag: &str| {
        let primary = tag
            .split(['-', '_'])
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        LANGUAGES.iter().map(|(l, _)| *l).find(|l| *l == primary)
    };
    let chosen = cookie.and_then(|c| {
        c.split(';')
            .filter_map(|kv| kv.trim().strip_prefix("libro-lang="))
            .find_map(known)
    });
    if let Some(lang) = chosen {
        return lang;
    }
    let mut tags: Vec<(f32, &str)> = accept
        .unwrap_or("")
        .split(',')
        .filter_map(|item| {
            let mut parts = item.split(';');
            let tag = parts.next()?.trim();
            let q = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.parse::<f32>().ok())
                .unwrap_or(1.0);
            (!tag.is_empty() && q > 0.0).then_some((q, tag))
        })
        .collect();
    // Stable: equal weights keep the browser's order.
    tags.sort_by(|a, b| b.0.total_cmp(&a.0));
    tags.into_iter().find_map(|(_, t)| known(t)).unwrap_or("en")
}

/// A page in `lang`: its `<html lang>`, which the page's script reads.
pub fn page(html: &'static str, lang: &str) -> String {
    html.replacen("<html lang=\"en\">", &format!("<html lang=\"{lang}\">"), 1)
}

/// The lobby page.
pub const LOBBY_HTML: &str = include_str!("../assets/lobby.html");
/// The Lab page.
pub const LAB_HTML: &str = include_str!("../assets/lab.html");
/// The game page.
pub const GAME_HTML: &str = include_str!("../assets/game.html");
/// The analysis board.
pub const ANALYSIS_HTML: &str = include_str!("../assets/analysis.html");
/// The rules of record (the project's RULES.md), which win over the seeds.
pub const RULES_OF_RECORD: &str = include_str!("../assets/RULES.md");

/// The seed texts: (file, game they describe).
const SEEDS: &[(&str, &str, &str)] = &[
    (
        "000_3e54d1d4bb260635.txt",
        "Forçado",
        include_str!("../assets/seeds/000_3e54d1d4bb260635.txt"),
    ),
    (
        "001_d09c4b974147b525.txt",
        "Short Assize",
        include_str!("../assets/seeds/001_d09c4b974147b525.txt"),
    ),
    (
        "002_c3caeeffbd34efde.txt",
        "Acedrex de los Cuatro Tiempos",
        include_str!("../assets/seeds/002_c3caeeffbd34efde.txt"),
    ),
    (
        "003_071ee9aba31ac725.txt",
        "Fallas",
        include_str!("../assets/seeds/003_071ee9aba31ac725.txt"),
    ),
    (
        "004_3800cbb53e72698b.txt",
        "Acedrex (Alfonso)",
        include_str!("../assets/seeds/004_3800cbb53e72698b.txt"),
    ),
];

/// Which seed and which section of the rules of record describe a ruleset, from its name
/// (`forcado-ludii` is still Forçado).
fn key(ruleset: &str) -> Option<(usize, &'static str)> {
    let n = ruleset.to_ascii_lowercase();
    if n.contains("forc") {
        Some((0, "## Forçado"))
    } else if n.contains("assize") {
        Some((1, "## Short Assize"))
    } else if n.contains("cuatro") || n.contains("tiempos") || n.contains("four") {
        Some((2, "## Acedrex de los Cuatro Tiempos"))
    } else if n.contains("fallas") {
        Some((3, "## Fallas"))
    } else if n.contains("acedrex") {
        Some((4, "## Acedrex (Alfonso)"))
    } else {
        None
    }
}

/// The section of the rules of record starting with `heading`, up to the next heading.
fn section(heading: &str) -> Option<&'static str> {
    let start = RULES_OF_RECORD.find(heading)?;
    let rest = &RULES_OF_RECORD[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    Some(&rest[..end])
}

/// The texts of a ruleset's rules panel: the rules of record's section, and the seed text
/// (file name, game, text) where there is one.
pub fn rules_texts(
    ruleset: &str,
) -> (
    Option<&'static str>,
    Option<(&'static str, &'static str, &'static str)>,
) {
    let n = ruleset.to_ascii_lowercase();
    if n.contains("shatranj") {
        return (section("## Shatranj"), None);
    }
    match key(ruleset) {
        Some((i, heading)) => (section(heading), Some(SEEDS[i])),
        None => (None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalogue_has_every_key_of_the_others() {
        let catalogues: Vec<(&str, serde_json::Map<String, serde_json::Value>)> = LANGUAGES
            .iter()
            .map(|(lang, text)| {
                let v: serde_json::Value =
                    serde_json::from_str(text).unwrap_or_else(|e| panic!("i18n/{lang}.json: {e}"));
                (*lang, v.as_object().cloned().expect("a JSON object"))
            })
            .collect();
        for (a, ca) in &catalogues {
            for (b, cb) in &catalogues {
                let missing: Vec<&String> = ca.keys().filter(|k| !cb.contains_key(*k)).collect();
                assert!(missing.is_empty(), "i18n/{b}.json lacks {missing:?} of {a}");
            }
            for (k, v) in ca {
                let text = v.as_str().unwrap_or_else(|| panic!("{a}: {k} is not text"));
                assert!(!text.trim().is_empty(), "{a}: {k} is empty");
            }
        }
        // The same placeholders in every language: a `{name}` left out loses the value.
        let holes = |s: &str| {
            let mut v: Vec<String> = s
                .split('{')
                .skip(1)
                .filter_map(|p| p.split_once('}').map(|(h, _)| h.to_string()))
                .collect();
            v.sort();
            v
        };
        let (_, en) = &catalogues[0];
        for (lang, c) in &catalogues[1..] {
            for (k, v) in en {
                assert_eq!(
                    holes(v.as_str().unwrap()),
                    holes(c[k].as_str().unwrap()),
                    "{lang}: {k} has other placeholders"
                );
            }
        }
    }

    #[test]
    fn the_language_is_the_cookies_then_the_browsers_first_known_one() {
        assert_eq!(language(None, None), "en");
        assert_eq!(language(None, Some("es-ES,es;q=0.9,en;q=0.8")), "es");
        assert_eq!(
            language(None, Some("fr-FR,fr;q=0.9,es;q=0.8,en;q=0.7")),
            "es"
        );
        assert_eq!(language(None, Some("en;q=0.5, es;q=0.8")), "es");
        assert_eq!(language(None, Some("fr, de")), "en");
        assert_eq!(language(None, Some("es;q=0")), "en");
        assert_eq!(language(Some("a=b; libro-lang=es"), Some("en")), "es");
        assert_eq!(language(Some("libro-lang=xx"), Some("es")), "es");
        assert_eq!(
            page(LOBBY_HTML, "es").matches("<html lang=\"es\">").count(),
            1
        );
    }

    #[test]
    fn every_seed_game_finds_its_seed_and_its_section() {
        for (name, heading) in [
            ("forcado", "## Forçado"),
            ("short-assize-ludii", "## Short Assize"),
            ("fallas", "## Fallas"),
            ("acedrex", "## Acedrex (Alfonso)"),
        ] {
            let (rules, seed) = rules_texts(name);
            assert!(rules.unwrap().starts_with(heading), "{name}");
            assert!(!seed.unwrap().2.is_empty());
        }
        let (rules, seed) = rules_texts("shatranj");
        assert!(rules.unwrap().contains("Bare king"));
        assert!(seed.is_none());
        // The four-player section must stop before Shatranj's.
        let (rules, _) = rules_texts("cuatro-tiempos");
        assert!(rules.unwrap().contains("Stakes") && !rules.unwrap().contains("Shatranj"));
    }

    /// Every option of every shipped ruleset has its explanation in every catalogue, the
    /// English one the server's text, so a changed explanation cannot leave a stale one.
    #[test]
    fn every_shipped_option_is_explained_in_every_language() {
        let mut seen = std::collections::BTreeSet::new();
        for h in libro_registry::shipped() {
            let rules = libro_registry::load(&h.name, &[]).unwrap();
            for o in rules.options() {
                let key = format!("option.{}", o.name);
                for (lang, _) in LANGUAGES {
                    assert!(
                        catalogue(lang).contains_key(&key),
                        "i18n/{lang}.json lacks {key} ({})",
                        h.name
                    );
                }
                assert_eq!(
                    catalogue("en")[&key],
                    o.explanation,
                    "i18n/en.json's {key} is not {}'s explanation: change both languages",
                    h.name
                );
                seen.insert(o.name);
            }
        }
        for name in [
            "fers_leap",
            "stake",
            "bear_off",
            "entry",
            "unicorn",
            "king_leap",
        ] {
            assert!(seen.contains(name), "{name} in {seen:?}");
        }
    }

    #[test]
    fn the_charts_words_come_from_the_catalogue() {
        let english = libro_lab::ChartText::default();
        let en = chart_text("en");
        let words_aside = libro_lab::ChartText {
            seats: english.seats.clone(),
            reasons: english.reasons.clone(),
            ..en.clone()
        };
        assert_eq!(words_aside, english, "the web app's English is the CLI's");
        assert_eq!(en.seats["white"], "white");
        let es = chart_text("es");
        assert_eq!(es.outcomes, "Resultados por lectura");
        assert_eq!(es.wins, "ganan {seat}");
        assert_eq!(es.as_set, "como está");
        assert_eq!(es.seats["white"], "blancas");
        assert_eq!(
            es.seats["the roll-off winner"],
            "quien gana la tirada inicial"
        );
        assert_eq!(es.reasons["bore-off"], "sacó todas sus piezas");
        assert_eq!(chart_text("xx"), en, "an unknown language is English");
    }
}
