//! Game files: the generator's output and the fit's input, as a stream of [`GameRecord`]s after a
//! header naming the settings that made them. Two forms hold the same records:
//!
//! - **binary** (`.ebgm`, the form the generator writes and the repository keeps): about a byte and
//!   a half a move, a third of the text;
//! - **text** (a path ending in `.txt`): one record a line, as [`GameRecord`]'s `Display` writes it,
//!   after a `#` header line; readable with `less`, and the form of the files made before the binary
//!   one existed.
//!
//! A reader tells the forms apart by the first bytes; a writer by the path. `ebony-train convert`
//! turns one into the other, losslessly (each record and the header come back the same).
//!
//! # The binary form, version 1
//!
//! ```text
//! file    = "EBGM" version:u8 header-length:varint header:utf8 record*
//! record  = length:varint payload              (length = the payload's bytes)
//! payload = index:varint moves:u8 labelled:u8 solved:u8
//!           square:u8 * moves                   (a1 = 0 ... h8 = 63; passes are not recorded)
//!           first-value:i8 changes:u8 (offset:u8 value:i8) * changes
//!           scores:u8 [first-score:i8 delta-nibbles escaped:i8*]
//! ```
//!
//! - Values: the exact value (black's view) of each position from move `solved` to the end. Along
//!   perfect play it does not change; it changes only after the generator's random endgame moves.
//!   So the form keeps the first value and each change: the position's offset from `solved` and its
//!   new value.
//! - Scores: the search score (black's view) of each position from `labelled` to `solved`, or none
//!   (count 0). After the first one, each is stored as its difference from the one before, one
//!   nibble each, two to a byte (low nibble first): `d + 8` for a difference `d` in -7..=7. Nibble 0
//!   means "escaped": the score itself is in the list after the nibbles, one byte each, in order.
//! - Varints are LEB128 (7 bits a byte, least significant first).
//!
//! A record's length prefix lets a reader tell a torn last record (an interrupted write: fewer
//! bytes left than the length) from a corrupt one, and a resumed run cut it off.

use crate::record::GameRecord;
use ebony::rules::square::Square;
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Write};

const MAGIC: &[u8; 4] = b"EBGM";
const VERSION: u8 = 1;
/// The longest record: a varint index, 3 counts, 60 moves, 2 + 2 * 61 value bytes, 1 + 1 + 30 + 60
/// score bytes; far below this.
const MAX_RECORD: u64 = 1 << 12;

/// Whether `path` names the text form.
pub fn is_text(path: &str) -> bool {
    path.ends_with(".txt")
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The binary payload of one record.
pub fn encode(record: &GameRecord) -> Vec<u8> {
    let mut out = Vec::with_capacity(96);
    put_varint(&mut out, record.index);
    out.extend([record.moves.len() as u8, record.labelled as u8, record.solved as u8]);
    out.extend(record.moves.iter().map(|sq| sq.index() as u8));
    let values = &record.values;
    out.push(values.first().copied().unwrap_or(0) as u8);
    let changes: Vec<(usize, i8)> =
        values.windows(2).enumerate().filter(|(_, w)| w[0] != w[1]).map(|(i, w)| (i + 1, w[1])).collect();
    out.push(changes.len() as u8);
    for (offset, value) in changes {
        out.extend([offset as u8, value as u8]);
    }
    let scores = &record.scores;
    out.push(scores.len() as u8);
    if let Some(&first) = scores.first() {
        out.push(first as u8);
        let mut escaped = Vec::new();
        let nibbles: Vec<u8> = scores
            .windows(2)
            .map(|w| {
                let d = w[1] as i32 - w[0] as i32;
                if (-7..=7).contains(&d) {
                    (d + 8) as u8
                } else {
                    escaped.push(w[1] as u8);
                    0
                }
            })
            .collect();
        out.extend(nibbles.chunks(2).map(|c| c[0] | c.get(1).map_or(0, |h| h << 4)));
        out.extend(escaped);
    }
    out
}

/// A cursor over a payload that fails instead of reading past its end.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.at).ok_or("record ends early")?;
        self.at += 1;
        Ok(b)
    }

    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or("record ends early")?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= ((b & 0x7F) as u64) << shift;
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err("varint too long".to_string())
    }

    fn value(&mut self) -> Result<i8, String> {
        let v = self.byte()? as i8;
        if (-64..=64).contains(&v) {
            Ok(v)
        } else {
            Err(format!("disc difference {v} out of -64..=64"))
        }
    }
}

/// The record of a binary payload. Checks the form, not the game: [`GameRecord::positions`] replays
/// it.
pub fn decode(payload: &[u8]) -> Result<GameRecord, String> {
    let mut c = Cursor { bytes: payload, at: 0 };
    let index = c.varint()?;
    let (n, labelled, solved) = (c.byte()? as usize, c.byte()? as usize, c.byte()? as usize);
    if n > 60 || labelled > solved || solved > n {
        return Err(format!("game {index}: {n} moves, labelled from {labelled}, solved from {solved}"));
    }
    let moves = c
        .take(n)?
        .iter()
        .map(|&b| Square::new(b).ok_or_else(|| format!("game {index}: square {b}")))
        .collect::<Result<Vec<_>, _>>()?;
    let mut values = vec![c.value()?; n - solved + 1];
    let changes = c.byte()? as usize;
    let mut last = 0;
    for _ in 0..changes {
        let offset = c.byte()? as usize;
        if offset <= last || offset >= values.len() {
            return Err(format!("game {index}: value change at {offset}"));
        }
        let value = c.value()?;
        values[offset..].fill(value);
        last = offset;
    }
    let count = c.byte()? as usize;
    let mut scores = Vec::with_capacity(count);
    if count > 0 {
        scores.push(c.value()?);
        let nibbles: Vec<u8> = c.take(count / 2)?.iter().flat_map(|b| [b & 0xF, b >> 4]).take(count - 1).collect();
        for nibble in nibbles {
            let next = if nibble == 0 { c.value()? } else { scores[scores.len() - 1] + nibble as i8 - 8 };
            if !(-64..=64).contains(&next) {
                return Err(format!("game {index}: score {next}"));
            }
            scores.push(next);
        }
    }
    if c.at != payload.len() {
        return Err(format!("game {index}: {} bytes after the record", payload.len() - c.at));
    }
    Ok(GameRecord { index, moves, labelled, solved, values, scores })
}

/// The records of a game file, in file order, after its header.
pub struct Reader {
    path: String,
    input: BufReader<File>,
    text: bool,
    /// The text form's line number, for messages.
    line: usize,
    pub header: String,
    /// Bytes of whole records read so far, after the header (binary form; text: bytes of lines).
    pub good_len: u64,
    /// Whether the file ended inside a record (binary) or line (text): an interrupted write.
    pub torn: bool,
}

impl Reader {
    pub fn open(path: &str) -> Result<Reader, String> {
        let file = File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let mut input = BufReader::new(file);
        let mut magic = [0u8; 5];
        let mut have = 0;
        while have < magic.len() {
            match input.read(&mut magic[have..]).map_err(|e| format!("cannot read {path}: {e}"))? {
                0 => break,
                n => have += n,
            }
        }
        let mut reader = Reader {
            path: path.to_string(),
            input,
            text: false,
            line: 0,
            header: String::new(),
            good_len: 0,
            torn: false,
        };
        if have == 5 && &magic[..4] == MAGIC {
            if magic[4] != VERSION {
                return Err(format!("{path}: game file version {}, this build reads version {VERSION}", magic[4]));
            }
            let len = reader.varint()?.ok_or_else(|| format!("{path}: no header"))?;
            let bytes = reader.exact(len)?.ok_or_else(|| format!("{path}: the header ends early"))?;
            reader.header = String::from_utf8(bytes).map_err(|_| format!("{path}: the header is not UTF-8"))?;
            reader.good_len = 5 + varint_len(len) + len;
            return Ok(reader);
        }
        // The text form: the bytes read so far start its header line.
        reader.text = true;
        let mut first = magic[..have].to_vec();
        let mut rest = String::new();
        if !first.contains(&b'\n') {
            use std::io::BufRead;
            reader.input.read_line(&mut rest).map_err(|e| format!("cannot read {path}: {e}"))?;
        }
        first.extend(rest.as_bytes());
        let line = String::from_utf8(first).map_err(|_| format!("{path}: not a game file"))?;
        let (head, after) = line.split_once('\n').ok_or_else(|| format!("{path}: not a game file (no header line)"))?;
        if !head.starts_with('#') || !after.is_empty() {
            return Err(format!("{path}: not a game file (no header line)"));
        }
        reader.header = head.trim_start_matches('#').trim().to_string();
        reader.good_len = line.len() as u64;
        reader.line = 1;
        Ok(reader)
    }

    /// `Ok(None)` at the end of the file.
    fn varint(&mut self) -> Result<Option<u64>, String> {
        let mut v = 0u64;
        for (i, shift) in (0..64).step_by(7).enumerate() {
            let Some(b) = self.exact(1)? else {
                if i > 0 {
                    self.torn = true;
                }
                return Ok(None);
            };
            v |= ((b[0] & 0x7F) as u64) << shift;
            if b[0] < 0x80 {
                return Ok(Some(v));
            }
        }
        Err(format!("{}: bad record length", self.path))
    }

    /// `n` bytes, or `None` if the file ends first.
    fn exact(&mut self, n: u64) -> Result<Option<Vec<u8>>, String> {
        let mut buf = Vec::with_capacity(n as usize);
        (&mut self.input).take(n).read_to_end(&mut buf).map_err(|e| format!("cannot read {}: {e}", self.path))?;
        Ok((buf.len() as u64 == n).then_some(buf))
    }

    /// The next record, `None` at the end (or at a torn last record: see `torn`).
    pub fn next_record(&mut self) -> Result<Option<GameRecord>, String> {
        if self.text {
            use std::io::BufRead;
            loop {
                let mut line = String::new();
                let n = self.input.read_line(&mut line).map_err(|e| format!("cannot read {}: {e}", self.path))?;
                if n == 0 {
                    return Ok(None);
                }
                if !line.ends_with('\n') {
                    self.torn = true;
                    return Ok(None);
                }
                self.line += 1;
                self.good_len += n as u64;
                if line.trim().is_empty() || line.starts_with('#') {
                    continue;
                }
                return GameRecord::parse(line.trim_end())
                    .map(Some)
                    .map_err(|e| format!("{}:{}: {e}", self.path, self.line));
            }
        }
        let Some(len) = self.varint()? else { return Ok(None) };
        if len == 0 || len > MAX_RECORD {
            return Err(format!("{}: bad record length {len} at byte {}", self.path, self.good_len));
        }
        let Some(payload) = self.exact(len)? else {
            self.torn = true;
            return Ok(None);
        };
        let record = decode(&payload).map_err(|e| format!("{}: byte {}: {e}", self.path, self.good_len))?;
        self.good_len += varint_len(len) + len;
        Ok(Some(record))
    }
}

impl Iterator for Reader {
    type Item = Result<GameRecord, String>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_record().transpose()
    }
}

fn varint_len(v: u64) -> u64 {
    (64 - v.max(1).leading_zeros() as u64).div_ceil(7)
}

/// Appends records to a game file of either form.
#[derive(Debug)]
pub struct Writer {
    path: String,
    out: BufWriter<File>,
    text: bool,
}

impl Writer {
    /// Opens `path` to append the records of a run with `header`, and the indices it holds already.
    /// A new or empty file gets the header; an existing one must have the same, and a torn last
    /// record is cut off, so the run appends after whole records.
    pub fn resume(path: &str, header: &str) -> Result<(Writer, BTreeSet<u64>), String> {
        let mut done = BTreeSet::new();
        let exists = std::fs::metadata(path).map(|m| m.len() > 0).unwrap_or(false);
        if exists {
            let mut reader = Reader::open(path)?;
            if reader.header != header {
                return Err(format!("{path} was made with other settings:\n  {}\nnot\n  {header}", reader.header));
            }
            if reader.text != is_text(path) {
                return Err(format!("{path}: the file's form does not match its name (.txt is the text form)"));
            }
            while let Some(record) = reader.next_record()? {
                done.insert(record.index);
            }
            let file = OpenOptions::new().write(true).open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
            file.set_len(reader.good_len).map_err(|e| format!("cannot truncate {path}: {e}"))?;
        }
        let file =
            OpenOptions::new().create(true).append(true).open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
        let mut writer = Writer { path: path.to_string(), out: BufWriter::new(file), text: is_text(path) };
        if !exists {
            if writer.text {
                writeln!(writer.out, "# {header}").map_err(|e| writer.error(e))?;
            } else {
                let mut head = MAGIC.to_vec();
                head.push(VERSION);
                put_varint(&mut head, header.len() as u64);
                head.extend(header.as_bytes());
                writer.out.write_all(&head).map_err(|e| writer.error(e))?;
            }
        }
        Ok((writer, done))
    }

    fn error(&self, e: std::io::Error) -> String {
        format!("cannot write {}: {e}", self.path)
    }

    pub fn write(&mut self, record: &GameRecord) -> Result<(), String> {
        if self.text {
            writeln!(self.out, "{record}").map_err(|e| self.error(e))
        } else {
            let payload = encode(record);
            let mut bytes = Vec::with_capacity(payload.len() + 2);
            put_varint(&mut bytes, payload.len() as u64);
            bytes.extend(payload);
            self.out.write_all(&bytes).map_err(|e| self.error(e))
        }
    }

    /// Writes out what is buffered: after each record of a long run, so an interruption loses at
    /// most the record being written.
    pub fn flush(&mut self) -> Result<(), String> {
        self.out.flush().map_err(|e| self.error(e))
    }
}

/// Reads every record of `path` (the small files of tests and merges).
pub fn read_all(path: &str) -> Result<(String, Vec<GameRecord>), String> {
    let mut reader = Reader::open(path)?;
    let mut records = Vec::new();
    while let Some(r) = reader.next_record()? {
        records.push(r);
    }
    if reader.torn {
        return Err(format!("{path}: the last record is torn (an interrupted write)"));
    }
    Ok((reader.header, records))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: u64, values: Vec<i8>, scores: Vec<i8>) -> GameRecord {
        let moves = "e6f4e3f6g5d6e7f5c5".as_bytes().chunks(2).map(|c| std::str::from_utf8(c).unwrap().parse().unwrap());
        let solved = 9 - values.len() + 1;
        GameRecord { index, moves: moves.collect(), labelled: solved.min(2), solved, values, scores }
    }

    #[test]
    fn records_round_trip_through_the_binary_form() {
        let cases = [
            game(0, vec![64, 64, 64], vec![10, 12, 20, 40, 64, -64, 5]),
            game(300, vec![64, 10, 10, -3, -64], vec![]),
            game(u64::MAX, vec![0], vec![-64, 64, 63, 56, 57, 57]),
            game(7, vec![1; 10], vec![3]),
        ];
        for record in cases {
            let bytes = encode(&record);
            assert_eq!(decode(&bytes).unwrap(), record);
        }
        // Two bytes of values for a game whose value never changes, one nibble a small score step.
        let steady = game(1, vec![8; 10], vec![1, 2, 3, 4, 5]);
        assert_eq!(encode(&steady).len(), 1 + 3 + 9 + 2 + 1 + 1 + 2);
    }

    #[test]
    fn bad_payloads_are_errors() {
        let good = encode(&game(5, vec![64, 10, 10], vec![1, 2, 30]));
        for cut in 0..good.len() {
            assert!(decode(&good[..cut]).is_err(), "cut at {cut}");
        }
        let mut extra = good.clone();
        extra.push(0);
        assert!(decode(&extra).is_err());
        let mut square = good.clone();
        square[4] = 64;
        assert!(decode(&square).is_err());
        let mut value = good;
        value[1 + 3 + 9] = 100;
        assert!(decode(&value).is_err());
    }

    fn temp(name: &str) -> String {
        let dir = std::env::temp_dir().join(format!("ebony-train-games-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name).to_string_lossy().into_owned()
    }

    #[test]
    fn both_forms_resume_after_a_torn_record() {
        for name in ["g.ebgm", "g.txt"] {
            let path = temp(name);
            let _ = std::fs::remove_file(&path);
            let (mut w, done) = Writer::resume(&path, "settings a").unwrap();
            assert!(done.is_empty());
            w.write(&game(3, vec![64, 64, 64], vec![1])).unwrap();
            w.write(&game(4, vec![64, 10, 64], vec![])).unwrap();
            w.flush().unwrap();
            drop(w);
            let whole = std::fs::read(&path).unwrap();
            std::fs::write(&path, &whole[..whole.len() - 3]).unwrap();
            let (mut w, done) = Writer::resume(&path, "settings a").unwrap();
            assert_eq!(done.into_iter().collect::<Vec<_>>(), vec![3], "{name}");
            w.write(&game(4, vec![64, 10, 64], vec![])).unwrap();
            w.flush().unwrap();
            drop(w);
            assert_eq!(std::fs::read(&path).unwrap(), whole, "{name}");
            let (header, records) = read_all(&path).unwrap();
            assert_eq!((header.as_str(), records.len()), ("settings a", 2));
            assert!(Writer::resume(&path, "settings b").unwrap_err().contains("other settings"));
            std::fs::remove_file(&path).unwrap();
        }
    }
}
