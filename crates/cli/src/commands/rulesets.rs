//! `libro rulesets`: the shipped rulesets, or `--check FILE` to validate one.

use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Show this ruleset's rule options: value, allowed values, what each decides, its source.
    name: Option<String>,
    /// Validate this ruleset file instead of listing: prints what is wrong and where.
    #[arg(long, value_name = "FILE")]
    check: Option<String>,
    /// Print as JSON lines.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(path) = args.check {
        let text = libro_catalog::read_file(&path)?;
        return match libro_catalog::load_text(&text, &path, &[]) {
            Ok(rules) => {
                println!("{path}: ok ({})", rules.name());
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => {
                println!("{e}");
                Ok(ExitCode::FAILURE)
            }
        };
    }
    if let Some(name) = args.name {
        return show(&name);
    }
    let headers = libro_catalog::shipped();
    let width = headers.iter().map(|h| h.name.len()).max().unwrap_or(0);
    for h in headers {
        if args.json {
            println!("{}", serde_json::to_string(&h)?);
        } else {
            println!(
                "{:width$}  {:7} {} — {}",
                h.name, h.family, h.title, h.source
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One ruleset's options, each explained with where its value comes from.
fn show(name: &str) -> anyhow::Result<ExitCode> {
    let rules = libro_catalog::load(name, &[])?;
    println!("{name}: seats {}", rules.seat_names().join(", "));
    match rules {
        libro_catalog::AnyRuleset::Chess(r) => {
            println!("{} — {}", r.title(), r.source());
            for o in r.options() {
                println!(
                    "  {} = {}  ({})\n      {} [{}]",
                    o.name, o.value, o.allowed, o.explanation, o.source
                );
            }
        }
        libro_catalog::AnyRuleset::Tables(r) => {
            for o in r.options() {
                println!(
                    "  {} = {}  ({})\n      {} [{}]",
                    o.name,
                    o.value,
                    o.allowed.join(" | "),
                    o.explanation,
                    o.source
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
