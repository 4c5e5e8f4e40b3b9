//! Build facts for `ebony --version`: the commit and its date (from git, or `EBONY_COMMIT` and
//! `EBONY_COMMIT_DATE` when building from a source archive without its history) and the target.
//! The commit's date, not the build's, so that two builds of one commit are identical.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

fn main() {
    println!("cargo:rerun-if-env-changed=EBONY_COMMIT");
    println!("cargo:rerun-if-env-changed=EBONY_COMMIT_DATE");
    // Rebuilt when HEAD moves: HEAD itself, the branch it names, and the packed refs.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/packed-refs");
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            if let Some(common) = git(&["rev-parse", "--git-common-dir"]) {
                println!("cargo:rerun-if-changed={common}/{branch}");
            }
        }
    }
    let commit = std::env::var("EBONY_COMMIT")
        .ok()
        .or_else(|| git(&["rev-parse", "--short=7", "HEAD"]))
        .unwrap_or_else(|| "unknown".into());
    let date = std::env::var("EBONY_COMMIT_DATE")
        .ok()
        .or_else(|| git(&["log", "-1", "--format=%cs", "HEAD"]))
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=EBONY_COMMIT={commit}");
    println!("cargo:rustc-env=EBONY_COMMIT_DATE={date}");
    println!("cargo:rustc-env=EBONY_TARGET={}", std::env::var("TARGET").unwrap_or_default());
}
