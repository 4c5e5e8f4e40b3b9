//! Ctrl-C at a terminal: a handler that only records the key, for the native protocol's loop and
//! searches to act on (stop the search, or quit when pressed twice at the prompt). Installed only for
//! a person at a terminal: in a pipe, SIGINT keeps its default and ends the process, as a script
//! expects. No crate: the one C function each system offers for it, declared here.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the handler, taken by the loop: a Ctrl-C not yet acted on.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Catches Ctrl-C from now on; whether the system took the handler.
pub fn install() -> bool {
    INTERRUPTED.store(false, Ordering::SeqCst);
    os::install()
}

/// Whether Ctrl-C was pressed since the last call (it is then forgotten).
pub fn take() -> bool {
    INTERRUPTED.swap(false, Ordering::SeqCst)
}

#[cfg(unix)]
mod os {
    use super::INTERRUPTED;
    use std::sync::atomic::Ordering;

    /// The same number on Linux (every architecture), the BSDs and macOS.
    const SIGINT: i32 = 2;
    /// `SIG_ERR`, `(sighandler_t) -1`.
    const SIG_ERR: usize = usize::MAX;

    extern "C" {
        /// C's `signal`: glibc and the BSDs give it BSD semantics (the handler stays, and a read
        /// interrupted by it restarts), which is what is needed here.
        fn signal(signum: i32, handler: extern "C" fn(i32)) -> usize;
    }

    /// Only an atomic store: the one kind of work a signal handler may do.
    extern "C" fn on_interrupt(_: i32) {
        INTERRUPTED.store(true, Ordering::SeqCst);
    }

    pub fn install() -> bool {
        // SAFETY: `signal` is given a valid handler that does nothing but an atomic store, which is
        // async-signal-safe.
        unsafe { signal(SIGINT, on_interrupt) != SIG_ERR }
    }
}

#[cfg(windows)]
mod os {
    use super::INTERRUPTED;
    use std::sync::atomic::Ordering;

    /// `CTRL_C_EVENT`: the other events (Ctrl-Break, the window closed) keep their default.
    const CTRL_C_EVENT: u32 = 0;

    #[link(name = "kernel32")]
    extern "system" {
        fn SetConsoleCtrlHandler(handler: Option<extern "system" fn(u32) -> i32>, add: i32) -> i32;
    }

    /// Called on a thread of its own by the system: records Ctrl-C and says it was handled.
    extern "system" fn on_event(kind: u32) -> i32 {
        if kind == CTRL_C_EVENT {
            INTERRUPTED.store(true, Ordering::SeqCst);
            1
        } else {
            0
        }
    }

    pub fn install() -> bool {
        // SAFETY: the handler is a valid function for the life of the process.
        unsafe { SetConsoleCtrlHandler(Some(on_event), 1) != 0 }
    }
}

#[cfg(not(any(unix, windows)))]
mod os {
    pub fn install() -> bool {
        false
    }
}
