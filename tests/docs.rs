//! Keeps the documented recipes safe to follow: no command in README.md, data/README.md, docs/ or
//! scripts/research/README.md writes into `src/` (the weights, book and statistics the next build
//! embeds) except an explicit shipping step, a `cp` of a work file marked "ship"; every weight file in
//! `data/` and every one a documented `--eval` names loads in this build; README's test command is the
//! one CI runs. Keeps the front door honest: README's "Strength and speed" table has at most 10 rows,
//! each naming a date, no README line outside code is wider than 160 columns, and every relative link
//! of README.md, protocol.md, data/README.md, docs/ and scripts/research/README.md leads to a file
//! and, with `#anchor`, to a heading there.

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

/// The lines of a markdown text outside its code blocks, with their line numbers (from 1).
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut inside = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
        } else if !inside {
            out.push((i + 1, line));
        }
    }
    out
}

/// The rows of README's "Strength and speed" table, header and rule left out, with their line numbers.
fn readme_figure_rows(readme: &str) -> Vec<(usize, String)> {
    let lines = prose_lines(readme);
    let start = lines
        .iter()
        .position(|(_, l)| l.trim() == "## Strength and speed")
        .expect("README has \"## Strength and speed\"");
    lines[start + 1..]
        .iter()
        .take_while(|(_, l)| !l.starts_with("## "))
        .skip_while(|(_, l)| !l.starts_with('|'))
        .take_while(|(_, l)| l.starts_with('|'))
        .skip(2)
        .map(|(n, l)| (*n, l.to_string()))
        .collect()
}

fn names_a_date(text: &str) -> bool {
    let b = text.as_bytes();
    let digits = |from: usize, n: usize| b.get(from..from + n).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    (0..b.len()).any(|i| {
        digits(i, 4)
            && b.get(i + 4) == Some(&b'-')
            && digits(i + 5, 2)
            && b.get(i + 7) == Some(&b'-')
            && digits(i + 8, 2)
    })
}

#[test]
fn readme_table_is_short_dated_and_narrow() {
    let readme = fs::read_to_string(root().join("README.md")).expect("README.md reads");
    let rows = readme_figure_rows(&readme);
    assert!(!rows.is_empty(), "README's \"Strength and speed\" has no table");
    assert!(rows.len() <= 10, "README's \"Strength and speed\" table has {} rows; at most 10", rows.len());
    let undated: Vec<String> =
        rows.iter().filter(|(_, r)| !names_a_date(r)).map(|(n, r)| format!("README.md:{n}: {r}")).collect();
    assert!(undated.is_empty(), "figure rows without a date (YYYY-MM-DD):\n{}", undated.join("\n"));
    let long: Vec<String> = prose_lines(&readme)
        .iter()
        .filter(|(_, l)| l.chars().count() > 160)
        .map(|(n, l)| format!("README.md:{n}: {} columns", l.chars().count()))
        .collect();
    assert!(long.is_empty(), "README lines outside code blocks wider than 160 columns:\n{}", long.join("\n"));
}

/// The anchor GitHub gives a heading: lower case, spaces to `-`, punctuation other than `-` and `_`
/// dropped; a repeated heading gets `-1`, `-2`, ...
fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, line) in prose_lines(text) {
        let Some(title) = line.strip_prefix('#').map(|t| t.trim_start_matches('#')) else { continue };
        if !title.starts_with(' ') {
            continue;
        }
        let slug: String = title
            .trim()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .flat_map(char::to_lowercase)
            .collect();
        let mut unique = slug.clone();
        let mut k = 0;
        while out.contains(&unique) {
            k += 1;
            unique = format!("{slug}-{k}");
        }
        out.push(unique);
    }
    out
}

/// The targets of the inline links `[text](target)` of a markdown text outside code, with line numbers.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in prose_lines(text) {
        // inline code spans are not links
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            out.push((n, after[..end].trim().to_string()));
            rest = &after[end..];
        }
    }
    out
}

/// Why a relative link of `file` does not resolve, if it does not.
fn broken(file: &Path, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (target, None),
    };
    let dest =
        if path.is_empty() { file.to_path_buf() } else { file.parent().expect("a file has a folder").join(path) };
    if !dest.exists() {
        return Some(format!("{target}: no file {}", dest.strip_prefix(root()).unwrap_or(&dest).display()));
    }
    let anchor = anchor?;
    if dest.extension().is_some_and(|x| x == "md") {
        let text = fs::read_to_string(&dest).expect("a linked document reads");
        if !anchors(&text).iter().any(|a| a == anchor) {
            return Some(format!("{target}: no heading with anchor #{anchor}"));
        }
    }
    None
}

fn broken_links(files: &[PathBuf]) -> Vec<String> {
    let mut faults = Vec::new();
    for file in files {
        let text = fs::read_to_string(file).expect("a documentation file reads");
        let name = file.strip_prefix(root()).unwrap_or(file).display().to_string();
        for (n, target) in link_targets(&text) {
            if let Some(why) = broken(file, &target) {
                faults.push(format!("{name}:{n}: {why}"));
            }
        }
    }
    faults
}

#[test]
fn relative_links_in_readme_and_docs_resolve() {
    let mut files = doc_files();
    files.push(root().join("protocol.md"));
    let links: usize = files.iter().map(|f| link_targets(&fs::read_to_string(f).expect("reads")).len()).sum();
    assert!(links > 20, "found only {links} links: is the parser broken?");
    let faults = broken_links(&files);
    assert!(faults.is_empty(), "links that lead nowhere:\n{}", faults.join("\n"));
}

#[test]
fn the_link_check_finds_a_broken_link_and_anchor() {
    let dir = std::env::temp_dir().join(format!("ebony-docs-links-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("a temporary folder");
    let page = dir.join("page.md");
    let text = "# A page\n\n## Two words, here\n\n[ok](page.md#two-words-here) [self](#a-page) \
                [file](missing.md) [anchor](page.md#no-such-heading) `[code](nowhere.md)`\n";
    fs::write(&page, text).expect("the page writes");
    let faults = broken_links(std::slice::from_ref(&page));
    fs::remove_dir_all(&dir).ok();
    assert_eq!(faults.len(), 2, "expected the missing file and the missing anchor: {faults:?}");
    assert!(faults[0].contains("missing.md") && faults[1].contains("no-such-heading"), "{faults:?}");
    assert!(names_a_date("| perft 12 | 2026-12-07 |") && !names_a_date("| perft 12 | 12-07 |"));
}
