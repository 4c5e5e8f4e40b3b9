//! Files under remote control: `--no-files` refuses every command that reads or writes a file for the
//! other side, in every protocol, one error line each; and the files ebony writes (`save FILE`, the
//! book of `learn`) are replaced whole: a new file renamed over the old one, never rewritten in place.

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
