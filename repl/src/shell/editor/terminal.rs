//! The terminal the editor works on: standard input and output, or `/dev/tty` when standard
//! output is not a terminal (results go down the pipe, the editor's escape sequences to the
//! terminal). Raw mode (termios, through `nix`) lasts while a line is read and is undone by
//! [`RawMode`]'s drop and, should the program panic, by a panic hook. Bytes are read into a
//! buffer that outlives each line: what was typed ahead is read by the next line.
//!
//! A window size change (`SIGWINCH`) sets a flag and interrupts the read, so the editor can
//! draw again at the new width.

use std::fs::File;
use std::io::Write as _;
use std::os::fd::{AsFd, BorrowedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};

use nix::errno::Errno;
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::signal::{sigaction, SaFlags, SigAction, SigHandler, SigSet, Signal};
use nix::sys::termios::{self, SetArg, Termios};

/// Set by `SIGWINCH`.
static RESIZED: AtomicBool = AtomicBool::new(false);

/// The terminal settings to restore if the program panics in raw mode.
static SAVED: Mutex<Option<(i32, Termios)>> = Mutex::new(None);

extern "C" fn on_winch(_: nix::libc::c_int) {
    RESIZED.store(true, Ordering::SeqCst);
}

/// Installs the `SIGWINCH` handler and the panic hook that restores the terminal, once.
fn install_handlers() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // No SA_RESTART: a read waiting for a key returns, and the editor redraws.
        let action = SigAction::new(SigHandler::Handler(on_winch), SaFlags::empty(), SigSet::empty());
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
        let _ = unsafe { sigaction(Signal::SIGWINCH, &action) };
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_saved();
            previous(info);
        }));
    });
}

fn restore_saved() {
    let saved = SAVED.lock().ok().and_then(|mut s| s.take());
    if let Some((fd, settings)) = saved {
        // SAFETY: the descriptor was open while raw mode was on, and raw mode ends before
        // the terminal is closed.
        let fd = unsafe { BorrowedFd::borrow_raw(fd) };
        let _ = termios::tcsetattr(fd, SetArg::TCSADRAIN, &settings);
    }
}

/// The descriptor keys come from: the terminal opened, or standard input.
fn input_of(tty: &Option<File>) -> BorrowedFd<'_> {
    match tty {
        Some(tty) => tty.as_fd(),
        None => {
            // SAFETY: standard input stays open for the life of the program.
            unsafe { BorrowedFd::borrow_raw(0) }
        }
    }
}

/// Where the editor reads keys and writes its frames.
pub struct Terminal {
    /// `/dev/tty`, when standard output is not the terminal.
    tty: Option<File>,
    /// Bytes read and not decoded yet.
    pub pending: Vec<u8>,
}

/// What a read brought.
pub enum Input {
    /// More bytes are in [`Terminal::pending`].
    Bytes,
    /// Nothing came within the wait asked for.
    Timeout,
    /// The window changed size.
    Resized,
    /// The terminal closed.
    Closed,
}

impl Terminal {
    /// The terminal: standard input and output, or `/dev/tty` when `use_tty`.
    pub fn open(use_tty: bool) -> std::io::Result<Terminal> {
        install_handlers();
        let tty =
            if use_tty { Some(std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty")?) } else { None };
        Ok(Terminal { tty, pending: Vec::new() })
    }

    fn input_fd(&self) -> BorrowedFd<'_> {
        input_of(&self.tty)
    }

    /// The terminal's width in columns (80 when it cannot be told).
    pub fn columns(&self) -> usize {
        let size = match &self.tty {
            Some(tty) => terminal_size::terminal_size_of(tty),
            None => terminal_size::terminal_size_of(std::io::stdout()),
        };
        size.map_or(80, |(w, _)| usize::from(w.0)).max(1)
    }

    /// Switches to raw mode until the guard is dropped.
    pub fn raw(&self) -> std::io::Result<RawMode> {
        let fd = self.input_fd();
        let saved = termios::tcgetattr(fd)?;
        let mut raw = saved.clone();
        termios::cfmakeraw(&mut raw);
        // TCSANOW: typeahead stays.
        termios::tcsetattr(fd, SetArg::TCSANOW, &raw)?;
        use std::os::fd::AsRawFd;
        if let Ok(mut s) = SAVED.lock() {
            *s = Some((fd.as_raw_fd(), saved.clone()));
        }
        Ok(RawMode { fd: fd.as_raw_fd(), saved })
    }

    /// Writes bytes to the terminal, at once.
    pub fn write(&self, bytes: &[u8]) -> std::io::Result<()> {
        match &self.tty {
            Some(tty) => {
                let mut tty: &File = tty;
                tty.write_all(bytes)?;
                tty.flush()
            }
            None => {
                let mut out = std::io::stdout().lock();
                out.write_all(bytes)?;
                out.flush()
            }
        }
    }

    /// Reads what is there into [`Terminal::pending`], waiting at most `wait_ms` (forever
    /// when `None`).
    pub fn read(&mut self, wait_ms: Option<u16>) -> std::io::Result<Input> {
        if RESIZED.swap(false, Ordering::SeqCst) {
            return Ok(Input::Resized);
        }
        let fd = input_of(&self.tty);
        let mut fds = [PollFd::new(fd, PollFlags::POLLIN)];
        let timeout = wait_ms.map_or(PollTimeout::NONE, PollTimeout::from);
        match poll(&mut fds, timeout) {
            Ok(0) => return Ok(Input::Timeout),
            Ok(_) => {}
            Err(Errno::EINTR) => {
                return Ok(if RESIZED.swap(false, Ordering::SeqCst) { Input::Resized } else { Input::Timeout });
            }
            Err(e) => return Err(e.into()),
        }
        let mut chunk = [0u8; 4096];
        match nix::unistd::read(fd, &mut chunk) {
            Ok(0) => Ok(Input::Closed),
            Ok(n) => {
                self.pending.extend_from_slice(&chunk[..n]);
                Ok(Input::Bytes)
            }
            Err(Errno::EINTR | Errno::EAGAIN) => Ok(Input::Timeout),
            Err(e) => Err(e.into()),
        }
    }
}

/// Raw mode, on while it lives.
pub struct RawMode {
    /// The terminal's descriptor, open as long as the [`Terminal`] is.
    fd: i32,
    saved: Termios,
}

impl Drop for RawMode {
    fn drop(&mut self) {
        // SAFETY: the terminal outlives its raw mode (the editor drops the guard first).
        let fd = unsafe { BorrowedFd::borrow_raw(self.fd) };
        let _ = termios::tcsetattr(fd, SetArg::TCSADRAIN, &self.saved);
        if let Ok(mut s) = SAVED.lock() {
            *s = None;
        }
    }
}
