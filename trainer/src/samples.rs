//! The training samples of `stream-fit` on disk: the labelled positions of game files deduplicated by
//! symmetry in bounded memory, as two files of fixed-size samples (fitted and held out).
//!
//! A first pass streams the game files and writes each labelled position that is not the end of its
//! game, by its canonical image under the board's symmetries, into one of K bucket files chosen by
//! a hash of that image. A second pass reads one bucket at a time, sorts it by (hash, position) with a
//! stable sort (so the sightings of a class keep the order they were read in), merges each class
//! exactly as `fit` merges it in memory ([`crate::fit::Class`]: the same sums in the same order), and
//! appends it to `train.bin` or `held.bin` by `fit`'s held-out rule. A bucket is the high bits of the
//! hash, so the files come out in (hash, position) order whatever K is: a pseudo-random order of the
//! classes, the same for the same games.
//!
//! K is chosen from the game files' sizes so that a bucket fits in the memory cap: a position costs
//! [`MEMORY_PER_POSITION`] bytes in memory while its bucket is sorted, and a game file never holds
//! more positions than [`crate::games::max_positions`] says (its bytes, or 61/9 of them for the
//! binary form's version 2), so the bound holds for any data.
//!
//! The work directory keeps the two files and a manifest naming the inputs (paths, sizes, times of
//! change, file weights, search weight): a later run on the same inputs reuses them.

use crate::fit::{held_out, target, Class};
use crate::record::Label;
use ebony::rules::symmetry::canonical;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// A position as the first pass writes it: canonical position (16 bytes), file number (4), truth
/// (1), search score (1), whether there is one (1), padding (1).
const RAW_BYTES: usize = 24;
/// A position in memory while its bucket is sorted: [`Raw`] (32 bytes) and half as much again for
/// the stable sort's buffer.
pub const MEMORY_PER_POSITION: u64 = 48;
/// A sample on disk: the canonical position and three f64 (label, truth, weight).
pub const SAMPLE_BYTES: usize = 40;
/// More buckets than this would need more open files than a process may have.
const MAX_BUCKETS: u64 = 4096;
/// The first pass's write buffers, over all buckets.
const BUFFERS: usize = 64 << 20;

/// One class of positions under symmetry, merged: what the fit learns from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The canonical position: side to move, other side.
    pub board: (u64, u64),
    /// The mean label the fit aims at.
    pub label: f64,
    /// The mean outcome or exact value: the yardstick of the error.
    pub truth: f64,
    /// The sample's weight in the sum of squares.
    pub weight: f64,
}

impl Sample {
    fn write(&self, out: &mut (impl Write + ?Sized)) -> std::io::Result<()> {
        let mut bytes = [0u8; SAMPLE_BYTES];
        bytes[0..8].copy_from_slice(&self.board.0.to_le_bytes());
        bytes[8..16].copy_from_slice(&self.board.1.to_le_bytes());
        bytes[16..24].copy_from_slice(&self.label.to_le_bytes());
        bytes[24..32].copy_from_slice(&self.truth.to_le_bytes());
        bytes[32..40].copy_from_slice(&self.weight.to_le_bytes());
        out.write_all(&bytes)
    }

    fn read(bytes: &[u8]) -> Sample {
        let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or([0; 8]));
        Sample {
            board: (word(0), word(8)),
            label: f64::from_bits(word(16)),
            truth: f64::from_bits(word(24)),
            weight: f64::from_bits(word(32)),
        }
    }

    pub fn empties(&self) -> u32 {
        (!(self.board.0 | self.board.1)).count_ones()
    }
}

/// A hash of a canonical position that spreads the classes evenly over the buckets (SplitMix64's
/// finaliser of a mix of both words).
pub fn class_hash(p: u64, o: u64) -> u64 {
    let mut z = p ^ o.rotate_left(32).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The bucket of a hash among `buckets`: its high bits, so buckets in order are hashes in order.
fn bucket_of(hash: u64, buckets: u64) -> usize {
    ((hash as u128 * buckets as u128) >> 64) as usize
}

/// A position of the first pass, as sorted in the second.
#[derive(Clone, Copy)]
struct Raw {
    hash: u64,
    board: (u64, u64),
    file: u32,
    truth: i8,
    search: Option<i8>,
}

impl Raw {
    fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        let mut bytes = [0u8; RAW_BYTES];
        bytes[0..8].copy_from_slice(&self.board.0.to_le_bytes());
        bytes[8..16].copy_from_slice(&self.board.1.to_le_bytes());
        bytes[16..20].copy_from_slice(&self.file.to_le_bytes());
        bytes[20] = self.truth as u8;
        bytes[21] = self.search.unwrap_or(0) as u8;
        bytes[22] = self.search.is_some() as u8;
        out.write_all(&bytes)
    }

    fn read(bytes: &[u8]) -> Raw {
        let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or([0; 8]));
        let board = (word(0), word(8));
        Raw {
            hash: class_hash(board.0, board.1),
            board,
            file: u32::from_le_bytes(bytes[16..20].try_into().unwrap_or([0; 4])),
            truth: bytes[20] as i8,
            search: (bytes[22] != 0).then_some(bytes[21] as i8),
        }
    }

    /// The label as the game record gave it (an outcome with its search score, or an outcome or
    /// exact value alone: `target` treats those two alike).
    fn label(&self) -> Label {
        Label::Outcome { outcome: self.truth as i32, search: self.search.map(i32::from) }
    }
}

/// The samples of a work directory, deduplicated and split.
pub struct Samples {
    /// Labelled positions read.
    pub positions: u64,
    pub train: SampleFile,
    pub held: SampleFile,
    pub buckets: u64,
}

/// What identifies the inputs of a deduplication: a changed input means a new one. (v4: the first
/// moves' positions are never held out and count once per sighting, `fit::ALWAYS_FITTED`.)
fn manifest(files: &[(String, f64)], search_weight: f64) -> Result<String, String> {
    let mut text = format!("ebony-train samples v4\nsearch-weight {search_weight:?}\n");
    for (path, weight) in files {
        let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let changed =
            meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
        text += &format!("{path}@{weight:?} {} bytes, changed {changed}\n", meta.len());
    }
    Ok(text)
}

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("{}: {e}", path.display())
}

/// The samples of `files` (with their weights) in `dir`: made by the two passes, or reused if `dir`
/// holds those of the same inputs. A bucket takes at most `cap` bytes of memory while it is sorted.
pub fn prepare(files: &[(String, f64)], search_weight: f64, dir: &Path, cap: u64) -> Result<Samples, String> {
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let manifest_path = dir.join("manifest.txt");
    let expected = manifest(files, search_weight)?;
    if let Some(tail) =
        std::fs::read_to_string(&manifest_path).ok().and_then(|f| f.strip_prefix(&expected).map(String::from))
    {
        let numbers: Vec<u64> = tail.split_whitespace().filter_map(|w| w.parse().ok()).collect();
        if let [positions, buckets] = numbers[..] {
            let (train, held) = (SampleFile::open(&dir.join("train.bin"))?, SampleFile::open(&dir.join("held.bin"))?);
            note!("reusing the samples in {}", dir.display());
            return Ok(Samples { positions, train, held, buckets });
        }
    }
    let _ = std::fs::remove_file(&manifest_path);
    let positions = files.iter().map(|(path, _)| crate::games::max_positions(path)).sum::<Result<u64, String>>()?;
    let buckets = (positions * MEMORY_PER_POSITION).div_ceil(cap.max(1)).max(1);
    if buckets > MAX_BUCKETS {
        return Err(format!("{buckets} buckets of at most {cap} bytes: raise the memory cap"));
    }
    let started = std::time::Instant::now();
    let positions = split(files, dir, buckets)?;
    note!("{positions} positions into {buckets} buckets in {:.1} s", started.elapsed().as_secs_f64());
    let (train_path, held_path) = (dir.join("train.bin"), dir.join("held.bin"));
    let mut train = BufWriter::new(File::create(&train_path).map_err(io_error(&train_path))?);
    let mut held = BufWriter::new(File::create(&held_path).map_err(io_error(&held_path))?);
    for b in 0..buckets as usize {
        let path = bucket_path(dir, b);
        merge(&path, files, search_weight, &mut train, &mut held)?;
        std::fs::remove_file(&path).map_err(io_error(&path))?;
    }
    train.flush().map_err(io_error(&train_path))?;
    held.flush().map_err(io_error(&held_path))?;
    drop((train, held));
    let text = format!("{expected}positions {positions} buckets {buckets}\n");
    std::fs::write(&manifest_path, text).map_err(io_error(&manifest_path))?;
    let (train, held) = (SampleFile::open(&train_path)?, SampleFile::open(&held_path)?);
    note!("merged in {:.1} s", started.elapsed().as_secs_f64());
    Ok(Samples { positions, train, held, buckets })
}

fn bucket_path(dir: &Path, b: usize) -> PathBuf {
    dir.join(format!("bucket-{b:04}.bin"))
}

/// The first pass: every labelled position of every file into its bucket. Returns the positions.
fn split(files: &[(String, f64)], dir: &Path, buckets: u64) -> Result<u64, String> {
    let capacity = (BUFFERS / buckets as usize).clamp(1 << 12, 1 << 20);
    let mut writers = (0..buckets as usize)
        .map(|b| {
            let path = bucket_path(dir, b);
            File::create(&path).map(|f| BufWriter::with_capacity(capacity, f)).map_err(io_error(&path))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut positions = 0u64;
    for (file, (path, _)) in files.iter().enumerate() {
        for record in crate::games::Reader::open(path)? {
            let record = record?;
            for l in record.fitted().map_err(|e| format!("{path}: {e}"))? {
                let (truth, search) = match l.label {
                    Label::None => unreachable!("`fitted` keeps only labelled positions"),
                    Label::Exact(s) => (s, None),
                    Label::Outcome { outcome, search } => (outcome, search),
                };
                let board = canonical(l.board.player, l.board.opponent);
                let raw = Raw {
                    hash: class_hash(board.0, board.1),
                    board,
                    file: file as u32,
                    truth: truth as i8,
                    search: search.map(|s| s as i8),
                };
                let b = bucket_of(raw.hash, buckets);
                raw.write(&mut writers[b]).map_err(io_error(&bucket_path(dir, b)))?;
                positions += 1;
            }
        }
    }
    for (b, mut w) in writers.into_iter().enumerate() {
        w.flush().map_err(io_error(&bucket_path(dir, b)))?;
    }
    Ok(positions)
}

/// The second pass for one bucket: its positions sorted by (hash, position), stably, each class
/// merged in the order its sightings were read and appended to the fitted or the held-out samples.
fn merge(
    path: &Path,
    files: &[(String, f64)],
    search_weight: f64,
    train: &mut impl Write,
    held: &mut impl Write,
) -> Result<(), String> {
    let len = std::fs::metadata(path).map_err(io_error(path))?.len() as usize;
    let mut raws = Vec::with_capacity(len / RAW_BYTES);
    let mut input = BufReader::with_capacity(1 << 20, File::open(path).map_err(io_error(path))?);
    let mut chunk = vec![0u8; RAW_BYTES << 12];
    let mut left = len;
    while left > 0 {
        let n = left.min(chunk.len());
        input.read_exact(&mut chunk[..n]).map_err(io_error(path))?;
        raws.extend(chunk[..n].chunks_exact(RAW_BYTES).map(Raw::read));
        left -= n;
    }
    raws.sort_by_key(|r| (r.hash, r.board));
    for run in raws.chunk_by(|a, b| a.board == b.board) {
        let mut class = Class::default();
        for r in run {
            let (score, truth) = target(r.label(), search_weight).unwrap_or((0.0, 0.0));
            class.add(files[r.file as usize].1, score, truth);
        }
        let (p, o) = run[0].board;
        let (label, truth, weight) = class.mean((!(p | o)).count_ones());
        let sample = Sample { board: run[0].board, label, truth, weight };
        let out: &mut dyn Write = if held_out(sample.board.0, sample.board.1) { held } else { train };
        sample.write(out).map_err(io_error(path))?;
    }
    Ok(())
}

/// A file of samples, read in blocks.
pub struct SampleFile {
    path: PathBuf,
    file: File,
    pub len: u64,
}

impl SampleFile {
    fn open(path: &Path) -> Result<SampleFile, String> {
        let file = File::open(path).map_err(io_error(path))?;
        let bytes = file.metadata().map_err(io_error(path))?.len();
        if bytes % SAMPLE_BYTES as u64 != 0 {
            return Err(format!("{}: not a whole number of samples", path.display()));
        }
        Ok(SampleFile { path: path.to_path_buf(), file, len: bytes / SAMPLE_BYTES as u64 })
    }

    /// Samples `start..start + out.len()` (fewer at the end), into `out`.
    pub fn read(&mut self, start: u64, count: usize, out: &mut Vec<Sample>) -> Result<(), String> {
        out.clear();
        let count = count.min(self.len.saturating_sub(start) as usize);
        let mut bytes = vec![0u8; count * SAMPLE_BYTES];
        self.file.seek(SeekFrom::Start(start * SAMPLE_BYTES as u64)).map_err(io_error(&self.path))?;
        self.file.read_exact(&mut bytes).map_err(io_error(&self.path))?;
        out.extend(bytes.chunks_exact(SAMPLE_BYTES).map(Sample::read));
        Ok(())
    }

    /// Every sample in file order, a block at a time.
    pub fn for_each(&mut self, mut f: impl FnMut(&Sample)) -> Result<(), String> {
        const BLOCK: usize = 1 << 16;
        let mut block = Vec::with_capacity(BLOCK);
        let mut start = 0;
        while start < self.len {
            self.read(start, BLOCK, &mut block)?;
            block.iter().for_each(&mut f);
            start += BLOCK as u64;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::tests::games_file;

    fn temp_dir(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("ebony-train-samples-{}-{name}", std::process::id()))
    }

    fn all(file: &mut SampleFile) -> Vec<Sample> {
        let mut out = Vec::new();
        file.for_each(|s| out.push(*s)).unwrap();
        out
    }

    #[test]
    fn the_buckets_give_the_classes_of_the_fit_in_memory() {
        let games = games_file("dedup");
        // The same games twice at other weights: every class has sightings from two files to merge.
        let files = [(games.clone(), 1.0), (games.clone(), 2.5)];
        let dir = temp_dir("dedup");
        let mut samples = prepare(&files, 0.3, &dir, 1 << 30).unwrap();
        let (train, held, positions) = crate::fit::load(&files, 0.3).unwrap();
        assert_eq!(samples.positions, positions as u64);
        let key = |s: &Sample| (s.board, s.label.to_bits(), s.truth.to_bits(), s.weight.to_bits());
        for (file, expected) in [(&mut samples.train, train), (&mut samples.held, held)] {
            let mut ours: Vec<_> = all(file).iter().map(key).collect();
            let mut theirs: Vec<_> = expected
                .iter()
                .map(|s| key(&Sample { board: s.board, label: s.label, truth: s.truth, weight: s.weight }))
                .collect();
            assert!(!theirs.is_empty());
            ours.sort_unstable();
            theirs.sort_unstable();
            assert_eq!(ours, theirs);
        }
        std::fs::remove_dir_all(dir).unwrap();
        std::fs::remove_file(games).unwrap();
    }

    #[test]
    fn many_small_buckets_give_the_same_files_as_one() {
        let games = games_file("buckets");
        let files = [(games.clone(), 1.0)];
        let bytes = std::fs::metadata(&games).unwrap().len();
        let (one, many) = (temp_dir("one"), temp_dir("many"));
        let a = prepare(&files, 0.5, &one, 1 << 30).unwrap();
        let b = prepare(&files, 0.5, &many, bytes * MEMORY_PER_POSITION / 40).unwrap();
        assert_eq!(a.buckets, 1);
        assert!(b.buckets >= 40, "{} buckets", b.buckets);
        for name in ["train.bin", "held.bin"] {
            assert_eq!(std::fs::read(one.join(name)).unwrap(), std::fs::read(many.join(name)).unwrap(), "{name}");
        }
        // The samples of the same inputs are reused; other inputs make new ones.
        let again = prepare(&files, 0.5, &many, 1 << 30).unwrap();
        assert_eq!(again.buckets, b.buckets);
        let other = prepare(&files, 0.0, &many, 1 << 30).unwrap();
        assert_eq!(other.buckets, 1);
        for dir in [one, many] {
            std::fs::remove_dir_all(dir).unwrap();
        }
        std::fs::remove_file(games).unwrap();
    }
}
