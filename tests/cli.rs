//! The command line, run as a user would: out-of-range arguments and bad weight files are one clear
//! error and exit status 2 (never a clamp, an abort or an endless run); `--eval` changes what the
//! engine evaluates with.

mod support;

use ebony::eval::learned::Weights;
use ebony::rules::board::Board;
use std::io::Write;
use std::process::{Command, Stdio};
use support::run_to_end as ebony;

fn assert_refused(args: &[&str], message: &str) {
    let out = ebony(args, "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(message), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

#[test]
fn out_of_range_numbers_are_refused() {
    assert_refused(&["--hash", "0"], "0 is not in 1..=4096");
    assert_refused(&["--hash", "100000"], "100000 is not in 1..=4096");
    assert_refused(&["bench", "--depth", "0"], "0 is not in 1..=60");
    assert_refused(&["perft", "100"], "100 is not in 1..=20");
    assert_refused(&["bench", "--selectivity", "90"], "90 is not a level: 58, 73, 87, 95, 98, 99, 100");
    assert_refused(&["bench", "--selectivity", "most"], "expected a level in percent");
}

#[test]
fn bad_weight_files_are_refused() {
    let dir = std::env::temp_dir().join(format!("ebony-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let garbage = dir.join("garbage.ebev");
    std::fs::write(&garbage, "not weights").expect("written");
    let truncated = dir.join("truncated.ebev");
    let real = ebony::eval::learned::builtin().to_bytes();
    std::fs::write(&truncated, &real[..real.len() / 2]).expect("written");
    assert_refused(&["--eval", garbage.to_str().expect("path")], "not an ebony evaluation file");
    assert_refused(&["--eval", truncated.to_str().expect("path")], "bytes of weights, expected");
    // Made for other features (the layout fingerprint after the version differs), as the weights of
    // earlier builds are (data/README.md): refused before its checksum is read.
    let other_features = dir.join("other-features.ebev");
    let mut other = real.clone();
    other[8] ^= 1;
    std::fs::write(&other_features, &other).expect("written");
    assert_refused(&["--eval", other_features.to_str().expect("path")], "made for other features than this build's");
    assert_refused(&["--eval", dir.join("missing.ebev").to_str().expect("path")], "cannot read");
    std::fs::remove_dir_all(&dir).expect("cleaned");
}

#[test]
fn eval_uses_the_weights_given() {
    // The built-in weights with every weight of the position's phase raised by a disc.
    let board = Board::START.play("f5".parse().expect("square"));
    let builtin = ebony::eval::learned::builtin();
    let size = ebony::eval::learned::phase_size();
    let phase = ebony::eval::learned::phase((!(board.player | board.opponent)).count_ones());
    let mut values = builtin.values().to_vec();
    for v in &mut values[phase * size..][..size] {
        *v = v.saturating_add(ebony::eval::learned::SCALE as i16);
    }
    let weights = Weights::from_values(values).expect("as many values");
    let path = std::env::temp_dir().join(format!("ebony-cli-eval-{}.ebev", std::process::id()));
    std::fs::write(&path, weights.to_bytes()).expect("written");
    let expected = weights.discs(board.player, board.opponent, board.moves());
    assert_ne!(expected, builtin.discs(board.player, board.opponent, board.moves()), "a different estimate");
    let out = ebony(&["--eval", path.to_str().expect("path")], "move f5\neval\nquit\n");
    std::fs::remove_file(&path).expect("cleaned");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), format!("eval {expected} for white"));
    let builtin = builtin.discs(board.player, board.opponent, board.moves());
    let out = ebony(&[], "move f5\neval\nquit\n");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), format!("eval {builtin} for white"));
}

#[test]
fn a_failed_write_ends_the_engine_with_an_error() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    let Ok(full) = full else { return };
    let out = Command::new(env!("CARGO_BIN_EXE_ebony"))
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().expect("stdin").write_all(b"show\nshow\n")?;
            child.wait_with_output()
        })
        .expect("ebony runs");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1, "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_closed_pipe_ends_the_engine_promptly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ebony"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ebony starts");
    // The reader goes away; the engine keeps being asked for output, and an infinite search too.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin");
    let start = std::time::Instant::now();
    let _ = stdin.write_all(b"show\ngo infinite\n");
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            assert_eq!(status.code(), Some(1));
            break;
        }
        assert!(start.elapsed().as_secs() < 10, "still running 10 s after its reader left");
        let _ = stdin.write_all(b"isready\n");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr).expect("stderr read");
    assert!(stderr.lines().count() <= 2, "{stderr}");
}

#[test]
fn reports_to_a_closed_pipe_end_with_an_error_not_a_panic() {
    for args in [&["perft", "9"][..], &["bench", "--depth", "2"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ebony"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ebony starts");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("ebony ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked") && stderr.lines().count() == 1, "{args:?}: {stderr}");
    }
}
