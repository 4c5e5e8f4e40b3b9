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
    let mut values = builtin.values();
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
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("eval {expected} for white (static evaluation, no search)")
    );
    let builtin = builtin.discs(board.player, board.opponent, board.moves());
    let out = ebony(&[], "move f5\neval\nquit\n");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("eval {builtin} for white (static evaluation, no search)")
    );
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

/// Runs the real binary with `args`, its stdout (and its stderr too when `both`) the write end of a
/// pipe whose read end is already closed, as in `ebony book stats 2>&1 | head -0`.
fn into_closed_pipe(args: &[&str], input: &[u8], both: bool) -> std::process::Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let stderr = if both { Stdio::from(writer.try_clone().expect("dup")) } else { Stdio::piped() };
    let mut child = Command::new(support::bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(stderr)
        .spawn()
        .expect("ebony starts");
    let _ = child.stdin.take().expect("stdin").write_all(input);
    child.wait_with_output().expect("ebony ends")
}

/// A report whose reader went away (`ebony book stats | head -3`) is a normal end: nothing on stderr,
/// status 0, whether stderr is open or is the same closed pipe (where `eprintln!` would panic, and the
/// release build abort).
#[test]
fn reports_to_a_closed_pipe_end_quietly() {
    let reports: [&[&str]; 7] = [
        &["book", "stats"],
        &["book", "show"],
        &["perft", "9"],
        &["bench", "--depth", "2"],
        &["--help"],
        &["book", "learn", "-h"],
        &["--version"],
    ];
    for args in reports {
        for both in [false, true] {
            let out = into_closed_pipe(args, b"", both);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(0), "{args:?} (stderr closed too: {both}): {stderr}");
            assert!(stderr.is_empty(), "{args:?}: {stderr}");
        }
    }
}

/// The protocol's output is its only channel: a closed one ends it with status 1, never an abort, also
/// when stderr, where it says so, is closed too.
#[test]
fn the_protocol_ends_with_status_1_when_both_pipes_are_closed() {
    let out = into_closed_pipe(&["--no-book"], b"show\nshow\n", true);
    assert_eq!(out.status.code(), Some(1), "{:?}", out.status);
}

/// A report that cannot be written for another reason than a closed pipe (a full disk) is an error:
/// one line on stderr and status 1.
#[test]
fn a_report_to_a_full_disk_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else { return };
    let out = Command::new(support::bin()).args(["book", "stats"]).stdout(full).output().expect("ebony runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("error: cannot write the output") && stderr.lines().count() == 1, "{stderr}");
}

/// The binary run with `args` alone (no `--no-book` added).
fn bare(args: &[&str]) -> std::process::Output {
    Command::new(support::bin()).args(args).stdin(Stdio::null()).output().expect("ebony runs")
}

/// FFO #1 (14 empties): solved in milliseconds.
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

/// Each subcommand takes exactly the options it uses, before or after its name; any other is a usage
/// error with status 2, as is every usage error of every subcommand.
#[test]
fn each_subcommand_takes_exactly_the_options_it_uses() {
    for args in [
        &["solve", "--hash", "16", "--board", FFO_1][..],
        &["--hash", "16", "solve", "--board", FFO_1][..],
        &["book", "check", "--hash", "1", "--positions", "1", "--depth", "1"][..],
        &["book", "show", "--board", FFO_1][..],
    ] {
        let out = bare(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let weights = std::env::temp_dir().join(format!("ebony-cli-options-{}.ebev", std::process::id()));
    std::fs::write(&weights, ebony::eval::learned::builtin().to_bytes()).expect("written");
    let w = weights.to_str().expect("path");
    let out = bare(&["bench", "--depth", "1", "--eval", w]);
    assert!(out.status.success(), "bench --eval: {}", String::from_utf8_lossy(&out.stderr));
    let refused: [(&[&str], &str); 14] = [
        (&["perft", "--eval", w, "1"], "unexpected argument '--eval'"),
        (&["--eval", w, "perft", "1"], "--eval does nothing for `ebony perft`"),
        (&["--hash", "16", "perft", "1"], "--hash does nothing for `ebony perft`"),
        (&["--hash", "16", "bench"], "--hash does nothing for `ebony bench`"),
        (&["--eval", w, "book", "merge", "--out", "x", "y"], "--eval does nothing for `ebony book merge`"),
        (&["book", "stats", "--eval", w], "unexpected argument '--eval'"),
        (&["book", "show", "--hash", "16"], "unexpected argument '--hash'"),
        (&["--eval", w, "solve", "--board", FFO_1], "--eval does nothing for `ebony solve`"),
        (&["--no-book", "solve", "--board", FFO_1], "--no-book does nothing for `ebony solve`"),
        (&["--protocol", "gtp", "book", "stats"], "--protocol does nothing for `ebony book stats`"),
        (&["solve"], "the following required arguments were not provided"),
        (&["solve", "--board", "XX X"], "bad board"),
        (&["solve", "/nonexistent/ffo.obf"], "cannot read"),
        (&["perft", "--board", "XX X", "1"], "bad board"),
    ];
    for (args, message) in refused {
        let out = bare(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
    }
    std::fs::remove_file(&weights).expect("cleaned");
}

/// Every argument and option of every subcommand has a help text in `--help`.
#[test]
fn every_argument_is_documented() {
    let commands: [&[&str]; 12] = [
        &[],
        &["perft"],
        &["bench"],
        &["solve"],
        &["book", "build"],
        &["book", "extend"],
        &["book", "deepen"],
        &["book", "merge"],
        &["book", "learn"],
        &["book", "show"],
        &["book", "stats"],
        &["book", "check"],
    ];
    for command in commands {
        let out = bare(&[command, &["--help"]].concat());
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        let mut entries = 0;
        for (i, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            // An entry: `  <FILE>  text` or `  --depth <DEPTH>  text`; a long one has its text on the
            // next lines, indented deeper.
            let option =
                trimmed.starts_with('-') && trimmed.chars().nth(1).is_some_and(|c| c == '-' || c.is_alphabetic());
            if !line.starts_with("  ") || !(option || trimmed.starts_with('<')) {
                continue;
            }
            entries += 1;
            let indent = line.len() - trimmed.len();
            let text_after = trimmed.split_once("  ").is_some_and(|(_, help)| !help.trim().is_empty());
            let text_below = lines.get(i + 1).is_some_and(|next| {
                let rest = next.trim_start();
                !rest.is_empty() && next.len() - rest.len() > indent && !rest.starts_with('-')
            });
            assert!(text_after || text_below, "ebony {command:?} --help: no help for {trimmed:?}\n{text}");
        }
        assert!(entries > 0, "ebony {command:?} --help lists nothing:\n{text}");
    }
}

#[test]
fn version_names_the_engine() {
    let out = bare(&["--version"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let words: Vec<&str> = text.split_whitespace().collect();
    // ebony VERSION (COMMIT DATE) TARGET LEVEL [FEATURES...]
    assert!(words.len() >= 6 && text.lines().count() == 1, "{text}");
    assert_eq!(words[..2], ["ebony", env!("CARGO_PKG_VERSION")], "{text}");
    assert!(words[2].starts_with('(') && words[3].ends_with(')'), "{text}");
    let arch = if cfg!(target_arch = "x86_64") { "x86_64" } else { std::env::consts::ARCH };
    assert!(words[4].starts_with(arch), "{text}");
    let levels = ["x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4", "x86-64-avx512icl", "base"];
    assert!(levels.contains(&words[5]), "{text}");
    // EBONY_CPU caps the level, and a bad one is a usage error.
    let capped =
        Command::new(env!("CARGO_BIN_EXE_ebony")).arg("--version").env("EBONY_CPU", levels[0]).output().unwrap();
    let capped = String::from_utf8_lossy(&capped.stdout);
    if cfg!(target_arch = "x86_64") {
        assert_eq!(capped.split_whitespace().nth(5), Some("x86-64"), "{capped}");
    }
    let bad = Command::new(env!("CARGO_BIN_EXE_ebony")).arg("--version").env("EBONY_CPU", "i486").output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.lines().count() == 1 && err.contains("EBONY_CPU=i486"), "{err}");
}

/// The subcommands a `--help` lists under `Commands:` (clap's own `help` left out).
fn listed_subcommands(help: &str) -> Vec<String> {
    let listed = help.lines().skip_while(|l| *l != "Commands:").skip(1).take_while(|l| !l.is_empty());
    // An entry starts two spaces in; a wrapped description is indented further.
    let names = listed.filter(|l| l.starts_with("  ") && !l.starts_with("   "));
    names.filter_map(|l| l.split_whitespace().next()).filter(|n| *n != "help").map(str::to_string).collect()
}

/// Every help text of the command line, `-h` and `--help` of ebony and of each subcommand, found by
/// walking their `Commands:` lists, fits in 100 columns whatever the terminal.
#[test]
fn every_help_fits_in_100_columns() {
    let mut todo: Vec<Vec<String>> = vec![vec![]];
    let mut seen = 0;
    while let Some(command) = todo.pop() {
        for flag in ["-h", "--help"] {
            let args: Vec<&str> = command.iter().map(String::as_str).chain([flag]).collect();
            let out = bare(&args);
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success() && out.stderr.is_empty(), "{args:?}");
            assert!(text.contains("Usage: ebony"), "{args:?}: {text}");
            for line in text.lines() {
                assert!(line.chars().count() <= 100, "{args:?}: {} columns: {line:?}", line.chars().count());
            }
            if flag == "--help" {
                todo.extend(listed_subcommands(&text).into_iter().map(|name| [command.clone(), vec![name]].concat()));
            }
        }
        seen += 1;
    }
    // ebony, perft, bench, solve, book and its 8 subcommands.
    assert_eq!(seen, 13);
}

/// A usage error is one line, then clap's hint, on stderr, and status 2: nothing else (no usage, no
/// tips on lines of their own).
#[test]
fn a_usage_error_is_one_line_and_the_hint() {
    let cases: [(&[&str], &str); 6] = [
        (&["--bogus"], "error: unexpected argument '--bogus' found"),
        (
            &["--protocl", "gtp"],
            "error: unexpected argument '--protocl' found; tip: a similar argument exists: '--protocol'",
        ),
        (&["perft", "30"], "error: invalid value '30' for '[DEPTH]': 30 is not in 1..=20"),
        (&["solve"], "error: the following required arguments were not provided: <FILE>"),
        (&["--hash", "16", "perft"], "error: --hash does nothing for `ebony perft`"),
        (&["--protocol", "uci"], "error: invalid value 'uci' for '--protocol <PROTOCOL>'"),
    ];
    for (args, first) in cases {
        let out = bare(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(lines.len(), 2, "{args:?}: {stderr}");
        assert!(lines[0].starts_with(first), "{args:?}: {stderr}");
        assert_eq!(lines[1], "For more information, try '--help'.", "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// The native protocol's `help`, and `help COMMAND` for every command and every other name, fit in a
/// terminal's 80 columns in a pipe too.
#[test]
fn the_protocol_help_fits_in_80_columns_in_a_pipe() {
    let names =
        ebony::protocol::parser::COMMANDS.iter().flat_map(|spec| std::iter::once(&spec.name).chain(spec.aliases));
    let input: String =
        std::iter::once("help\n".to_string()).chain(names.map(|name| format!("help {name}\n"))).collect();
    let out = ebony(&[], &input);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let commands = ebony::protocol::parser::COMMANDS.len();
    assert!(text.lines().count() > 3 * commands, "{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= 79, "{} columns: {line:?}", line.chars().count());
        assert!(!line.starts_with("error"), "{line}");
    }
}
