//! Embeds every ruleset file (`*.toml`) and evaluation network (`*.nnue`) in the repository's
//! `rulesets/` folder, so that shipping a new variant, or its network, is adding a file there.

use std::{env, fs, path::Path};

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulesets");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("the rulesets/ folder is missing")
        .map(|e| e.expect("unreadable entry in rulesets/").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut out = String::from("/// Every shipped ruleset file: (file stem, contents).\npub static SHIPPED: &[(&str, &str)] = &[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let stem = path
            .file_stem()
            .unwrap()
            .to_str()
            .expect("ruleset file names are UTF-8");
        let full = path.canonicalize().unwrap();
        out.push_str(&format!(
            "    ({stem:?}, include_str!({:?})),\n",
            full.display().to_string()
        ));
    }
    out.push_str("];\n");
    let mut nets: Vec<_> = fs::read_dir(&dir)
        .expect("the rulesets/ folder is missing")
        .map(|e| e.expect("unreadable entry in rulesets/").path())
        .filter(|p| p.extension().is_some_and(|e| e == "nnue"))
        .collect();
    nets.sort();
    out.push_str(
        "/// Every shipped evaluation network: (file stem, contents).\npub static SHIPPED_NETWORKS: &[(&str, &[u8])] = &[\n",
    );
    for path in &nets {
        println!("cargo:rerun-if-changed={}", path.display());
        let stem = path
            .file_stem()
            .unwrap()
            .to_str()
            .expect("network file names are UTF-8");
        let full = path.canonicalize().unwrap();
        out.push_str(&format!(
            "    ({stem:?}, include_bytes!({:?})),\n",
            full.display().to_string()
        ));
    }
    out.push_str("];\n");
    fs::write(
        Path::new(&env::var("OUT_DIR").unwrap()).join("shipped.rs"),
        out,
    )
    .unwrap();
}
