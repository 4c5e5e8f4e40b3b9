//! The command-line tools behind `ebony`'s subcommands: perft, bench, solve and book (each parses nothing: `main.rs`
//! hands them clap's values, they print their report).

/// `println!` for the reports: a failed write (a closed pipe, as in `ebony bench | head -1`) ends the
/// process with status 1 and one line on stderr instead of a panic with a backtrace.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::say_line(format_args!($($arg)*))
    };
}

pub mod bench;
pub mod book;
pub mod perft;
pub mod solve;

/// Writes one line of a report on stdout; see [`say!`].
pub fn say_line(line: std::fmt::Arguments) {
    use std::io::Write;
    if writeln!(std::io::stdout().lock(), "{line}").is_err() {
        eprintln!("error: cannot write the output; ending");
        std::process::exit(1);
    }
}
