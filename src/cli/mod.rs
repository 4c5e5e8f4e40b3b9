//! The command-line tools behind `ebony`'s subcommands: perft, bench, solve and book (each parses nothing: `main.rs`
//! hands them clap's values, they print their report).

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
