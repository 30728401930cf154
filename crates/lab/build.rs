//! Stamps results with the commit libro was built from, where it is built from a git checkout.

use std::process::Command;

fn main() {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        let dir = std::path::Path::new(&dir);
        for watched in ["HEAD", "refs/heads", "packed-refs"] {
            println!("cargo:rerun-if-changed={}", dir.join(watched).display());
        }
    }
    if let Some(commit) = git(&["rev-parse", "--short=12", "HEAD"]) {
        println!("cargo:rustc-env=LIBRO_COMMIT={commit}");
    }
}
