//! Line I/O shared by every front end: a reader thread turning stdin into a channel of lines (so a
//! running search can poll for `stop`), and one writer that flushes each protocol line.

use std::io::{self, BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::thread;

/// Longest line taken, in bytes, its newline (`\n` or `\r\n`) included; a longer line is read to its
/// end and dropped whole.
pub const MAX_LINE: usize = 64 * 1024;
/// Lines read ahead of the loop by the reader thread: past this the reader waits (back-pressure on the
/// writer of the input), so what is in flight stays under `CHANNEL_LINES * MAX_LINE` bytes.
pub const CHANNEL_LINES: usize = 16;

/// What the reader thread delivers.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Input {
    /// One line without its `\n` or `\r\n`; bytes that are not UTF-8 become U+FFFD.
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes (its length), dropped whole.
    TooLong(usize),
    /// Lines the inbox dropped because too many waited while a search ran (how many); never sent by
    /// the reader, it takes the dropped lines' place in the queue.
    Dropped(usize),
    /// End of input (or a read error, logged).
    Eof,
}

/// Reads `reader` line by line on its own thread until end of input, which it sends as `Input::Eof`.
/// Fails only when the thread cannot be started.
pub fn spawn_reader<R: BufRead + Send + 'static>(mut reader: R) -> io::Result<Receiver<Input>> {
    let (tx, rx) = mpsc::sync_channel(CHANNEL_LINES);
    thread::Builder::new().name("stdin".into()).spawn(move || loop {
        let input = read_line(&mut reader);
        let eof = input == Input::Eof;
        if tx.send(input).is_err() || eof {
            break;
        }
    })?;
    Ok(rx)
}

/// Reads the standard input on its own thread.
pub fn spawn_stdin_reader() -> io::Result<Receiver<Input>> {
    spawn_reader(io::BufReader::new(Watched(io::stdin())))
}

/// The reader thread holds bytes of standard input it has not yet sent on as lines.
static IN_HAND: AtomicBool = AtomicBool::new(false);

/// Standard input, telling [`IN_HAND`] when bytes leave the system for the reader thread: a read is
/// asked for once the lines read before have all been sent.
struct Watched<R>(R);

impl<R: Read> Read for Watched<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        IN_HAND.store(false, Ordering::SeqCst);
        let n = self.0.read(buf)?;
        IN_HAND.store(n > 0, Ordering::SeqCst);
        Ok(n)
    }
}

/// Whether a line typed at the terminal may be on its way to the channel: complete in the system's
/// buffer (Enter pressed, the cursor already moved down) or read and not yet sent. Looked at before
/// the channel, so that a line is seen in one place or the other, except in the instant between the
/// system's copy and `IN_HAND` being set.
pub fn line_on_its_way() -> bool {
    IN_HAND.load(Ordering::SeqCst) || os::line_waiting()
}

#[cfg(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64")))]
mod os {
    /// `FIONREAD` (`TIOCINQ`) of the generic Linux ioctls: for a terminal in its line mode, the
    /// bytes of the whole lines waiting to be read.
    const FIONREAD: std::ffi::c_ulong = 0x541B;

    extern "C" {
        fn ioctl(fd: i32, request: std::ffi::c_ulong, ...) -> i32;
    }

    pub fn line_waiting() -> bool {
        let mut waiting: i32 = 0;
        // SAFETY: FIONREAD writes one int through the pointer, which points to one.
        let status = unsafe { ioctl(0, FIONREAD, &mut waiting as *mut i32) };
        status == 0 && waiting > 0
    }
}

/// Elsewhere only the reader thread's own account is known.
#[cfg(not(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64"))))]
mod os {
    pub fn line_waiting() -> bool {
        false
    }
}

/// Reads one line, keeping at most [`MAX_LINE`] bytes of it in memory.
pub fn read_line<R: BufRead>(reader: &mut R) -> Input {
    let mut line = Vec::new();
    let mut length = 0usize;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("reading input: {e}");
                return Input::Eof;
            }
        };
        if buf.is_empty() {
            if length == 0 {
                return Input::Eof;
            }
            break;
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1),
            None => (buf, buf.len()),
        };
        let newline = done > chunk.len();
        length += chunk.len();
        if length <= MAX_LINE {
            line.extend_from_slice(chunk);
        }
        reader.consume(done);
        if newline {
            length += 1;
            break;
        }
    }
    if length > MAX_LINE {
        return Input::TooLong(length);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Input::Line(String::from_utf8_lossy(&line).into_owned())
}

/// `text` with its control characters escaped (`\r` as `\\r`, ESC as `\\u{1b}`) and nothing else
/// changed: whatever input a reply echoes, it stays one line and cannot drive a terminal.
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// Writes one line on standard error. It never fails and never panics (as `eprintln!` does when
/// standard error is a closed pipe, which with `panic = "abort"` kills the process): a message nobody
/// can read is dropped.
pub fn note(line: impl std::fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// The one writer of protocol lines: each line is written whole and flushed at once, so a GUI or
/// referee reading the pipe never waits on a buffer.
pub struct Output<W: Write> {
    out: W,
    /// Where a terminal's progress line is.
    live: Live,
    /// The cursor's line holds a prompt no input followed, or the terminal's echo of Ctrl-C: the
    /// next line starts below it.
    row_taken: bool,
}

/// The progress line of a search at a terminal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Live {
    /// None on screen (the next one opens a line).
    None,
    /// On the line just above the cursor, where it is rewritten.
    Above,
    /// Left as it stands: a line was typed below it (see [`Output::freeze`]).
    Frozen,
}

impl Output<io::Stdout> {
    pub fn stdout() -> Output<io::Stdout> {
        Output::new(io::stdout())
    }
}

impl<W: Write> Output<W> {
    pub fn new(out: W) -> Output<W> {
        Output { out, live: Live::None, row_taken: false }
    }

    /// Shows a search's progress on one line of a terminal, rewritten as the search deepens; it
    /// stays on screen, and the next [`Output::line`] goes below it.
    ///
    /// The input is read line by line in the terminal's own line mode (the system echoes and edits
    /// what is typed, and ebony sees nothing before Enter), so ebony can neither know that a key was
    /// typed nor redraw a half-typed line. The progress line is therefore never the line the cursor
    /// is on: it is written once with its newline, then rewritten in place on the line above the
    /// cursor (cursor saved, moved up, restored), so keys typed meanwhile, echoed at the cursor, are
    /// never touched. Once a whole line has been typed ([`Output::freeze`]) the line above the cursor
    /// is no longer the progress line, and it is left as it stands. One race is left: a rewrite
    /// between the Enter (the terminal moves the cursor down at once) and the line reaching the loop
    /// would land on the line typed. Before each rewrite the loop asks [`line_on_its_way`], which closes
    /// it but for an instant; raw mode with ebony's own line editing would close it whole at the
    /// cost of owning the terminal's state, which a crash would leave broken.
    pub fn progress(&mut self, text: impl std::fmt::Display) {
        match self.live {
            Live::None => {
                self.end_row();
                self.live = Live::Above;
                self.write(format_args!("{text}\n"));
            }
            // The first column by `CSI G`, not a carriage return: the system writes a run of
            // ordinary bytes to the terminal in one piece, but stops at a carriage return, where the
            // echo of a key typed meanwhile could land inside the rewrite.
            Live::Above => self.write(format_args!("\x1b7\x1b[A\x1b[G{text}\x1b[K\x1b8")),
            Live::Frozen => {}
        }
    }

    /// Stops rewriting the progress line: a line was typed under it.
    pub fn freeze(&mut self) {
        if self.live == Live::Above {
            self.live = Live::Frozen;
        }
    }

    /// Writes a terminal's prompt (no newline): what is typed next follows it on its line.
    pub fn prompt(&mut self, text: impl std::fmt::Display) {
        self.end_row();
        self.row_taken = true;
        self.write(format_args!("{text}"));
    }

    /// Input came after the prompt: the terminal's echo of its Enter ended the prompt's line.
    pub fn answered(&mut self) {
        self.row_taken = false;
    }

    /// The terminal echoed Ctrl-C (`^C`) at the cursor: what follows starts on the next line.
    pub fn echoed(&mut self) {
        self.row_taken = true;
    }

    /// Ends the line of a prompt no input followed, or of an echoed Ctrl-C, before anything else.
    pub fn end_row(&mut self) {
        if std::mem::take(&mut self.row_taken) {
            self.write(format_args!("\n"));
        }
    }

    /// Writes one line and flushes. The output is the engine's only channel: once a write fails (the
    /// reader closed the pipe, the disk is full) nothing the engine does can reach anybody, so the
    /// process ends at once with status 1 after one line on stderr (a search under way ends with it).
    pub fn line(&mut self, line: impl std::fmt::Display) {
        log::debug!("> {line}");
        self.live = Live::None;
        self.end_row();
        self.write(format_args!("{line}\n"));
    }

    /// Writes and flushes, or ends the process (see [`Output::line`]).
    fn write(&mut self, text: std::fmt::Arguments) {
        if let Err(e) = self.out.write_fmt(text).and_then(|()| self.out.flush()) {
            note(format_args!("error: cannot write the output ({e}); ending"));
            std::process::exit(1);
        }
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn read_all(bytes: &[u8]) -> Vec<Input> {
        let mut reader = io::Cursor::new(bytes.to_vec());
        let mut out = Vec::new();
        loop {
            let input = read_line(&mut reader);
            let eof = input == Input::Eof;
            out.push(input);
            if eof {
                return out;
            }
        }
    }

    #[test]
    fn splits_lines_and_strips_crlf() {
        let got = read_all(b"go\r\n\nmove f5\nlast");
        let want = ["go", "", "move f5", "last"].map(|s| Input::Line(s.to_string()));
        assert_eq!(&got[..4], &want);
        assert_eq!(got[4], Input::Eof);
    }

    #[test]
    fn long_lines_are_dropped_whole_and_reading_goes_on() {
        let mut bytes = vec![b'x'; MAX_LINE * 3];
        bytes.extend_from_slice(b"\nping 1\n");
        let got = read_all(&bytes);
        assert_eq!(got, vec![Input::TooLong(MAX_LINE * 3 + 1), Input::Line("ping 1".into()), Input::Eof]);
    }

    #[test]
    fn the_newline_counts_in_the_line_length() {
        let mut bytes = vec![b' '; MAX_LINE - 1];
        bytes.extend_from_slice(b"\n");
        bytes.extend(vec![b' '; MAX_LINE]);
        bytes.extend_from_slice(b"\n");
        let got = read_all(&bytes);
        assert_eq!(got[0], Input::Line(" ".repeat(MAX_LINE - 1)));
        assert_eq!(got[1], Input::TooLong(MAX_LINE + 1));
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape_controls("GM[a\rb\u{1b}[2J]\u{7f}é"), "GM[a\\rb\\u{1b}[2J]\\u{7f}é");
    }

    #[test]
    fn binary_bytes_become_replacement_characters() {
        let got = read_all(b"\xff\xfe\n");
        assert_eq!(got[0], Input::Line("\u{fffd}\u{fffd}".into()));
    }
}
