//! Files under remote control: `--no-files` refuses every command that reads or writes a file for the
//! other side, in every protocol, one error line each; and the files ebony writes (`save FILE`, the
//! book of `learn`) are replaced whole: a new file renamed over the old one, never rewritten in place.

use ebony::book::{key_of, Book, Entry};
use ebony::rules::board::Board;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Output;

mod support;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ebony-files-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The binary under test (see tests/support) with `args`, fed `input`, to its end.
fn session(args: &[&str], input: &str) -> Output {
    support::run_with(args, input)
}

fn lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

/// A small book file to learn into: the built-in one's file.
fn book_file(dir: &Path) -> PathBuf {
    let path = dir.join("play.book");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/src/book/default.book"), &path).expect("book copied");
    path
}

const GAME: &str = "set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4]B[G6]W[C5]B[G4]W[G5];)";

#[test]
fn no_files_refuses_every_file_command_in_every_protocol() {
    let dir = temp_dir("refused");
    let book = book_file(&dir);
    let before = std::fs::read(&book).expect("book");
    let game = dir.join("game.ggf");
    std::fs::write(&game, "e6f4e3f6g5d6e7f5c5\n").expect("game");
    let saved = dir.join("saved.ggf");
    let (book_arg, game_arg, saved_arg) =
        (book.to_str().expect("path"), game.to_str().expect("path"), saved.to_str().expect("path"));

    let input = format!(
        "move f5 f6 e6 f4 g6 c5 g4 g5\nload {game_arg}\nsave ggf {saved_arg}\nsave transcript\nlearn depth 2\nmoves\n"
    );
    let out = session(&["--no-files", "--book", book_arg], &input);
    assert!(out.status.success());
    assert_eq!(
        lines(&out),
        [
            "error load: files are turned off (--no-files)",
            "error save: files are turned off (--no-files)",
            "transcript f5f6e6f4g6c5g4g5",
            "error learn: files are turned off (--no-files)",
            "moves f5 f6 e6 f4 g6 c5 g4 g5",
        ]
    );
    let input = format!("nboard 2\nset depth 2\n{GAME}\nlearn\nping 1\n");
    let out = session(&["--protocol", "nboard", "--no-files", "--book", book_arg], &input);
    assert_eq!(
        lines(&out),
        ["set myname ebony", "status ebony: learn: files are turned off (--no-files)", "learned", "pong 1"]
    );
    assert!(!saved.exists(), "save wrote a file");
    assert!(std::fs::read(&book).expect("book") == before, "learn wrote the book file");

    // Without --no-files the same commands read and write.
    let out = session(&["--book", book_arg], &format!("load {game_arg}\nmoves\nsave ggf {saved_arg}\nlearn depth 2\n"));
    let got = lines(&out);
    assert_eq!(got[0], "moves e6 f4 e3 f6 g5 d6 e7 f5 c5");
    assert!(got[1].starts_with("learned "), "{got:?}");
    assert!(saved.exists());
    assert!(std::fs::read(&book).expect("book") != before, "learn did not write the book file");
    std::fs::remove_dir_all(&dir).ok();
}

/// `save FILE` and the book `learn` writes replace the file by a new one (another inode) and leave
/// nothing else in the directory; an interrupted write would leave the old file whole.
#[test]
fn files_are_replaced_whole() {
    let dir = temp_dir("atomic");
    let saved = dir.join("game.txt");
    std::fs::write(&saved, "an older game\n").expect("written");
    let inode = std::fs::metadata(&saved).expect("file").ino();
    let out = session(&["--no-book"], &format!("move f5d6\nsave transcript {}\n", saved.display()));
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(std::fs::read_to_string(&saved).expect("saved"), "f5d6\n");
    assert_ne!(std::fs::metadata(&saved).expect("file").ino(), inode, "save rewrote the file in place");

    let book = book_file(&dir);
    let inode = std::fs::metadata(&book).expect("book").ino();
    let out = session(&["--book", book.to_str().expect("path")], "move f5 f6 e6 f4 g6 c5 g4 g5\nlearn depth 2\n");
    assert!(lines(&out)[0].starts_with("learned "), "{:?}", lines(&out));
    assert_ne!(std::fs::metadata(&book).expect("book").ino(), inode, "learn rewrote the book in place");
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").file_name().to_string_lossy().into()).collect();
    names.sort();
    assert_eq!(names, ["game.txt", "play.book"], "temporary files left behind");
    std::fs::remove_dir_all(&dir).ok();
}

/// A book of `count` distinct positions from seeded random games (a few seconds to write whole, so
/// that a kill can land inside the write), with the built-in book's entries.
fn big_book(count: usize) -> Book {
    let mut book = Book::built_in().expect("built-in book");
    let mut rng = support::Rng(35);
    while book.len() < count {
        let mut board = Board::START;
        while !board.is_game_over() {
            let moves = board.legal_moves();
            board = board.try_play(moves[rng.below(moves.len())]).expect("legal");
            if !book.contains(&board) {
                let (_, k) = key_of(&board);
                book.insert(&board, Entry::leaf(None, 0, 1, false, k));
            }
        }
    }
    book
}

/// Kills ebony with SIGKILL while `learn` writes its book file, as soon as the write shows (a
/// temporary file beside the book, or any change to the book's own file): the book file must then
/// be the old book, byte for byte, or a whole new one. Retried until a kill lands mid-write (the
/// temporary file is left behind, the old book in place); a write in place would leave a cut book.
#[test]
fn a_kill_mid_write_leaves_the_book_whole() {
    let dir = temp_dir("kill");
    let path = dir.join("big.book");
    big_book(1_000_000).write_file(&path).expect("book written");
    let old = std::fs::read(&path).expect("book");
    let meta = |p: &Path| std::fs::metadata(p).map(|m| (m.ino(), m.len(), m.mtime_nsec())).ok();
    let mut before = meta(&path);
    let temps = |dir: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .expect("dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "tmp"))
            .collect()
    };
    let mut killed_mid_write = false;
    for _ in 0..5 {
        let mut child = std::process::Command::new(support::bin())
            .args(["--book", path.to_str().expect("path")])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("ebony");
        let mut input = child.stdin.take().expect("stdin");
        std::io::Write::write_all(&mut input, b"move f5 f6 e6 f4 g6 c5 g4 g5 c4\nlearn depth 1\n").expect("input");
        let start = std::time::Instant::now();
        while temps(&dir).is_empty() && meta(&path) == before {
            assert!(start.elapsed() < std::time::Duration::from_secs(120), "learn never wrote the book");
            if child.try_wait().expect("wait").is_some() {
                break;
            }
        }
        child.kill().ok();
        child.wait().expect("wait");
        drop(input);
        let now = std::fs::read(&path).expect("the book file is gone");
        let book = Book::from_bytes(&now).unwrap_or_else(|e| panic!("the kill left a broken book: {e}"));
        if now == old {
            let left = temps(&dir);
            if !left.is_empty() {
                killed_mid_write = true;
                for temp in left {
                    std::fs::remove_file(temp).expect("temporary file removed");
                }
                break;
            }
        } else {
            // The write finished before the kill: a whole book with one more game in it.
            assert!(book.len() > 1_000_000, "{} positions", book.len());
            std::fs::write(&path, &old).expect("the old book written back");
            before = meta(&path);
        }
    }
    assert!(killed_mid_write, "no kill landed inside the write in five tries");
    std::fs::remove_dir_all(&dir).ok();
}
