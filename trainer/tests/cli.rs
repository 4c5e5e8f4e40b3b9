//! `ebony-train` run as a user runs it: help, usage errors, reports into a closed pipe, a game file
//! converted to the other form or binary version and back, a weight file converted, and a game
//! file's positions counted as a fit counts them.

use std::process::{Command, Stdio};

fn train(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ebony-train")).args(args).output().expect("ebony-train runs")
}

/// Every subcommand and its options, as docs/evaluation.md and scripts/ use them.
const SUBCOMMANDS: [(&str, &[&str]); 8] = [
    (
        "gen",
        &[
            "--out",
            "--games",
            "--seed",
            "--shard",
            "--random",
            "--depth",
            "--noise",
            "--solve",
            "--endgame-noise",
            "--eval",
            "--opening-margin",
            "--no-scores",
        ],
    ),
    ("merge", &["--out", "<FILE>..."]),
    ("convert", &["--version", "<IN>", "<OUT>"]),
    ("count", &["<FILE>..."]),
    ("fit", &["--out", "--force", "--search-weight", "--ridge", "--smooth", "--iterations", "<FILE[@WEIGHT]>..."]),
    (
        "stream-fit",
        &[
            "--out",
            "--force",
            "--method",
            "--search-weight",
            "--ridge",
            "--smooth",
            "--epochs",
            "--batch",
            "--rate",
            "--decay",
            "--average",
            "--huber",
            "--seed",
            "--work",
            "--memory-mb",
            "--compare",
            "<FILE[@WEIGHT]>...",
        ],
    ),
    (
        "probcut-data",
        &[
            "--out",
            "--positions",
            "--seed",
            "--shard",
            "--depth",
            "--eval",
            "--selectivity",
            "--endgame",
            "<GAMEFILE>...",
        ],
    ),
    ("probcut-fit", &["--out", "<DATAFILE>..."]),
];

/// Each subcommand's `--help` is its own: its usage, and every option and argument with a text,
/// within 100 columns; `ebony-train --help` lists them all.
#[test]
fn each_subcommand_documents_its_options() {
    let out = train(&["--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    for (name, _) in SUBCOMMANDS {
        assert!(text.lines().any(|l| l.split_whitespace().next() == Some(name)), "{name} not listed:\n{text}");
    }
    for (name, options) in SUBCOMMANDS {
        for args in [[name, "--help"], [name, "-h"], ["help", name]] {
            let out = train(&args);
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success() && out.stderr.is_empty(), "{args:?}");
            assert!(text.contains(&format!("Usage: ebony-train {name} ")), "{args:?}:\n{text}");
            for option in options {
                // The entry's line: the option, then its text after two spaces or on the next line.
                let lines: Vec<&str> = text.lines().collect();
                let at = lines.iter().position(|l| l.split_whitespace().next() == Some(option));
                let at = at.unwrap_or_else(|| panic!("{args:?}: no {option}:\n{text}"));
                let documented = lines[at].trim_start().split_once("  ").is_some_and(|(_, t)| !t.trim().is_empty())
                    || lines.get(at + 1).is_some_and(|next| next.starts_with("          ") && !next.trim().is_empty());
                assert!(documented, "{args:?}: {option} has no help text:\n{text}");
            }
            for line in text.lines() {
                assert!(line.chars().count() <= 100, "{args:?}: {} columns: {line:?}", line.chars().count());
            }
        }
    }
    for line in text.lines() {
        assert!(line.chars().count() <= 100, "--help: {line:?}");
    }
}

#[test]
fn version_names_the_trainer() {
    let out = train(&["--version"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with(&format!("ebony-train {}", env!("CARGO_PKG_VERSION"))), "{text}");
}

/// A bad option, a missing or bad value, or a missing argument is one line and clap's hint on
/// stderr, status 2, nothing on stdout; without a subcommand, the help on stderr.
#[test]
fn a_usage_error_is_one_line_and_the_hint() {
    let cases: [(&[&str], &str); 12] = [
        (&["--bogus"], "unexpected argument '--bogus'"),
        (&["frobnicate"], "unrecognized subcommand 'frobnicate'"),
        (&["gen", "--out", "g.ebgm"], "required arguments were not provided: --games <N>"),
        (&["gen", "--out", "g.ebgm", "--games"], "a value is required for '--games <N>'"),
        (&["gen", "--out", "g.ebgm", "--games", "many"], "invalid value 'many' for '--games <N>'"),
        (&["gen", "--out", "g.ebgm", "--games", "3", "--shard", "3/2"], "expected K/N with 1 <= K <= N"),
        (&["gen", "--out", "g.ebgm", "--games", "3", "--random", "20-4"], "expected LO-HI with LO <= HI <= 60"),
        (&["gen", "--out", "g.ebgm", "--games", "3", "--solve", "31"], "above 30 empties"),
        (&["count"], "required arguments were not provided: <FILE>..."),
        (&["fit", "--out", "w.ebev", "g.ebgm@0"], "the weight after @ must be a positive number"),
        (&["stream-fit", "--out", "w.ebev", "--decay", "2", "g.ebgm"], "expected a number above 0, at most 1"),
        (&["probcut-data", "--out", "p.txt", "--positions", "9", "--selectivity", "90", "g.ebgm"], "90 is not a level"),
    ];
    for (args, message) in cases {
        let out = train(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(lines.len(), 2, "{args:?}: {stderr}");
        assert!(lines[0].starts_with("error: ") && lines[0].contains(message), "{args:?}: {stderr}");
        assert_eq!(lines[1], "For more information, try '--help'.", "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = train(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Usage: ebony-train <COMMAND>"));
}

/// `ARGS` with stdout (and stderr too when `both`) the write end of a pipe whose reader is gone, as in
/// `ebony-train count FILE | head -0`.
fn into_closed_pipe(args: &[&str], both: bool) -> std::process::Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let stderr = if both { Stdio::from(writer.try_clone().expect("dup")) } else { Stdio::piped() };
    let child = Command::new(env!("CARGO_BIN_EXE_ebony-train")).args(args).stdout(writer).stderr(stderr).spawn();
    child.and_then(|child| child.wait_with_output()).expect("ebony-train runs")
}

/// Every command that prints on stdout (the reports of count and probcut-fit, help, the version)
/// ends quietly with status 0 when its reader has gone: nothing on stderr, no panic. probcut-fit
/// writes its file before its report.
#[test]
fn reports_to_a_closed_pipe_end_quietly() {
    let dir = std::env::temp_dir().join(format!("ebony-train-cli-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let games = path("g.txt");
    let out = train(&["gen", "--out", &games, "--games", "3", "--depth", "2", "--solve", "8", "--random", "2-6"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/probcut/midgame-d20.txt");
    let stats = path("stats.rs");
    let reports: [&[&str]; 6] = [
        &["count", &games, &games],
        &["probcut-fit", "--out", &stats, data],
        &["--help"],
        &["gen", "--help"],
        &["help", "stream-fit"],
        &["--version"],
    ];
    for args in reports {
        for both in [false, true] {
            let _ = std::fs::remove_file(&stats);
            let out = into_closed_pipe(args, both);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(0), "{args:?} (stderr closed too: {both}): {stderr}");
            assert!(!stderr.contains("panicked") && !stderr.contains("Broken pipe"), "{args:?}: {stderr}");
            if args[0] == "probcut-fit" {
                assert!(std::fs::read_to_string(&stats).unwrap().contains("pub const SIGMA"));
            } else {
                assert!(stderr.is_empty(), "{args:?}: {stderr}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The options of the game files kept in data/external (data/external-games.txt) are taken as they
/// were written.
#[test]
fn the_recorded_generator_options_are_taken() {
    let dir = std::env::temp_dir().join(format!("ebony-train-cli-recorded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("g.ebgm").to_string_lossy().into_owned();
    let recorded = "--seed 31 --depth 8 --solve 18 --random 8-24 --opening-margin 3 --no-scores";
    let args: Vec<&str> = ["gen", "--out", &out, "--games", "1"].into_iter().chain(recorded.split(' ')).collect();
    let run = train(&args);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let count = train(&["count", &out]);
    assert!(String::from_utf8_lossy(&count.stdout).contains(": 1 games, "));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_game_file_converts_to_either_binary_version_and_back_unchanged() {
    let dir = std::env::temp_dir().join(format!("ebony-train-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (text, binary, back) = (path("g.txt"), path("g.ebgm"), path("back.txt"));
    // Three quick games from the generator, in the text form.
    let out = train(&["gen", "--out", &text, "--games", "3", "--depth", "2", "--solve", "8", "--random", "2-6"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = train(&["convert", &text, &binary]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("3 games"));
    assert!(train(&["convert", &binary, &back]).status.success());
    assert_eq!(std::fs::read(&text).unwrap(), std::fs::read(&back).unwrap());
    assert!(std::fs::metadata(&binary).unwrap().len() * 2 < std::fs::metadata(&text).unwrap().len());
    // An existing output is never overwritten.
    let out = train(&["convert", &text, &binary]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("exists"));
    // Version 2 (the default) to version 1 and back, byte for byte.
    let (one, two) = (path("g1.ebgm"), path("g2.ebgm"));
    assert!(train(&["convert", "--version", "1", &binary, &one]).status.success());
    assert!(train(&["convert", &one, &two]).status.success());
    let [v2, v1, again] = [&binary, &one, &two].map(|p| std::fs::read(p).unwrap());
    assert_eq!((v2[4], v1[4]), (2, 1));
    assert_eq!(v2, again);
    assert!(v2.len() < v1.len());
    for (args, message) in [
        (["convert", "--version", "3", &binary, &path("g3.ebgm")], "[possible values: 1, 2]"),
        (["convert", "--version", "1", &binary, &path("g3.txt")], "binary form"),
    ] {
        let out = train(&args);
        assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains(message), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_weight_file_converts_to_the_current_version() {
    let dir = std::env::temp_dir().join(format!("ebony-train-cli-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/../src/eval/weights.ebev");
    // The shipped file is of the current version: converted, it is written again byte for byte.
    let out = train(&["convert", shipped, &path("w.ebev")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(shipped).unwrap(), std::fs::read(path("w.ebev")).unwrap());
    // A damaged file, or a game file's option, is refused with the reason; nothing is written.
    let mut damaged = std::fs::read(shipped).unwrap();
    let last = damaged.len() - 1;
    damaged[last] ^= 1;
    std::fs::write(path("damaged.ebev"), damaged).unwrap();
    let refused: [(&[&str], &str); 2] = [
        (&["convert", &path("damaged.ebev"), &path("out.ebev")], "checksum"),
        (&["convert", "--version", "2", shipped, &path("out.ebev")], "current version"),
    ];
    for (args, message) in refused {
        let out = train(args);
        assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains(message), "{args:?}");
    }
    assert!(!std::path::Path::new(&path("out.ebev")).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fit_never_overwrites_a_weight_file_without_force() {
    let dir = std::env::temp_dir().join(format!("ebony-train-cli-force-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (games, weights) = (path("g.txt"), path("w.ebev"));
    let out = train(&["gen", "--out", &games, "--games", "3", "--depth", "2", "--solve", "8", "--random", "2-6"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let fits: [&[&str]; 2] = [&["fit", "--iterations", "2"], &["stream-fit", "--epochs", "1", "--batch", "16"]];
    for fit in fits {
        std::fs::write(&weights, b"shipped").unwrap();
        let out = train(&[fit, &["--out", &weights, &games]].concat());
        assert!(!out.status.success(), "{fit:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--force"), "{fit:?}");
        assert_eq!(std::fs::read(&weights).unwrap(), b"shipped");
        let out = train(&[fit, &["--force", "--out", &weights, &games]].concat());
        assert!(out.status.success(), "{fit:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert_ne!(std::fs::read(&weights).unwrap(), b"shipped");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn count_gives_the_positions_a_fit_reads() {
    let dir = std::env::temp_dir().join(format!("ebony-train-cli-count-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (a, b) = (path("a.txt"), path("b.ebgm"));
    // Two files of three quick games each.
    let gen = |out: &str, seed: &str| {
        let args =
            ["gen", "--out", out, "--games", "3", "--seed", seed, "--depth", "2", "--solve", "8", "--random", "2-6"];
        let out = train(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    gen(&a, "1");
    gen(&b, "2");
    let out = train(&["count", &a, &b]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    let numbers = |line: &str| -> (u64, u64) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [.., games, "games,", positions, "positions"] = words[..] else { panic!("{line:?}") };
        (games.parse().unwrap(), positions.parse().unwrap())
    };
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 3, "{report}");
    assert!(lines[0].starts_with(&format!("{a}: ")) && lines[1].starts_with(&format!("{b}: ")), "{report}");
    let ((ga, pa), (gb, pb), total) = (numbers(lines[0]), numbers(lines[1]), numbers(lines[2]));
    assert!(lines[2].starts_with("total: ") && total == (ga + gb, pa + pb), "{report}");
    assert_eq!((ga, gb), (3, 3));
    assert!(pa > 0 && pa < 3 * 60, "{report}");
    // stream-fit reads the same positions.
    let weights = path("w.ebev");
    let out =
        train(&["stream-fit", "--out", &weights, "--work", &path("work"), "--epochs", "1", "--batch", "16", &a, &b]);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    assert!(log.contains(&format!("{} positions (", pa + pb)), "{log}");
    let out = train(&["count"]);
    assert!(
        !out.status.success() && String::from_utf8_lossy(&out.stderr).contains("required arguments were not provided")
    );
    let out = train(&["count", &path("missing.ebgm")]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("missing.ebgm"));
    std::fs::remove_dir_all(&dir).unwrap();
}
