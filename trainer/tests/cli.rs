//! `ebony-train` run as a user runs it: help, a game file converted to the other form or binary
//! version and back, a weight file converted, and a game file's positions counted as a fit counts
//! them.

use std::process::Command;

fn train(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ebony-train")).args(args).output().expect("ebony-train runs")
}

#[test]
fn help_after_a_command_prints_the_usage() {
    for args in [&["gen", "--help"][..], &["fit", "-h"], &["--help"], &["help"]] {
        let out = train(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("ebony-train gen --out FILE"), "{args:?}");
    }
    let out = train(&["gen", "--games"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--games needs a value"));
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
        (["convert", "--version", "3", &binary, &path("g3.ebgm")], "expected 1 or 2"),
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
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("at least one game file"));
    let out = train(&["count", &path("missing.ebgm")]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("missing.ebgm"));
    std::fs::remove_dir_all(&dir).unwrap();
}
