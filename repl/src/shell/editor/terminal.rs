//! The terminal the editor works on: standard input and output, or `/dev/tty` when standard
//! output is not a terminal (results go down the pipe, the editor's escape sequences to the
//! terminal). Raw mode (termios, through `nix`) lasts while a line is read and is undone by
//! [`RawMode`]'s drop and, should the program panic, by a panic hook. Bytes are read into a
//! buffer that outlives each line: what was typed ahead is read by the next line.
//!
//! A window size change (`SIGWINCH`) sets a flag and wakes the read through a pipe the
//! handler writes to (the signal may be delivered to any thread, such as the main thread
//! waiting for the shell's), so the editor can draw again at the new size.

use std::fs::File;
use std::io::Write as _;
use std::os::fd::{AsFd, BorrowedFd};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, Once};

use nix::errno::Errno;
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::signal::{sigaction, SaFlags, SigAction, SigHandler, SigSet, Signal};
use nix::sys::termios::{self, SetArg, Termios};

/// Set by `SIGWINCH`.
static RESIZED: AtomicBool = AtomicBool::new(false);

/// The pipe `SIGWINCH` writes a byte to (its write end) and a read waits on (its read
/// end); -1 until the handler is installed.
static WAKE: [AtomicI32; 2] = [AtomicI32::new(-1), AtomicI32::new(-1)];

/// The terminal settings to restore if the program panics in raw mode.
static SAVED: Mutex<Option<(i32, Termios)>> = Mutex::new(None);

extern "C" fn on_winch(_: nix::libc::c_int) {
    RESIZED.store(true, Ordering::SeqCst);
    let fd = WAKE[1].load(Ordering::SeqCst);
    if fd >= 0 {
        // SAFETY: write(2) is async-signal-safe; the pipe lives as long as the program, and
        // is non-blocking (a full pipe already wakes the read).
        let _ = unsafe { nix::libc::write(fd, [1u8].as_ptr().cast(), 1) };
    }
}

/// Installs the `SIGWINCH` handler and the panic hook that restores the terminal, once.
fn install_handlers() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        use nix::fcntl::OFlag;
        use std::os::fd::IntoRawFd;
        if let Ok((read, write)) = nix::unistd::pipe2(OFlag::O_NONBLOCK | OFlag::O_CLOEXEC) {
            WAKE[0].store(read.into_raw_fd(), Ordering::SeqCst);
            WAKE[1].store(write.into_raw_fd(), Ordering::SeqCst);
        }
        // No SA_RESTART: a read waiting for a key in this thread returns too.
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
        self.size().map_or(80, |(w, _)| usize::from(w.0)).max(1)
    }

    /// The terminal's height in rows (0 when it cannot be told).
    pub fn rows(&self) -> usize {
        self.size().map_or(0, |(_, h)| usize::from(h.0))
    }

    fn size(&self) -> Option<(terminal_size::Width, terminal_size::Height)> {
        match &self.tty {
            Some(tty) => terminal_size::terminal_size_of(tty),
            None => terminal_size::terminal_size_of(std::io::stdout()),
        }
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
        let wake = WAKE[0].load(Ordering::SeqCst);
        // SAFETY: the wake pipe's read end, once made, stays open for the life of the program.
        let wake = (wake >= 0).then(|| unsafe { BorrowedFd::borrow_raw(wake) });
        let mut fds = vec![PollFd::new(fd, PollFlags::POLLIN)];
        fds.extend(wake.map(|wake| PollFd::new(wake, PollFlags::POLLIN)));
        let timeout = wait_ms.map_or(PollTimeout::NONE, PollTimeout::from);
        match poll(&mut fds, timeout) {
            Ok(0) => return Ok(Input::Timeout),
            Ok(_) => {}
            Err(Errno::EINTR) => {
                return Ok(if RESIZED.swap(false, Ordering::SeqCst) { Input::Resized } else { Input::Timeout });
            }
            Err(e) => return Err(e.into()),
        }
        if let Some(wake) = wake {
            if fds[1].any().unwrap_or(false) {
                let mut drained = [0u8; 64];
                while matches!(nix::unistd::read(wake, &mut drained), Ok(n) if n > 0) {}
                if RESIZED.swap(false, Ordering::SeqCst) {
                    return Ok(Input::Resized);
                }
            }
        }
        if !fds[0].any().unwrap_or(false) {
            return Ok(Input::Timeout);
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
