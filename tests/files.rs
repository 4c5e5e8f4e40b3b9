//! Files under remote control: `--no-files` refuses every command that reads or writes a file for the
//! other side, in every protocol, one error line each; the files ebony writes (`save FILE`, the book
//! of `learn`) are replaced whole: a new file renamed over the old one, never rewritten in place,
//! through a temporary file nobody can plant a link at, keeping the old file's mode and a symlink at
//! the path; and a file that holds no game is refused without a word of its contents.

use ebony::book::{key_of, Book, Entry};
use ebony::rules::board::Board;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
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
                // The leftover is removed by the next write of the book once it is an hour old.
                let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
                for temp in &left {
                    let name = temp.file_name().expect("a name").to_string_lossy().into_owned();
                    assert!(is_temp_name(&name, "big.book"), "{name}");
                    std::fs::File::options()
                        .write(true)
                        .open(temp)
                        .expect("temp")
                        .set_modified(two_hours_ago)
                        .expect("dated");
                }
                Book::built_in().expect("built-in book").write_file(&path).expect("book written");
                assert_eq!(temps(&dir), Vec::<PathBuf>::new(), "the stale temporary file was left");
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

/// Whether `file` is the name of a temporary file for `name`: `.NAME.` 16 hexadecimal digits `.tmp`.
fn is_temp_name(file: &str, name: &str) -> bool {
    let token = file.strip_prefix(&format!(".{name}.")).and_then(|rest| rest.strip_suffix(".tmp"));
    token.is_some_and(|t| t.len() == 16 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).expect("file").permissions().mode() & 0o777
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).expect("dir").map(|e| e.expect("entry").file_name().to_string_lossy().into()).collect();
    names.sort();
    names
}

/// A file replaced by `save` keeps its mode (one readable by its owner alone stays so); a new file
/// is 0644 less the umask.
#[test]
fn save_keeps_the_mode_of_the_file_it_replaces() {
    let dir = temp_dir("mode");
    let private = dir.join("private.txt");
    std::fs::write(&private, "an older game\n").expect("written");
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let out = session(&["--no-book"], &format!("move f5d6\nsave transcript {}\n", private.display()));
    assert_eq!(lines(&out), Vec::<String>::new());
    assert_eq!(std::fs::read_to_string(&private).expect("saved"), "f5d6\n");
    assert_eq!(mode(&private), 0o600);
    for (umask, want) in [("022", 0o644), ("077", 0o600)] {
        let fresh = dir.join(format!("new-{umask}.txt"));
        let script = format!("umask {umask}; exec '{}' --no-book", support::bin().display());
        let mut child = std::process::Command::new("sh")
            .args(["-c", &script])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("sh");
        let input = format!("move f5\nsave transcript {}\n", fresh.display());
        std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), input.as_bytes()).expect("input");
        let out = child.wait_with_output().expect("ebony ends");
        assert_eq!(lines(&out), Vec::<String>::new());
        assert_eq!(mode(&fresh), want, "umask {umask}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `save` over a symlink writes the game to the link's target and keeps the link.
#[test]
fn save_writes_through_a_symlink() {
    let dir = temp_dir("symlink");
    std::fs::create_dir(dir.join("games")).expect("dir");
    let target = dir.join("games").join("real.txt");
    std::fs::write(&target, "an older game\n").expect("written");
    let link = dir.join("game.txt");
    std::os::unix::fs::symlink("games/real.txt", &link).expect("link");
    let out = session(&["--no-book"], &format!("move f5d6c3\nsave transcript {}\n", link.display()));
    assert_eq!(lines(&out), Vec::<String>::new());
    assert!(std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink(), "the link was replaced");
    assert_eq!(std::fs::read_link(&link).expect("link"), Path::new("games/real.txt"));
    assert_eq!(std::fs::read_to_string(&target).expect("target"), "f5d6c3\n");
    assert_eq!(names(&dir), ["game.txt", "games"]);
    assert_eq!(names(&dir.join("games")), ["real.txt"]);
    std::fs::remove_dir_all(&dir).ok();
}

/// A symlink planted where an older version put its temporary file (`.NAME.PID.tmp`, the process id
/// known once ebony runs) is neither followed nor removed: the file it points to is untouched.
#[test]
fn a_link_planted_at_the_temporary_name_is_not_followed() {
    let dir = temp_dir("planted");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious\n").expect("victim");
    let saved = dir.join("game.txt");
    let mut child = std::process::Command::new(support::bin())
        .arg("--no-book")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("ebony");
    let planted = dir.join(format!(".game.txt.{}.tmp", child.id()));
    std::os::unix::fs::symlink(&victim, &planted).expect("link planted");
    let input = format!("move f5d6\nsave transcript {}\n", saved.display());
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), input.as_bytes()).expect("input");
    let out = child.wait_with_output().expect("ebony ends");
    assert_eq!(lines(&out), Vec::<String>::new());
    assert_eq!(std::fs::read_to_string(&saved).expect("saved"), "f5d6\n");
    assert_eq!(std::fs::read_to_string(&victim).expect("victim"), "precious\n");
    assert!(std::fs::symlink_metadata(&planted).expect("link").file_type().is_symlink());
    std::fs::remove_dir_all(&dir).ok();
}

/// A write that fails says so in one line and leaves the old file and the directory as they were.
#[test]
fn a_failed_save_leaves_everything_as_it_was() {
    let dir = temp_dir("failed");
    let kept = dir.join("kept");
    std::fs::create_dir(&kept).expect("a directory where the file would go");
    let missing = dir.join("no-such-dir").join("game.txt");
    let input = format!("move f5d6\nsave transcript {}\nsave ggf {}\nmoves\n", kept.display(), missing.display());
    let out = session(&["--no-book"], &input);
    assert_eq!(
        lines(&out),
        [
            format!("error save: cannot write '{}': a directory", kept.display()),
            format!("error save: cannot write '{}': No such file or directory (os error 2)", missing.display()),
            "moves f5 d6".to_string(),
        ]
    );
    assert_eq!(names(&dir), ["kept"]);
    assert_eq!(names(&kept), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).ok();
}

/// A file that holds no game gets one error line with the format it is not and the line that shows
/// it, and no word of the file: `load /etc/passwd` shows nothing of the accounts.
#[test]
fn loading_a_file_that_is_no_game_shows_nothing_of_it() {
    let dir = temp_dir("leak");
    let secret_ggf = dir.join("secret.ggf");
    std::fs::write(&secret_ggf, "\n(;GM[Othello]BO[8 secret-board-words *]B[F5];)\n").expect("written");
    let other_game = dir.join("chess.ggf");
    std::fs::write(&other_game, "(;GM[secret-game]BO[8 --- *];)").expect("written");
    let illegal = dir.join("illegal.txt");
    std::fs::write(&illegal, "f5d6\n\nc3 a1\n").expect("written");
    let input = format!(
        "move f5\nload /etc/passwd\nload {}\nload {}\nload {}\nmoves\n",
        secret_ggf.display(),
        other_game.display(),
        illegal.display()
    );
    let out = session(&["--no-book"], &input);
    let got = lines(&out);
    assert_eq!(got.len(), 5, "{got:?}");
    assert!(got[0].starts_with("error load: '/etc/passwd': not a transcript: line "), "{got:?}");
    let passwd = std::fs::read_to_string("/etc/passwd").expect("/etc/passwd");
    for word in passwd.split(|c: char| c == ':' || c == '/' || c.is_whitespace()).filter(|w| w.len() >= 3) {
        assert!(!got[0].contains(word), "{word:?} shown: {}", got[0]);
    }
    assert_eq!(
        got[1..],
        [
            format!("error load: '{}': not a GGF record: line 2: bad BO[...] start board", secret_ggf.display()),
            format!(
                "error load: '{}': not a GGF record: line 1: GM[...] names another game than Othello",
                other_game.display()
            ),
            format!(
                "error load: '{}': not a transcript: line 3: move 4 is illegal: it flips no disc",
                illegal.display()
            ),
            "moves f5".to_string(),
        ]
    );
    std::fs::remove_dir_all(&dir).ok();
}
