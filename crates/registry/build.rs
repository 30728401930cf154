//! Embeds every ruleset file (`*.toml`) and evaluation network (`*.nnue`) in the repository's
//! `rulesets/` folder, so that shipping a new variant, or its network, is adding a file there.

use std::{env, fs, path::Path};

/// A static of every file in `dir` ending in `.ext`, sorted: (file stem, contents), each
/// embedded by `include` (`include_str` or `include_bytes`).
fn embed(dir: &Path, ext: &str, doc: &str, decl: &str, include: &str) -> String {
    let mut files: Vec<_> = fs::read_dir(dir)
        .expect("the rulesets/ folder is missing")
        .map(|e| e.expect("unreadable entry in rulesets/").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    let mut out = format!("/// {doc}: (file stem, contents).\npub static {decl} = &[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let stem = path
            .file_stem()
            .unwrap()
            .to_str()
            .expect("file names in rulesets/ are UTF-8");
        let full = path.canonicalize().unwrap();
        out.push_str(&format!(
            "    ({stem:?}, {include}!({:?})),\n",
            full.display().to_string()
        ));
    }
    out.push_str("];\n");
    out
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulesets");
    println!("cargo:rerun-if-changed={}", dir.display());
    let out = embed(
        &dir,
        "toml",
        "Every shipped ruleset file",
        "SHIPPED: &[(&str, &str)]",
        "include_str",
    ) + &embed(
        &dir,
        "nnue",
        "Every shipped evaluation network",
        "SHIPPED_NETWORKS: &[(&str, &[u8])]",
        "include_bytes",
    );
    fs::write(
        Path::new(&env::var("OUT_DIR").unwrap()).join("shipped.rs"),
        out,
    )
    .unwrap();
}
