//! The front end and the source texts, embedded in the binary: plain HTML, CSS and JS with
//! no build step, and the seed texts with the rules of record for the rules panel.

/// A static file: its bytes and content type.
pub struct Asset {
    pub body: &'static [u8],
    pub content_type: &'static str,
}

/// The static files served under `/assets/`.
pub fn asset(name: &str) -> Option<Asset> {
    let (body, content_type): (&'static [u8], &'static str) = match name {
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
        "favicon.svg" => (include_bytes!("../assets/favicon.svg"), "image/svg+xml"),
        _ => return None,
    };
    Some(Asset { body, content_type })
}

/// The lobby page.
pub const LOBBY_HTML: &str = include_str!("../assets/lobby.html");
/// The Lab page.
pub const LAB_HTML: &str = include_str!("../assets/lab.html");
/// The game page.
pub const GAME_HTML: &str = include_str!("../assets/game.html");
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
}
