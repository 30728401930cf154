//! The stamp every results file and report carries: which libro played the games and a
//! digest of each reading's rules as parsed, so that results travel with what made them and
//! a changed ruleset cannot continue or merge with old results.

use crate::study::Study;
use libro_registry::AnyRuleset;
use std::fmt;

/// Which libro, and which rules, a study's games were played under.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stamp {
    /// libro's version (`0.1.0`).
    pub libro: String,
    /// The commit libro was built from, where it was built from a git checkout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// Each reading's key and the digest of its rules ([`AnyRuleset::digest`]), in
    /// [`Study::readings`] order.
    pub rules: Vec<(String, String)>,
    /// The evaluation network the AI played every reading with, by the first eight bytes of
    /// its key, if any (one for all readings: see [`crate::load_readings`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<String>,
}

impl Stamp {
    /// The stamp of this build of libro for `study`'s readings, loaded as `rules`.
    pub fn new(study: &Study, rules: &[AnyRuleset]) -> Stamp {
        Stamp {
            libro: env!("CARGO_PKG_VERSION").to_string(),
            commit: option_env!("LIBRO_COMMIT").map(str::to_string),
            rules: study
                .readings()
                .iter()
                .zip(rules)
                .map(|(r, rules)| (r.key.clone(), rules.digest()))
                .collect(),
            network: rules
                .first()
                .and_then(AnyRuleset::network_key)
                .map(|k| k[..8].iter().map(|b| format!("{b:02x}")).collect()),
        }
    }

    /// What differs between an older stamp (`self`) and a newer one, in words; empty when
    /// they are the same.
    pub fn changes(&self, newer: &Stamp) -> Vec<String> {
        let mut out = Vec::new();
        if self == newer {
            return out;
        }
        if self.libro.is_empty() {
            out.push(
                "the older results carry no stamp (written before results were stamped)".into(),
            );
            return out;
        }
        if self.libro != newer.libro {
            out.push(format!("libro {} → {}", self.libro, newer.libro));
        }
        if self.commit != newer.commit {
            let c = |c: &Option<String>| c.clone().unwrap_or_else(|| "unknown".into());
            out.push(format!("commit {} → {}", c(&self.commit), c(&newer.commit)));
        }
        if self.network != newer.network {
            let n = |n: &Option<String>| n.clone().unwrap_or_else(|| "none".into());
            out.push(format!(
                "the evaluation network {} → {}",
                n(&self.network),
                n(&newer.network)
            ));
        }
        for (key, digest) in &self.rules {
            match newer.rules.iter().find(|(k, _)| k == key) {
                Some((_, d)) if d != digest => out.push(format!(
                    "the rules of reading `{}` changed (digest {digest} → {d})",
                    crate::study::label(key)
                )),
                Some(_) => {}
                None => out.push(format!("reading `{}` is gone", crate::study::label(key))),
            }
        }
        out
    }
}

impl fmt::Display for Stamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "libro {}", self.libro)?;
        if let Some(c) = &self.commit {
            write!(f, " ({c})")?;
        }
        let mut digests: Vec<&str> = self.rules.iter().map(|(_, d)| d.as_str()).collect();
        digests.dedup();
        match digests.as_slice() {
            [one] => write!(f, ", rules {one}"),
            _ => write!(
                f,
                ", rules {}",
                self.rules
                    .iter()
                    .map(|(k, d)| format!("{}: {d}", crate::study::label(k)))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        }?;
        match &self.network {
            Some(n) => write!(f, ", network {n}"),
            None => Ok(()),
        }
    }
}
