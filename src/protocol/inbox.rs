//! The input queue every front end shares: lines from the reader thread, with the ones read while a
//! search ran kept in order for after it, and a look at new lines so the search's observer can stop.

use crate::protocol::io::Input;
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::Duration;

/// Whether a front end's loop goes on after a line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    Exit,
}

/// A front end as its input loop sees it.
pub trait Frontend {
    fn inbox(&mut self) -> &mut Inbox;
    /// Answers one line.
    fn line(&mut self, line: &str) -> Flow;
    /// Answers a line the reader dropped for its length.
    fn too_long(&mut self, length: usize);
    /// Answers, once, `count` lines dropped because too many waited during a search.
    fn dropped(&mut self, count: usize);
    /// The next input to answer, waiting for one (a front end for a person prompts here).
    fn next_input(&mut self) -> Input {
        self.inbox().next_input()
    }
}

/// Most lines that wait for a search to end; past [`MAX_PENDING_LINES`] lines or
/// [`MAX_PENDING_BYTES`] bytes, lines that would wait are dropped (and answered by one error line in
/// their place). The reader thread is never blocked during a search, so `stop` and `quit` still
/// get through; outside searches the bounded channel holds the reader back instead.
pub const MAX_PENDING_LINES: usize = 1024;
/// Most bytes of text that wait for a search to end (see [`MAX_PENDING_LINES`]).
pub const MAX_PENDING_BYTES: usize = 4 << 20;

/// Answers lines, those queued during searches first, until the front end exits or input ends.
pub fn serve(frontend: &mut impl Frontend) {
    loop {
        let flow = match frontend.next_input() {
            Input::Line(line) => frontend.line(&line),
            Input::TooLong(length) => {
                frontend.too_long(length);
                Flow::Continue
            }
            Input::Dropped(count) => {
                frontend.dropped(count);
                Flow::Continue
            }
            Input::Eof => Flow::Exit,
        };
        if flow == Flow::Exit {
            return;
        }
    }
}

pub struct Inbox {
    rx: Receiver<Input>,
    /// Read from the channel but not yet handled, oldest first.
    pending: VecDeque<Input>,
    /// Bytes of the lines in `pending`.
    pending_bytes: usize,
    /// End of input has been queued: the channel has nothing more.
    closed: bool,
}

impl Inbox {
    pub fn new(rx: Receiver<Input>) -> Inbox {
        Inbox { rx, pending: VecDeque::new(), pending_bytes: 0, closed: false }
    }

    /// The next input, waiting for one; a closed channel reads as end of input.
    pub fn next_input(&mut self) -> Input {
        if let Some(input) = self.pending.pop_front() {
            if let Input::Line(line) = &input {
                self.pending_bytes -= line.len();
            }
            return input;
        }
        if self.closed {
            return Input::Eof;
        }
        self.rx.recv().unwrap_or(Input::Eof)
    }

    /// The next input if one comes within `wait`; a closed channel reads as end of input.
    pub fn next_within(&mut self, wait: Duration) -> Option<Input> {
        if !self.pending.is_empty() || self.closed {
            return Some(self.next_input());
        }
        match self.rx.recv_timeout(wait) {
            Ok(input) => Some(input),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Input::Eof),
        }
    }

    /// Moves what has arrived into the queue without waiting and tells whether any new input makes
    /// `interrupts` true (end of input always does).
    pub fn poll(&mut self, interrupts: impl Fn(&str) -> bool) -> bool {
        let hit = self.drain(|line, _| Arrival { queue: true, interrupt: interrupts(line) });
        hit || self.closed
    }

    /// Hands each line that has arrived to `handle` without waiting, with whether the queue is empty
    /// (a line answered at once keeps its place in the reply order only then), and queues the lines it
    /// asks to. Stops at the first line that interrupts, leaving later ones in the channel, and tells
    /// whether one did. Lines too long and the end of input are queued for the loop. Past the bound
    /// ([`MAX_PENDING_LINES`], [`MAX_PENDING_BYTES`]) a line to queue that does not interrupt is
    /// dropped and counted in one [`Input::Dropped`] in its place.
    pub fn drain(&mut self, mut handle: impl FnMut(&str, bool) -> Arrival) -> bool {
        while !self.closed {
            let input = match self.rx.try_recv() {
                Ok(input) => input,
                Err(TryRecvError::Empty) => return false,
                Err(TryRecvError::Disconnected) => Input::Eof,
            };
            if let Input::Line(line) = &input {
                let arrival = handle(line, self.pending.is_empty());
                if arrival.queue {
                    self.queue(input, arrival.interrupt);
                }
                if arrival.interrupt {
                    return true;
                }
                continue;
            }
            self.closed = input == Input::Eof;
            self.pending.push_back(input);
        }
        false
    }

    /// Keeps a line for the loop, or drops it when too much waits (a line that interrupts is kept: it
    /// is the last one read before the search ends).
    fn queue(&mut self, input: Input, interrupt: bool) {
        let Input::Line(line) = &input else {
            return self.pending.push_back(input);
        };
        let full = self.pending.len() >= MAX_PENDING_LINES || self.pending_bytes + line.len() > MAX_PENDING_BYTES;
        if !full || interrupt {
            self.pending_bytes += line.len();
            return self.pending.push_back(input);
        }
        match self.pending.back_mut() {
            Some(Input::Dropped(count)) => *count += 1,
            _ => self.pending.push_back(Input::Dropped(1)),
        }
    }

    /// True once the end of input has been read (it may still wait in the queue).
    pub fn is_closed(&self) -> bool {
        self.closed
    }
}

/// What a front end makes of a line that arrives during a search.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Arrival {
    /// Keep the line for the loop, after the search.
    pub queue: bool,
    /// Stop the search.
    pub interrupt: bool,
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn polled_lines_come_back_in_order_and_eof_interrupts() {
        let (tx, rx) = mpsc::channel();
        let mut inbox = Inbox::new(rx);
        tx.send(Input::Line("set depth 3".into())).unwrap();
        assert!(!inbox.poll(|l| l.starts_with("ping")));
        tx.send(Input::Line("ping 1".into())).unwrap();
        assert!(inbox.poll(|l| l.starts_with("ping")));
        drop(tx);
        assert!(inbox.poll(|_| false));
        assert_eq!(inbox.next_input(), Input::Line("set depth 3".into()));
        assert_eq!(inbox.next_input(), Input::Line("ping 1".into()));
        assert_eq!(inbox.next_input(), Input::Eof);
        assert_eq!(inbox.next_input(), Input::Eof);
    }

    #[test]
    fn lines_past_the_bound_are_dropped_and_counted_in_their_place() {
        let (tx, rx) = mpsc::channel();
        let mut inbox = Inbox::new(rx);
        for i in 0..MAX_PENDING_LINES + 5 {
            tx.send(Input::Line(format!("line {i}"))).unwrap();
        }
        tx.send(Input::Line("stop".into())).unwrap();
        tx.send(Input::Line("after".into())).unwrap();
        assert!(inbox.poll(|l| l == "stop"));
        for i in 0..MAX_PENDING_LINES {
            assert_eq!(inbox.next_input(), Input::Line(format!("line {i}")));
        }
        assert_eq!(inbox.next_input(), Input::Dropped(5));
        assert_eq!(inbox.next_input(), Input::Line("stop".into()));
        assert_eq!(inbox.next_input(), Input::Line("after".into()));
        assert_eq!(inbox.pending_bytes, 0);
    }

    #[test]
    fn the_bound_counts_bytes_too() {
        let (tx, rx) = mpsc::channel();
        let mut inbox = Inbox::new(rx);
        let big = "x".repeat(MAX_PENDING_BYTES / 2);
        for _ in 0..3 {
            tx.send(Input::Line(big.clone())).unwrap();
        }
        assert!(!inbox.poll(|_| false));
        assert_eq!(inbox.pending.len(), 3, "two lines and the count of the one dropped");
        assert_eq!(inbox.pending.back(), Some(&Input::Dropped(1)));
    }
}
