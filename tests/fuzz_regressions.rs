//! The fuzz targets' findings (docs/fuzzing.md) as fast tests of the default run, and a check that the
//! committed seed corpora in fuzz/corpus/ still reach past the readers' headers and first checks:
//! seeds that went stale (a new file version, a renamed command) would leave a target fuzzing only
//! its error paths.

use ebony::book::{Book, BookError};
use ebony::eval::learned::{Weights, WeightsError};
use ebony::formats::{ggf, obf};
use ebony::protocol::native::read_game;
use ebony::protocol::parser::parse_line;
use std::path::PathBuf;

/// The seed files of one target, with their names.
fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir: PathBuf = [env!("CARGO_MANIFEST_DIR"), "fuzz", "corpus", target].iter().collect();
    let mut seeds: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.file_name().is_some_and(|name| name.to_string_lossy().starts_with("seed-")))
        .map(|path| (path.display().to_string(), std::fs::read(&path).expect("reading a seed")))
        .collect();
    seeds.sort();
    assert!(!seeds.is_empty(), "no seeds in {}", dir.display());
    seeds
}

fn text(name: &str, bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn parser_seeds_are_commands_or_one_line_errors() {
    let mut accepted = 0;
    for (name, bytes) in seeds("parser") {
        match parse_line(&text(&name, &bytes)) {
            Ok(_) => accepted += 1,
            Err(e) => assert!(!e.to_string().contains('\n'), "{name}: {e}"),
        }
    }
    assert!(accepted >= 50, "only {accepted} parser seeds parse");
}

#[test]
fn obf_ggf_and_transcript_seeds_read() {
    for (name, bytes) in seeds("obf") {
        let entries = obf::parse(&text(&name, &bytes)).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(!entries.is_empty(), "{name}");
    }
    for (name, bytes) in seeds("ggf") {
        let game = ggf::parse(&text(&name, &bytes)).and_then(|r| r.to_game());
        let game = game.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            ggf::parse(&ggf::write(&game)).and_then(|r| r.to_game()).map(|g| *g.position()),
            Ok(*game.position())
        );
    }
    for (name, bytes) in seeds("transcript") {
        read_game(&text(&name, &bytes)).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn book_seeds_load_and_the_weights_header_fits_this_build() {
    let mut sizes: Vec<usize> = seeds("book")
        .iter()
        .map(|(name, bytes)| Book::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}")).len())
        .collect();
    sizes.sort_unstable();
    assert_eq!(sizes, [0, 1, 4]);
    assert_eq!(Book::from_bytes(b"EBBK"), Err(BookError::NotABook));
    let (name, header) =
        seeds("weights").into_iter().find(|(name, _)| name.ends_with("seed-header")).expect("header seed");
    // The layout matches: only the size (no weights after the header) is wrong.
    assert!(matches!(Weights::from_bytes(&header), Err(WeightsError::Size { found: 0, .. })), "{name}");
}
