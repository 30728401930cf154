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
        let text = libro_registry::read_file(&path)?;
        return match libro_registry::load_text(&text, &path, &[]) {
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
    let headers = libro_registry::shipped();
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
    let rules = libro_registry::load(name, &[])?;
    println!("{name}: seats {}", rules.seat_names().join(", "));
    println!("{} — {}", rules.title(), rules.source());
    match rules.geometry() {
        libro_registry::Geometry::Grid { files, ranks } => println!("board: {files}x{ranks}"),
        libro_registry::Geometry::Track { points } => println!("board: {points} points"),
    }
    for p in rules.pieces() {
        println!("  {} {} ({})", p.letter, p.name, p.betza);
    }
    for o in rules.options() {
        println!(
            "  {} = {}  ({})\n      {} [{}]",
            o.name,
            o.value,
            o.kind.allowed(),
            o.explanation,
            o.source
        );
    }
    Ok(ExitCode::SUCCESS)
}
