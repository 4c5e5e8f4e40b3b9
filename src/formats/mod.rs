//! Position and game files: obf (FFO/Edax test positions) and GGF (game records), and the checksum
//! of ebony's own binary files. Built on `rules`.

pub mod ggf;
pub mod obf;

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` whole or not at all: into a new temporary file in the same directory,
/// synced, then renamed over `path` (a rename within a file system is atomic), and the directory
/// synced, so that a reader, a crash or a power loss never sees half a file, and a failure leaves the
/// old file as it was (the temporary file is removed). The details that keep it safe:
/// - the temporary file is `.NAME.RANDOM.tmp`, created only if no such name exists (`create_new`,
///   `O_EXCL`), so a file or a symlink planted at that name is never followed or written, and the
///   random part leaves nothing to guess; a name that exists is passed over for another;
/// - a symlink at `path` is written through: its target is replaced and the link kept;
/// - the new file gets the mode of the file it replaces (a file readable only by its owner stays so),
///   a new file 0644 under the umask;
/// - temporary files of this pattern for the same NAME older than [`STALE_AFTER`] (left by a write
///   that was killed) are removed.
pub fn replace_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let target = resolve_links(path)?;
    let Some(name) = target.file_name().map(OsStr::to_os_string) else {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"));
    };
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let old_permissions = match std::fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "a directory"));
        }
        Ok(meta) => Some(meta.permissions()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    remove_stale_temps(&dir, &name);
    // A file that replaces another starts readable by its owner alone and gets the old mode before
    // anything is written; a new one is made 0644, less the umask.
    let mode = if old_permissions.is_some() { 0o600 } else { 0o644 };
    let (temp, mut file) = create_temp(&dir, &name, mode, std::iter::repeat_with(random_token).take(TEMP_TRIES))?;
    let written = (|| {
        if let Some(permissions) = old_permissions {
            file.set_permissions(permissions)?;
        }
        file.write_all(bytes)?;
        // The data reaches the disk before the rename makes it the file: after a power loss the path
        // holds the old file or the new one, never a renamed empty one.
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, &target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written?;
    sync_dir(&dir)
}

/// How old a temporary file of ours must be to be taken for the leftover of a killed write.
pub const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(3600);

/// Names tried for the temporary file before giving up (each taken one is a name that exists).
const TEMP_TRIES: usize = 16;

/// Symlinks resolved before a write gives up (as the kernel's limit on nested links).
const MAX_LINKS: usize = 40;

/// `path` with every symlink at its end followed (also to a target that does not exist yet, which
/// the write then creates); the directories above are left as they are.
fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// The temporary file for a write to `name` in `dir`: `.NAME.TOKEN.tmp`.
fn temp_path(dir: &Path, name: &OsStr, token: u64) -> PathBuf {
    let mut temp = OsString::from(".");
    temp.push(name);
    temp.push(format!(".{token:016x}.tmp"));
    dir.join(temp)
}

/// Whether `file` is one of our temporary files for `name`: `.NAME.` then hexadecimal digits (the
/// random token; older versions wrote the process id) then `.tmp`.
fn is_temp_of(file: &OsStr, name: &OsStr) -> bool {
    let (Some(file), Some(name)) = (file.to_str(), name.to_str()) else { return false };
    file.strip_prefix('.')
        .and_then(|rest| rest.strip_prefix(name))
        .and_then(|rest| rest.strip_prefix('.'))
        .and_then(|rest| rest.strip_suffix(".tmp"))
        .is_some_and(|token| !token.is_empty() && token.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Creates the temporary file under the first of `tokens` whose name is free, never opening a file or
/// link that exists, with `mode` (less the umask) on Unix.
fn create_temp(
    dir: &Path,
    name: &OsStr,
    mode: u32,
    tokens: impl IntoIterator<Item = u64>,
) -> std::io::Result<(PathBuf, std::fs::File)> {
    let mut last = std::io::Error::new(std::io::ErrorKind::AlreadyExists, "no free temporary file name");
    for token in tokens {
        let temp = temp_path(dir, name, token);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
        #[cfg(not(unix))]
        let _ = mode;
        match options.open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = e,
            Err(e) => return Err(e),
        }
    }
    Err(last)
}

/// Removes our temporary files for `name` in `dir` that are older than [`STALE_AFTER`]: plain files
/// only (never a link or a directory); whatever cannot be read or removed is left.
fn remove_stale_temps(dir: &Path, name: &OsStr) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        if !is_temp_of(&entry.file_name(), name) {
            continue;
        }
        let Ok(meta) = entry.path().symlink_metadata() else { continue };
        let age = meta.modified().ok().and_then(|at| at.elapsed().ok());
        if meta.file_type().is_file() && age.is_some_and(|age| age > STALE_AFTER) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// 64 bits no other process can predict: the standard library's randomly keyed hasher (its keys come
/// from the operating system's generator), over the time, the process id and a counter.
fn random_token() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |t| t.as_nanos()));
    hasher.write_u32(std::process::id());
    hasher.write_u64(COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    hasher.finish()
}

/// Makes a rename in `dir` durable (on Unix: the directory synced; Windows has no such call, and its
/// file system commits a rename with its journal).
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    std::fs::File::open(dir)?.sync_all()?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// FNV-1a, 64 bits: the checksum of ebony's binary files (the evaluation's weights, the opening book)
/// and the fingerprint of the evaluation's feature layout.
pub(crate) fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xCBF2_9CE4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ebony-replace-{name}-{}", std::process::id()));
        std::fs::remove_dir_all(&dir).ok();
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn temporary_names_are_ours_and_unpredictable() {
        let name = OsStr::new("game.txt");
        let temp = temp_path(Path::new("d"), name, 0xabc);
        assert_eq!(temp, Path::new("d/.game.txt.0000000000000abc.tmp"));
        assert!(is_temp_of(temp.file_name().expect("a name"), name));
        // An older version's name (the process id) is ours too; other files are not.
        assert!(is_temp_of(OsStr::new(".game.txt.4242.tmp"), name));
        for other in [".game.txt.tmp", ".game.txt.xyz.tmp", "game.txt.12.tmp", ".other.txt.12.tmp", ".game.txt.12.tmpx"]
        {
            assert!(!is_temp_of(OsStr::new(other), name), "{other}");
        }
        let tokens: std::collections::HashSet<u64> = std::iter::repeat_with(random_token).take(1000).collect();
        assert_eq!(tokens.len(), 1000);
    }

    /// A link (or file) planted at the temporary name is passed over, never followed: the next name
    /// is taken, and with none left the write fails.
    #[cfg(unix)]
    #[test]
    fn a_planted_link_at_the_temporary_name_is_never_followed() {
        let dir = temp_dir("planted");
        let victim = dir.join("victim");
        std::fs::write(&victim, "precious\n").expect("victim");
        let name = OsStr::new("game.txt");
        std::os::unix::fs::symlink(&victim, temp_path(&dir, name, 7)).expect("link planted");
        let (temp, mut file) = create_temp(&dir, name, 0o600, [7, 8]).expect("the next name");
        assert_eq!(temp, temp_path(&dir, name, 8));
        file.write_all(b"new\n").expect("written");
        assert_eq!(std::fs::read_to_string(&victim).expect("victim"), "precious\n");
        let refused = create_temp(&dir, name, 0o600, [7]).map(|_| ()).expect_err("no free name");
        assert_eq!(refused.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read_to_string(&victim).expect("victim"), "precious\n");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Links at the path are followed to the end (also to a target not written yet); a loop of links
    /// is an error, not a hang.
    #[cfg(unix)]
    #[test]
    fn links_at_the_path_are_written_through() {
        let dir = temp_dir("links");
        let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
        std::os::unix::fs::symlink("b", &a).expect("a -> b");
        std::os::unix::fs::symlink(&c, &b).expect("b -> c");
        replace_file(&a, b"through\n").expect("written");
        assert_eq!(std::fs::read_to_string(&c).expect("c"), "through\n");
        assert!(std::fs::symlink_metadata(&a).expect("a").file_type().is_symlink());
        assert!(std::fs::symlink_metadata(&b).expect("b").file_type().is_symlink());
        let (x, y) = (dir.join("x"), dir.join("y"));
        std::os::unix::fs::symlink(&y, &x).expect("x -> y");
        std::os::unix::fs::symlink(&x, &y).expect("y -> x");
        assert!(replace_file(&x, b"loop\n").is_err());
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Temporary files of ours older than an hour go at the next write of the same file; younger ones,
    /// other files' and links stay.
    #[test]
    fn stale_temporary_files_are_removed() {
        let dir = temp_dir("stale");
        let name = OsStr::new("game.txt");
        let two_hours_ago = std::time::SystemTime::now() - 2 * STALE_AFTER;
        let old = |path: &Path| {
            let file = std::fs::File::create(path).expect("created");
            file.set_modified(two_hours_ago).expect("dated");
        };
        let (stale, legacy, fresh, other) = (
            temp_path(&dir, name, 1),
            dir.join(".game.txt.4242.tmp"),
            temp_path(&dir, name, 2),
            temp_path(&dir, OsStr::new("other.txt"), 3),
        );
        old(&stale);
        old(&legacy);
        old(&other);
        std::fs::write(&fresh, "").expect("fresh");
        replace_file(&dir.join("game.txt"), b"f5d6\n").expect("written");
        assert!(!stale.exists() && !legacy.exists(), "stale temporary files left");
        assert!(fresh.exists() && other.exists(), "a young or another file's temporary file removed");
        std::fs::remove_dir_all(&dir).ok();
    }
}
