//! The command-line tools behind `ebony`'s subcommands: perft, bench, solve and book (each parses nothing: `main.rs`
//! hands them clap's values, they print their report), and what every command line of the project
//! (`ebony`, `ebony-train`) does with clap's help, version and usage errors.

/// `println!` for the reports: a closed pipe (`ebony book stats | head -3`) ends the process quietly
/// with status 0, as the reader asked for no more; any other failed write (a full disk) ends it with
/// status 1 and one line on stderr. Never a panic.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::say_line(format_args!($($arg)*))
    };
}

/// `eprintln!` for progress and errors, without its panic when stderr is closed (see
/// [`crate::protocol::io::note`]).
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::protocol::io::note(format_args!($($arg)*))
    };
}

pub mod bench;
pub mod book;
pub mod perft;
pub mod solve;

/// The exit status of a usage error (a bad argument, a file that cannot be read or used), as clap
/// gives for the arguments it checks itself: the same for every subcommand.
pub const USAGE: u8 = 2;

/// One error line on stderr and the usage error status.
pub fn usage_error(message: impl std::fmt::Display) -> std::process::ExitCode {
    crate::protocol::io::note(format_args!("error: {message}"));
    std::process::ExitCode::from(USAGE)
}

/// Writes one line of a report on stdout; see `say!`.
pub fn say_line(line: std::fmt::Arguments) {
    use std::io::Write;
    match writeln!(std::io::stdout().lock(), "{line}") {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            crate::protocol::io::note(format_args!("error: cannot write the output ({e}); ending"));
            std::process::exit(1);
        }
    }
}

/// The widest line of a command line's `--help`, whatever the terminal.
pub const HELP_WIDTH: usize = 100;

/// Ends the process for what clap returned instead of arguments: help or the version on stdout
/// (status 0, the help wrapped at [`HELP_WIDTH`], a closed pipe quiet as for [`say_line`]), or a
/// usage error as one line on stderr and clap's hint (`For more information, try '--help'.`), status
/// [`USAGE`]. Help asked for by a missing subcommand goes to stderr with that status.
pub fn clap_exit(error: clap::Error) -> ! {
    use clap::error::ErrorKind;
    let text = error.render().to_string();
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            for line in wrap_help(&text, HELP_WIDTH) {
                say_line(format_args!("{line}"));
            }
            std::process::exit(0)
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            for line in wrap_help(&text, HELP_WIDTH) {
                crate::protocol::io::note(line);
            }
        }
        _ => {
            for line in usage_error_lines(&text) {
                crate::protocol::io::note(line);
            }
        }
    }
    std::process::exit(USAGE.into())
}

/// A usage error as clap renders it (the message, a list of arguments below it, tips, the usage,
/// the hint, in paragraphs) made one line, then the hint: `error: the following required arguments
/// were not provided: --out <FILE>; tip: ...`.
fn usage_error_lines(rendered: &str) -> Vec<String> {
    let (mut message, mut hint, mut in_usage) = (String::new(), None, false);
    for line in rendered.lines() {
        let trimmed = line.trim();
        in_usage = line.starts_with("Usage:") || (in_usage && line.starts_with(' ') && !trimmed.is_empty());
        if trimmed.is_empty() || in_usage {
            continue;
        }
        if trimmed.starts_with("For more information") {
            hint = Some(trimmed.to_string());
            continue;
        }
        // A list below the message (`  --out <FILE>`) follows its colon; a note (`[possible
        // values: 1, 2]`) follows the message as clap prints it on one line when it fits.
        let separator = if message.is_empty() {
            ""
        } else if trimmed.starts_with("tip:") {
            "; "
        } else if message.ends_with(':') || trimmed.starts_with('[') {
            " "
        } else {
            ", "
        };
        message.push_str(separator);
        message.push_str(trimmed);
    }
    std::iter::once(message).chain(hint).collect()
}

/// Help text as clap renders it, each line longer than `width` broken at spaces (never before a
/// word starting with `-` when another space will do), the rest indented to where the line's text
/// starts: after the two spaces that follow an argument (`--depth <DEPTH>  text`), else at the
/// line's own indent.
///
/// clap wraps help only with its `wrap_help` feature, which brings a crate to measure the terminal
/// and its system dependencies; the width is fixed here whatever the terminal, so nothing needs
/// measuring.
pub fn wrap_help(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for line in text.trim_end().lines() {
        let column = help_column(line);
        let mut rest = line.trim_end().to_string();
        while rest.chars().count() > width {
            // The last space that leaves at most `width` characters before it, after the column,
            // and does not start a line with `-` (which would read as an option's entry).
            let limit = rest.char_indices().nth(width).map_or(rest.len(), |(i, _)| i);
            let spaces = rest[..limit].match_indices(' ').map(|(i, _)| i).rev();
            let mut cuts = spaces.filter(|&i| i > column && !rest[column..i].trim().is_empty());
            let Some(cut) = cuts.clone().find(|&i| !rest[i..].trim_start().starts_with('-')).or_else(|| cuts.next())
            else {
                break;
            };
            lines.push(rest[..cut].trim_end().to_string());
            rest = format!("{}{}", " ".repeat(column), rest[cut..].trim_start());
        }
        lines.push(rest);
    }
    lines
}

/// The column where a help line's text starts: see [`wrap_help`].
fn help_column(line: &str) -> usize {
    let body = line.trim_start();
    let indent = line.len() - body.len();
    if indent == 0 {
        return 0;
    }
    match body.find("  ") {
        Some(gap) => {
            let after = &body[gap..];
            indent + gap + (after.len() - after.trim_start().len())
        }
        None if body.starts_with("- ") => indent + 2,
        None => indent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_wraps_under_its_argument() {
        let line = format!("      --depth <DEPTH>  {}", "word ".repeat(30));
        let wrapped = wrap_help(&line, 60);
        assert!(wrapped.len() > 1 && wrapped.iter().all(|l| l.chars().count() <= 60), "{wrapped:?}");
        assert!(wrapped[1..].iter().all(|l| l.starts_with(&format!("{}word", " ".repeat(23)))), "{wrapped:?}");
        assert_eq!(wrap_help(&"x ".repeat(40), 60).len(), 2);
        assert_eq!(wrap_help("short\n\nlines\n", 60), ["short", "", "lines"]);
    }

    #[test]
    fn a_usage_error_is_one_line_and_the_hint() {
        let rendered = "error: the following required arguments were not provided:\n  --out <FILE>\n  --games <N>\n\n\
                        Usage: ebony-train gen --out <FILE> --games <N>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            usage_error_lines(rendered),
            [
                "error: the following required arguments were not provided: --out <FILE>, --games <N>",
                "For more information, try '--help'."
            ]
        );
        let rendered = "error: unexpected argument '--protocl' found\n\n  tip: a similar argument exists: \
                        '--protocol'\n\nUsage: ebony --protocol <PROTOCOL>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            usage_error_lines(rendered)[0],
            "error: unexpected argument '--protocl' found; tip: a similar argument exists: '--protocol'"
        );
    }
}
