//! Writing the files a user asked for: the one home of the CLI's outputs and the
//! search's checkpoints; and reading inputs within a size limit.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Writes `text` to `path`. A regular file (or a new one) is written through a
/// temporary file beside it and a rename, so that an interrupted write never leaves
/// half a file; a symlink is followed so that it stays a link. A FIFO or a device
/// (`/dev/null`, `/dev/stdout`; [`is_stream`]) is written directly: a rename would
/// replace it by a regular file.
pub fn write_file(path: &Path, text: &str) -> io::Result<()> {
    write_with(path, |w| w.write_all(text.as_bytes()))
}

/// [`write_file`] of what `write` writes, through a buffer: for a big file, without
/// its text in memory first.
pub fn write_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let through = |f: std::fs::File| {
        let mut w = io::BufWriter::with_capacity(1 << 16, f);
        write(&mut w)?;
        w.flush()
    };
    if is_stream(path) {
        // A directory fails here, as it should ("Is a directory").
        return through(std::fs::OpenOptions::new().write(true).open(path)?);
    }
    let target = resolve(path)?;
    let tmp = temp_path(&target);
    writing().push(tmp.clone());
    let written = std::fs::File::create(&tmp)
        .and_then(through)
        .and_then(|()| std::fs::rename(&tmp, &target));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    writing().retain(|t| *t != tmp);
    written
}

/// The temporary files of the writes under way (one per writing thread at most).
fn writing() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    static WRITING: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    WRITING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes the temporary files of the writes under way and the lock files held: for
/// a process about to quit in the middle of one (a second Ctrl-C), which then leaves
/// its target as it was and nothing beside it.
pub fn remove_temporaries() {
    for tmp in writing().drain(..) {
        let _ = std::fs::remove_file(tmp);
    }
    // The checkpoint locks this process holds: it is about to end, and with it the
    // locks, so no other run holds them.
    for lock in held().drain(..) {
        let _ = std::fs::remove_file(lock);
    }
}

/// Whether `path` is written directly rather than through a rename: a FIFO, a
/// device, a pipe of the shell's `>(...)`, and any name under `/dev` or `/proc`
/// (`/dev/stdout` redirected to a file is that file: a rename would put a new file in
/// its place, and the shell's open one would be left without the text). Such a file
/// takes one write only: a reader of a pipe sees every write, one after the other.
pub fn is_stream(path: &Path) -> bool {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return true;
    }
    let target = resolve(path).ok();
    ["/dev", "/proc"]
        .iter()
        .any(|dir| path.starts_with(dir) || target.as_ref().is_some_and(|t| t.starts_with(dir)))
}

/// The file a write to `path` lands in: `path` with its symlinks followed, a
/// dangling one to the file it would create.
pub fn resolve(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    // As many links as Linux follows before ELOOP.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&p)?;
                p = p.parent().map_or(link.clone(), |dir| dir.join(&link));
            }
            _ => return Ok(p),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// The temporary file beside `target` that [`write_file`] renames into place:
/// `FILE.tmp~PID`, so that two processes writing the same file never share one.
pub fn temp_path(target: &Path) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp~{}", std::process::id()));
    target.with_file_name(name)
}

/// An exclusive lock on a checkpoint, held by this process: the file `FILE.lock`
/// beside it (a checkpoint is saved through renames, so the lock cannot be on the file
/// itself). The run that holds it removes it when it ends ([`Drop`], and
/// [`remove_temporaries`] on a second Ctrl-C); a lock file left by a run that was
/// killed is not held by anyone, and the next run takes it over.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    file: std::fs::File,
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held: a run that opened this file meanwhile finds it
        // gone once it gets the lock, and opens the path again ([`lock_beside`]).
        held().retain(|p| *p != self.path);
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// The lock files this process holds, for a quick exit to remove.
fn held() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    static HELD: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    HELD.lock().unwrap_or_else(|e| e.into_inner())
}

/// An exclusive lock that only one process at a time holds on `path`: `FILE.lock`,
/// created if missing and removed when the returned [`Lock`] is dropped. A lock held
/// by another live run is refused and left alone. None where the file system has no
/// locks, and for a stream (`/dev/null`).
pub fn lock_beside(path: &Path) -> io::Result<Option<Lock>> {
    if is_stream(path) {
        // `/dev/null`: nothing to keep whole, and no file to create beside it.
        return Ok(None);
    }
    let mut name = resolve(path)?.into_os_string();
    name.push(".lock");
    let lock = PathBuf::from(name);
    // A run that ends removes its lock file while holding it: one that opened the file
    // just before may get the lock of a file no longer there, which a third run
    // would not see. Such a lock is let go and the path opened again.
    for _ in 0..100 {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(io::Error::other(format!(
                    "another plytile run is using this checkpoint ({} is locked); give each run, shard or job a --checkpoint of its own",
                    lock.display()
                )))
            }
            Err(std::fs::TryLockError::Error(e)) if e.kind() == io::ErrorKind::Unsupported => {
                return Ok(None)
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(e),
        }
        if still_named(&file, &lock) {
            held().push(lock.clone());
            return Ok(Some(Lock { path: lock, file }));
        }
    }
    Err(io::Error::other(format!(
        "{} keeps being removed and made again by other runs",
        lock.display()
    )))
}

/// Whether the open `file` is the one `path` names now (not removed or replaced).
fn still_named(file: &std::fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        path.exists()
    }
}

/// Whether a file can be written at `path` the way [`write_file`] writes it: a
/// temporary file can be created beside the target (it is removed at once, so a
/// failed check leaves nothing behind).
pub fn check_writable(path: &Path) -> io::Result<()> {
    let tmp = temp_path(&resolve(path)?);
    std::fs::File::create(&tmp)?;
    std::fs::remove_file(&tmp)
}

/// Whether `a` and `b` name the same file: the same inode when both exist (hard and
/// symbolic links included), else the same place once symlinks are followed (two
/// names of a file about to be created).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        #[cfg(unix)]
        (Ok(x), Ok(y)) => {
            use std::os::unix::fs::MetadataExt;
            (x.dev(), x.ino()) == (y.dev(), y.ino())
        }
        (Err(_), Err(_)) => place(a).is_some_and(|p| Some(p) == place(b)),
        #[cfg(unix)]
        _ => false,
        #[cfg(not(unix))]
        _ => place(a).is_some_and(|p| Some(p) == place(b)),
    }
}

/// The absolute path a write to `path` lands in; None when its directory is missing.
fn place(path: &Path) -> Option<PathBuf> {
    let target = resolve(path).ok()?;
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(dir).ok()?.join(target.file_name()?))
}

/// Most bytes an input file may hold (1 GiB; the largest real inputs, checkpoints of
/// long interleaved runs, are tens of MB): a device or a pipe that never ends
/// (`/dev/zero`) is refused instead of read until memory runs out.
pub const MAX_INPUT: u64 = 1 << 30;

/// The bytes of the input file `path`, refused past [`MAX_INPUT`].
pub fn read_input(path: &Path) -> io::Result<Vec<u8>> {
    read_capped(std::fs::File::open(path)?)
}

/// The bytes of standard input, refused past [`MAX_INPUT`] (`merge -`).
pub fn read_stdin() -> io::Result<Vec<u8>> {
    read_capped(io::stdin().lock())
}

fn read_capped(input: impl Read) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    input.take(MAX_INPUT + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(io::Error::other(
            "more than 1 GiB, so not a plytile input (a device or a stream without end?)",
        ));
    }
    Ok(bytes)
}
