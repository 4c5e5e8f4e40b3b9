//! What this binary is: its version, the commit and date it was built from, its target, and the
//! instruction-set level it runs at on this processor (`crate::cpu`).

/// The crate's version (`Cargo.toml`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The commit the binary was built from (7 hex digits), or `unknown`.
pub const COMMIT: &str = env!("EBONY_COMMIT");
/// The commit's date (YYYY-MM-DD), or `unknown`.
pub const COMMIT_DATE: &str = env!("EBONY_COMMIT_DATE");
/// The target triple it was built for.
pub const TARGET: &str = env!("EBONY_TARGET");

/// `0.2.0 (abc1234 2026-12-08) x86_64-unknown-linux-gnu x86-64-v3 avx2 bmi2`: the version, its
/// build, and the level in use here.
pub fn describe() -> String {
    format!("{VERSION} ({COMMIT} {COMMIT_DATE}) {TARGET} {}", crate::cpu::cpu().describe())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_description_names_version_build_and_target() {
        let text = super::describe();
        assert!(text.starts_with(&format!("{} (", super::VERSION)), "{text}");
        assert!(text.contains(super::TARGET) && !super::TARGET.is_empty(), "{text}");
        assert_eq!(super::COMMIT_DATE.len(), if super::COMMIT_DATE == "unknown" { 7 } else { 10 }, "{text}");
    }
}
