//! Keeps the documented recipes safe to follow: no command in README.md, data/README.md, docs/ or
//! scripts/research/README.md writes into `src/` (the weights, book and statistics the next build
//! embeds) except an explicit shipping step, a `cp` of a work file marked "ship"; every weight file in
//! `data/` and every one a documented `--eval` names loads in this build; README's test command is the
//! one CI runs.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The documentation a user follows: README.md, data/README.md, docs/*.md, scripts/research/README.md.
fn doc_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md"), root().join("data/README.md")];
    if let Ok(entries) = fs::read_dir(root().join("docs")) {
        let mut docs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        docs.sort();
        files.extend(docs);
    }
    files.push(root().join("scripts/research/README.md"));
    files.into_iter().filter(|p| p.exists()).collect()
}

/// One documented shell line: where it is, the command (continuation lines joined) and its comment.
struct Documented {
    place: String,
    command: String,
    comment: String,
}

/// The shell lines of a markdown file: every line of its code blocks (not `text` or `session` ones),
/// and every inline code span that runs a program of this repository or copies a file.
fn documented(path: &Path) -> Vec<Documented> {
    let text = fs::read_to_string(path).expect("a documentation file reads");
    let name = path.strip_prefix(root()).unwrap_or(path).display().to_string();
    let mut out = Vec::new();
    let mut fence: Option<bool> = None; // inside a block: whether it holds shell lines
    let mut pending: Option<(usize, String)> = None;
    let mut prose = String::new();
    let mut prose_line = 1;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(lang) = trimmed.strip_prefix("```") {
            fence = match fence {
                None => Some(!matches!(lang.trim(), "text" | "session" | "pgn")),
                Some(_) => None,
            };
            continue;
        }
        match fence {
            Some(true) => {
                let (start, mut joined) = pending.take().unwrap_or((i + 1, String::new()));
                joined.push_str(trimmed.trim_end_matches('\\'));
                joined.push(' ');
                if trimmed.ends_with('\\') {
                    pending = Some((start, joined));
                } else {
                    out.push(split_comment(format!("{name}:{start}"), &joined));
                }
            }
            Some(false) => {}
            None => {
                if trimmed.is_empty() {
                    out.extend(inline_spans(&name, prose_line, &prose));
                    prose.clear();
                    prose_line = i + 2;
                } else {
                    prose.push_str(line);
                    prose.push('\n');
                }
            }
        }
    }
    out.extend(inline_spans(&name, prose_line, &prose));
    out
}

fn split_comment(place: String, line: &str) -> Documented {
    // A `#` after a blank starts a comment (`#` inside a word, as in `#20-#39`, does not).
    let at = line.match_indices(" #").map(|(i, _)| i).next().or(line.strip_prefix('#').map(|_| 0));
    let (command, comment) = match at {
        Some(i) => (&line[..i], &line[i..]),
        None => (line, ""),
    };
    Documented { place, command: command.trim().to_string(), comment: comment.to_string() }
}

fn inline_spans(name: &str, first_line: usize, prose: &str) -> Vec<Documented> {
    let mut out = Vec::new();
    for (k, span) in prose.split('`').enumerate() {
        let span = span.replace('\n', " ");
        let runs = ["target/release/", "cargo ", "cp ", "python3 ", "scripts/", "git show"];
        if k % 2 == 1 && runs.iter().any(|r| span.trim_start().starts_with(r) || span.contains(&format!(" {r}"))) {
            out.push(Documented {
                place: format!("{name}:{first_line} (paragraph)"),
                command: span.trim().to_string(),
                comment: String::new(),
            });
        }
    }
    out
}

/// The simple commands of a line: split at `;`, `&&`, `||` and `|`.
fn simple_commands(line: &str) -> Vec<Vec<String>> {
    line.replace("&&", ";")
        .replace("||", ";")
        .replace('|', ";")
        .split(';')
        .map(|c| c.split_whitespace().map(|w| w.trim_matches(|ch| ch == '(' || ch == ')').to_string()).collect())
        .filter(|c: &Vec<String>| !c.is_empty())
        .collect()
}

fn in_src(word: &str) -> bool {
    let word = word.trim_matches(|c| c == '"' || c == '\'');
    word.starts_with("src/") || word.starts_with("./src/")
}

/// Why a simple command writes into `src/`, if it does; a `cp` into `src/` is a shipping step and is
/// reported apart.
enum SrcWrite {
    None,
    Ship,
    Into(String),
}

fn writes_into_src(words: &[String]) -> SrcWrite {
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).map(String::as_str).unwrap_or("");
        if (w == "--out" || w == "-o" || w == ">" || w == ">>" || w == "tee") && in_src(next) {
            return SrcWrite::Into(format!("{w} {next}"));
        }
        for prefix in ["--out=", ">", ">>"] {
            if w.strip_prefix(prefix).is_some_and(in_src) {
                return SrcWrite::Into(w.clone());
            }
        }
    }
    // The program: past environment settings, `nice -n 10`, and the `do` of a shell loop.
    let skip = |w: &String| {
        w.contains('=')
            || w.starts_with('-')
            || w.chars().all(|c| c.is_ascii_digit())
            || ["nice", "do", "then", "time"].contains(&w.as_str())
    };
    let program = words.iter().position(|w| !skip(w));
    let Some(p) = program else { return SrcWrite::None };
    let (prog, args) = (&words[p], &words[p + 1..]);
    if (prog == "cp" || prog == "mv") && args.last().is_some_and(|a| in_src(a)) {
        return SrcWrite::Ship;
    }
    if prog.ends_with("ebony") && args.first().is_some_and(|a| a == "book") {
        let sub = args.get(1).map(String::as_str).unwrap_or("");
        let file = args.iter().skip(2).find(|a| !a.starts_with('-'));
        if matches!(sub, "build" | "extend" | "deepen" | "learn") && file.is_some_and(|f| in_src(f)) {
            return SrcWrite::Into(format!("book {sub} {}", file.unwrap()));
        }
    }
    SrcWrite::None
}

#[test]
fn documented_commands_write_into_src_only_in_a_named_shipping_step() {
    let mut faults = Vec::new();
    let mut seen = 0;
    for file in doc_files() {
        for doc in documented(&file) {
            seen += 1;
            for words in simple_commands(&doc.command) {
                match writes_into_src(&words) {
                    SrcWrite::None => {}
                    SrcWrite::Ship if doc.comment.to_lowercase().contains("ship") => {}
                    SrcWrite::Ship => faults.push(format!(
                        "{}: `{}` copies into src/ without a comment naming it the shipping step",
                        doc.place, doc.command
                    )),
                    SrcWrite::Into(how) => faults.push(format!(
                        "{}: `{}` writes into src/ ({how}); write a work file, then ship it by a named `cp` step",
                        doc.place, doc.command
                    )),
                }
            }
        }
    }
    assert!(seen > 50, "found only {seen} documented commands: is the parser broken?");
    assert!(faults.is_empty(), "documented commands overwrite what the next build embeds:\n{}", faults.join("\n"));
}

/// Whether this build's `ebony --eval FILE` accepts the file.
fn loads(file: &Path) -> Result<(), String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ebony"))
        .args(["--no-book", "--eval"])
        .arg(file)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // The engine may refuse the file and exit before reading: a broken pipe here is that answer.
    let _ = child.stdin.take().expect("piped").write_all(b"quit\n");
    let out = child.wait_with_output().expect("the binary ends");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

fn weight_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a folder of data/ reads").flatten() {
        let path = entry.path();
        if path.is_dir() {
            weight_files(&path, found);
        } else if path.extension().is_some_and(|x| x == "ebev") {
            found.push(path);
        }
    }
}

#[test]
fn weight_files_in_data_and_in_documented_commands_load() {
    let mut files = Vec::new();
    weight_files(&root().join("data"), &mut files);
    for file in doc_files() {
        for doc in documented(&file) {
            let words: Vec<&str> = doc.command.split_whitespace().collect();
            for pair in words.windows(2).filter(|w| w[0] == "--eval") {
                let path = root().join(pair[1].trim_matches('"'));
                if path.is_file() && !files.contains(&path) {
                    files.push(path);
                }
            }
        }
    }
    let refused: Vec<String> = files
        .iter()
        .filter_map(|f| loads(f).err().map(|why| format!("{}: {why}", f.strip_prefix(root()).unwrap_or(f).display())))
        .collect();
    assert!(refused.is_empty(), "weight files this build refuses:\n{}", refused.join("\n"));
}

#[test]
fn readme_names_the_test_command_ci_runs() {
    const COMMAND: &str = "cargo test --release --workspace";
    let readme = fs::read_to_string(root().join("README.md")).expect("README.md reads");
    let ci = fs::read_to_string(root().join(".ci/run")).expect(".ci/run reads");
    assert!(readme.lines().any(|l| l.trim_start().starts_with(COMMAND)), "README.md lacks `{COMMAND}` as a command");
    assert!(ci.lines().any(|l| l.trim() == COMMAND), ".ci/run does not run `{COMMAND}`");
}
