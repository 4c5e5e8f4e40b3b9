//! The opening book through the binary: `go`, `play`, NBoard's `hint`/`go`/`learn`, GTP's `genmove`
//! answer from a book (the built-in one, or `--book FILE`); `ebony book` builds (and resumes after a
//! kill), merges shards into the single build, learns games; a bad book file is one error line.

use ebony::book::{key_of, Book, Entry};
use ebony::rules::board::{Board, Move};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn ebony() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ebony"))
}

/// Runs ebony with `args`, sends `input`, closes its input and waits.
fn session(args: &[&str], input: &str) -> Output {
    let mut child =
        ebony().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("ebony");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("input");
    child.wait_with_output().expect("output")
}

fn stdout(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stdout).lines().map(str::to_string).collect()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ebony-book-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::remove_file(&path).ok();
    path
}

fn square_move(name: &str) -> Move {
    Move::Play(name.parse().expect("square"))
}

/// A book holding the position after f5 with f4 (a move no search plays there) as its move, +5.
fn f4_book(path: &Path) -> Board {
    let f5 = Board::START.play("f5".parse().expect("square"));
    let mut book = Book::new();
    book.insert(&f5, Entry::leaf(Some(square_move("f4")), 5, 20, false, key_of(&f5).1));
    book.back_up();
    book.write_file(path).expect("write");
    f5
}

#[test]
fn go_and_play_answer_from_the_book_with_a_book_info_line() {
    let path = temp("f4.book");
    f4_book(&path);
    let file = path.to_str().expect("path");
    let out = session(&["--book", file], "move f5\ngo depth 6\nplay depth 6\nmoves\nset book off\nundo\ngo depth 4\n");
    let lines = stdout(&out);
    assert_eq!(lines[0], "info book score 5 depth 20 pv f4");
    assert_eq!(lines[1], "bestmove f4");
    assert_eq!(lines[2], "info book score 5 depth 20 pv f4");
    assert_eq!(lines[3], "bestmove f4");
    assert_eq!(lines[4], "moves f5 f4");
    // Off: a search, whose move is not the book's.
    assert!(lines[5].starts_with("info depth 1"), "{lines:?}");
    let last = lines.last().expect("bestmove");
    assert!(last.starts_with("bestmove ") && last != "bestmove f4", "{lines:?}");
    // Every image of the position finds the entry: after d3 (f5 rotated), the book answers too.
    let out = session(&["--book", file], "move d3\ngo depth 6\n");
    assert!(stdout(&out)[0].starts_with("info book score 5 depth 20 pv "), "{:?}", stdout(&out));
}

#[test]
fn the_built_in_book_answers_from_the_start_at_once() {
    let started = Instant::now();
    let out = session(&[], "go depth 30\n");
    let lines = stdout(&out);
    assert!(lines[0].starts_with("info book score "), "{lines:?}");
    assert!(["bestmove d3", "bestmove c4", "bestmove f5", "bestmove e6"].contains(&lines[1].as_str()), "{lines:?}");
    // A depth-30 search would take minutes.
    assert!(started.elapsed() < Duration::from_secs(10));
    let out = session(&[], "set book off\ngo depth 2\n");
    assert!(stdout(&out)[0].starts_with("info depth 1"), "{:?}", stdout(&out));
}

#[test]
fn nboard_hint_sends_book_lines_and_go_plays_the_book_move() {
    let path = temp("nboard.book");
    f4_book(&path);
    let game = "set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)";
    let input = format!("nboard 2\nset depth 6\n{game}\nhint 3\ngo\nset book off\nping 1\ngo\n");
    // NBoard's end of input stops a search unanswered: the input stays open until the last `===`.
    let mut child = ebony()
        .args(["--protocol", "nboard", "--book", path.to_str().expect("path")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("ebony");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("input");
    let reader = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let mut lines = Vec::new();
    for line in std::io::BufRead::lines(reader) {
        let line = line.expect("line");
        let done = line.starts_with("=== ") && lines.iter().any(|l: &String| l.starts_with("pong"));
        lines.push(line);
        if done {
            break;
        }
    }
    drop(stdin);
    child.wait().expect("exit");
    assert_eq!(
        lines[..5],
        [
            "set myname ebony",
            "status ebony is thinking",
            "book F4 5.00 0 20",
            "status ebony is waiting",
            "=== F4/5.00/0.00"
        ]
    );
    assert_eq!(lines[5], "pong 1");
    let last = lines.last().expect("===");
    assert!(last.starts_with("=== ") && !last.starts_with("=== F4"), "{lines:?}");
}

#[test]
fn nboard_learn_adds_the_game_to_the_book_file() {
    let path = temp("learn.book");
    f4_book(&path);
    let game = "set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[C3]W[D3]B[C4];)";
    let input = format!("nboard 2\nset depth 4\n{game}\nlearn\nping 2\n");
    let out = session(&["--protocol", "nboard", "--book", path.to_str().expect("path")], &input);
    assert_eq!(stdout(&out), ["set myname ebony", "learned", "pong 2"]);
    let book = Book::read_file(&path).expect("the book file is written back");
    // The start, the f5 position already there, and the four positions after it.
    assert_eq!(book.len(), 6);
    let mut board = Board::START;
    for mv in ["f5", "d6", "c3", "d3", "c4"] {
        assert!(book.contains(&board));
        board = board.play(mv.parse().expect("square"));
    }
    assert!(book.contains(&board));
}

#[test]
fn gtp_genmove_plays_the_book_move() {
    let path = temp("gtp.book");
    f4_book(&path);
    let input =
        "ebony-limit depth 4\nplay black F5\ngenmove white\nundo\nebony-book off\ngenmove white\nebony-book maybe\n";
    let out = session(&["--protocol", "gtp", "--book", path.to_str().expect("path")], input);
    let replies: Vec<String> = stdout(&out).into_iter().filter(|l| !l.is_empty()).collect();
    assert_eq!(replies[..4], ["=", "=", "= F4", "="]);
    assert_eq!(replies[4], "=");
    assert!(replies[5].starts_with("= ") && replies[5] != "= F4", "{replies:?}");
    assert_eq!(replies[6], "? syntax error: expected on, off or randomness N");
}

#[test]
fn a_bad_book_file_is_one_error_line() {
    let missing = temp("missing.book");
    let out = session(&["--book", missing.to_str().expect("path")], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: cannot read "), "{err}");

    let damaged = temp("damaged.book");
    f4_book(&damaged);
    let mut bytes = std::fs::read(&damaged).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&damaged, bytes).expect("write");
    let out = session(&["--book", damaged.to_str().expect("path")], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.trim_end().ends_with("the book file is corrupt (checksum mismatch)") && err.lines().count() == 1,
        "{err}"
    );
}

fn book_cli(args: &[&str]) -> Output {
    let out = ebony().arg("book").args(args).output().expect("ebony book");
    assert!(out.status.success(), "ebony book {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

#[test]
fn shards_merge_into_the_single_build_through_the_command_line() {
    let grow = ["--depth", "2", "--deviation", "64", "--max-ply", "4", "--split-ply", "2"];
    let single = temp("single.book");
    book_cli(&[&["build", single.to_str().expect("path")], &grow[..]].concat());
    let mut shards = Vec::new();
    for k in 1..=2 {
        let shard = temp(&format!("shard{k}.book"));
        let spec = format!("{k}/2");
        book_cli(&[&["build", shard.to_str().expect("path"), "--shard", &spec], &grow[..]].concat());
        shards.push(shard);
    }
    let merged = temp("merged.book");
    let names: Vec<&str> = shards.iter().map(|p| p.to_str().expect("path")).collect();
    book_cli(&[&["merge", "--out", merged.to_str().expect("path")], &names[..]].concat());
    assert_eq!(std::fs::read(&merged).expect("merged"), std::fs::read(&single).expect("single"));
    let stats = String::from_utf8_lossy(&book_cli(&["stats", single.to_str().expect("path")]).stdout).into_owned();
    assert!(stats.starts_with("positions 79\n"), "{stats}");
}

#[test]
fn deepen_scores_the_positions_within_the_deviation_again_and_stops_when_done() {
    let path = temp("deepen.book");
    let file = path.to_str().expect("path");
    book_cli(&["build", file, "--depth", "2", "--deviation", "64", "--max-ply", "3"]);
    let before = Book::read_file(&path).expect("built");
    let deepen = ["deepen", file, "--depth", "4", "--deviation", "64", "--max-ply", "4"];
    let out = book_cli(&deepen);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(stderr.contains("to score again at depth 4"), "{stderr}");
    assert!(stderr.contains("every position within the deviation and plies is at depth 4"), "{stderr}");
    let after = Book::read_file(&path).expect("deepened");
    assert!(after.len() >= before.len());
    // The 14 leaves at ply 3 were scored again; the 5 positions above them keep their depth, since
    // every move of theirs is in the book (no left-out move to score).
    assert_eq!(after.len(), before.len());
    for ((p, o), entry) in after.iter_sorted() {
        assert_eq!(entry.depth, if entry.is_expanded() { 2 } else { 4 }, "{p:x} {o:x}");
    }
    assert_eq!(after.iter_sorted().iter().filter(|(_, e)| e.depth == 4).count(), 14);
    // A second run finds nothing left and leaves the file as it is.
    let again = book_cli(&deepen);
    assert!(String::from_utf8_lossy(&again.stderr).contains("0 to score again"));
    assert_eq!(Book::read_file(&path).expect("unchanged"), after);
}

#[test]
fn a_killed_build_resumes_without_losing_positions() {
    let path = temp("resume.book");
    let file = path.to_str().expect("path");
    let args = ["book", "build", file, "--depth", "6", "--deviation", "64", "--max-ply", "8"];
    let mut child = ebony().args(args).stderr(Stdio::null()).spawn().expect("ebony book build");
    // Kill it once it has written a few expansions.
    let started = Instant::now();
    while Book::read_file(&path).map_or(0, |b| b.len()) < 30 {
        assert!(started.elapsed() < Duration::from_secs(60), "no progress written");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("kill");
    child.wait().expect("wait");
    let before = Book::read_file(&path).expect("the file is whole after a kill");
    book_cli(&[
        "build",
        file,
        "--depth",
        "6",
        "--deviation",
        "64",
        "--max-ply",
        "8",
        "--positions",
        &(before.len() + 20).to_string(),
    ]);
    let after = Book::read_file(&path).expect("resumed");
    assert!(after.len() >= before.len() + 20);
    for ((p, o), entry) in before.iter_sorted() {
        let kept = after.get(&Board::new(p, o)).expect("every position kept");
        assert!(kept.is_expanded() || !entry.is_expanded(), "expansions are kept");
    }
}

#[test]
fn book_learn_reads_transcripts_and_show_prints_the_moves() {
    let games = temp("games.txt");
    std::fs::write(&games, "f5d6c3d3c4\nf5f6e6f4\n").expect("games");
    let path = temp("learnt.book");
    let out = book_cli(&["learn", path.to_str().expect("path"), games.to_str().expect("path"), "--depth", "4"]);
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(said.starts_with("learnt 2 games: 9 positions added, 9 in "), "{said}");
    let show = book_cli(&["show", path.to_str().expect("path"), "--moves", "f5"]);
    let lines: Vec<String> = String::from_utf8_lossy(&show.stdout).lines().map(str::to_string).collect();
    assert!(lines[0].starts_with("value "), "{lines:?}");
    // After f5 the book holds d6 and f6 (both games' second moves).
    assert!(lines.iter().any(|l| l.starts_with("d6 ")) && lines.iter().any(|l| l.starts_with("f6 ")), "{lines:?}");
}

#[test]
fn book_learn_keeps_to_max_ply_and_its_shards_merge_into_one_learning() {
    let games = temp("plies.txt");
    std::fs::write(&games, "f5d6c3d3c4f4\nf5f6e6f4e3\n").expect("games");
    let games = games.to_str().expect("path");
    let single = temp("plies.book");
    let out = book_cli(&["learn", single.to_str().expect("path"), games, "--depth", "4", "--max-ply", "3"]);
    // Plies 0 to 3 of each game: the start and f5 are shared, so 4 + 2 positions.
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(said.starts_with("learnt 2 games: 6 positions added, 6 in "), "{said}");
    let mut shards = Vec::new();
    for k in 1..=2 {
        let shard = temp(&format!("plies-{k}.book"));
        let shard_arg = format!("{k}/2");
        let out = book_cli(&[
            "learn",
            shard.to_str().expect("path"),
            games,
            "--depth",
            "4",
            "--max-ply",
            "3",
            "--shard",
            &shard_arg,
        ]);
        assert!(out.status.success());
        shards.push(shard);
    }
    let merged = temp("plies-merged.book");
    let out = book_cli(&[
        "merge",
        "--out",
        merged.to_str().expect("path"),
        shards[0].to_str().expect("path"),
        shards[1].to_str().expect("path"),
    ]);
    assert!(out.status.success());
    assert_eq!(std::fs::read(&merged).expect("merged"), std::fs::read(&single).expect("single"));
}
