//! `libro rulesets`: the shipped rulesets, or `--check FILE` to validate one.

use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Validate this ruleset file instead of listing: prints what is wrong and where.
    #[arg(long, value_name = "FILE")]
    check: Option<String>,
    /// Print as JSON lines.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(path) = args.check {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| anyhow::anyhow!("cannot read {path}: {e}"))?;
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
