//! Game files: the generator's output and the fit's input, as a stream of [`GameRecord`]s after a
//! header naming the settings that made them. Two forms hold the same records:
//!
//! - **binary** (`.ebgm`, the form the generator writes and the repository keeps): about a byte a
//!   move in version 2 (half a byte for the moves themselves), a byte and a half in version 1;
//! - **text** (a path ending in `.txt`): one record a line, as [`GameRecord`]'s `Display` writes it,
//!   after a `#` header line; readable with `less`, and the form of the files made before the binary
//!   one existed.
//!
//! A reader tells the forms apart by the first bytes, and the binary versions by the header; a
//! writer picks the form by the path. A new binary file is version 2; a run that resumes a file
//! appends in the file's own version. `ebony-train convert` turns one form or version into another,
//! losslessly (each record and the header come back the same).
//!
//! # The binary form
//!
//! ```text
//! file    = "EBGM" version:u8 header-length:varint header:utf8 record*
//! record  = length:varint payload              (length = the payload's bytes)
//! payload = index:varint moves:u8 labelled:u8 solved:u8
//!           transcript
//!           first-value:i8 changes:u8 (offset:u8 value:i8) * changes
//!           scores:u8 [first-score:i8 delta-nibbles escaped:i8*]
//!
//! version 1: transcript = square:u8 * moves       (a1 = 0 ... h8 = 63)
//! version 2: transcript = choice-nibbles          (ceil(nibbles / 2) bytes, a last odd one padded with 0)
//! ```
//!
//! - Transcript: the moves, forced passes left out (the position after a move has its forced pass
//!   played, as in [`GameRecord::positions`]). Version 1 stores each move's square. Version 2 stores
//!   each move's choice: its index among the side to move's legal moves in square order (a1 = 0 ...
//!   h8 = 63, so the lowest square is choice 0), found by replaying the game from the start. A move
//!   with no other legal move is not stored at all. A choice takes one nibble (low nibble first,
//!   two to a byte) if below 15; otherwise nibble 15 stands for "15 plus the next nibble", repeated
//!   (choice 16 is `15 1`, choice 30 is `15 15 0`). A reader checks every choice against the legal
//!   moves: a choice beyond them, a move after the end of the game, a padding nibble other than 0
//!   are errors.
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
//! Version 2's layout was chosen by size after `gzip -9` (git keeps blobs zlib-compressed): on the
//! 137,023 games of `om-d8-seed17.ebgm`, 94.2 bytes a game raw and 70.2 compressed in version 1,
//! 63.4 and 50.2 in version 2 (`ebony-train convert` to either version, then `gzip -9 | wc -c`).
//! Throwaway encoders that stored a choice a byte, or kept the moves without a choice, or stored
//! the scores a byte each, all came out larger after compression.
//!
//! A record's length prefix lets a reader tell a torn last record (an interrupted write: fewer
//! bytes left than the length) from a corrupt one, and a resumed run cut it off.

use crate::record::{after_forced_pass, GameRecord};
use ebony::rules::board::{Board, Color};
use ebony::rules::square::Square;
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Read, Write};

const MAGIC: &[u8; 4] = b"EBGM";
/// The binary version of a new file; a reader reads every version from 1 to this.
pub const VERSION: u8 = 2;
/// The longest record: a varint index, 3 counts, 60 moves, 2 + 2 * 61 value bytes, 1 + 1 + 30 + 60
/// score bytes; far below this.
const MAX_RECORD: u64 = 1 << 12;
/// The choice nibble that means "15 more, and read the next nibble".
const CHOICE_ESCAPE: u8 = 15;

/// Whether `path` names the text form.
pub fn is_text(path: &str) -> bool {
    path.ends_with(".txt")
}

/// A game file's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Text,
    /// The binary form, of this version.
    Binary(u8),
}

fn check_version(version: u8) -> Result<(), String> {
    if (1..=VERSION).contains(&version) {
        Ok(())
    } else {
        Err(format!("game file version {version}: this build knows versions 1 to {VERSION}"))
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Nibbles two to a byte, low nibble first.
fn pack_nibbles(nibbles: &[u8]) -> impl Iterator<Item = u8> + '_ {
    nibbles.chunks(2).map(|c| c[0] | c.get(1).map_or(0, |h| h << 4))
}

/// A game of record `index` replayed from the start position, a forced pass played after each move
/// as in [`GameRecord::positions`], for version 2's choices.
struct Replay {
    index: u64,
    board: Board,
    side: Color,
    ply: usize,
}

impl Replay {
    fn new(index: u64) -> Replay {
        Replay { index, board: Board::START, side: Color::Black, ply: 0 }
    }

    /// The legal moves now; an error if the game is over (the record has a move after its end).
    fn legal(&self) -> Result<u64, String> {
        match self.board.moves() {
            0 => Err(format!("game {}: move {} after the end of the game", self.index, self.ply + 1)),
            legal => Ok(legal),
        }
    }

    fn play(&mut self, sq: Square) {
        (self.board, self.side) = after_forced_pass(self.board.play(sq), self.side.opposite());
        self.ply += 1;
    }
}

/// Version 2's transcript: each move's choice among the legal moves, for the moves that had one.
fn put_choices(out: &mut Vec<u8>, index: u64, moves: &[Square]) -> Result<(), String> {
    let mut nibbles = Vec::with_capacity(64);
    let mut game = Replay::new(index);
    for &sq in moves {
        let legal = game.legal()?;
        if legal & sq.bit() == 0 {
            return Err(format!("game {index}: move {} ({sq}) is illegal", game.ply + 1));
        }
        if legal.count_ones() > 1 {
            let mut choice = (legal & (sq.bit() - 1)).count_ones() as u8;
            while choice >= CHOICE_ESCAPE {
                nibbles.push(CHOICE_ESCAPE);
                choice -= CHOICE_ESCAPE;
            }
            nibbles.push(choice);
        }
        game.play(sq);
    }
    out.extend(pack_nibbles(&nibbles));
    Ok(())
}

/// The binary payload of one record in `version`. Version 2 replays the game: an illegal move, or
/// one after the end, is an error.
pub fn encode(record: &GameRecord, version: u8) -> Result<Vec<u8>, String> {
    check_version(version)?;
    let mut out = Vec::with_capacity(96);
    put_varint(&mut out, record.index);
    out.extend([record.moves.len() as u8, record.labelled as u8, record.solved as u8]);
    if version == 1 {
        out.extend(record.moves.iter().map(|sq| sq.index() as u8));
    } else {
        put_choices(&mut out, record.index, &record.moves)?;
    }
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
        out.extend(pack_nibbles(&nibbles));
        out.extend(escaped);
    }
    Ok(out)
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

/// Version 2's transcript of `n` moves, replayed.
fn take_choices(c: &mut Cursor, index: u64, n: usize) -> Result<Vec<Square>, String> {
    let mut high = None;
    let mut nibble = |c: &mut Cursor| -> Result<u8, String> {
        Ok(match high.take() {
            Some(h) => h,
            None => {
                let b = c.byte()?;
                high = Some(b >> 4);
                b & 0xF
            }
        })
    };
    let mut game = Replay::new(index);
    let mut moves = Vec::with_capacity(n);
    for _ in 0..n {
        let mut legal = game.legal()?;
        let count = legal.count_ones();
        let mut choice = 0;
        if count > 1 {
            loop {
                let x = nibble(c)?;
                choice += x as u32;
                if choice >= count {
                    return Err(format!("game {index}: move {}: choice {choice} of {count} legal moves", game.ply + 1));
                }
                if x < CHOICE_ESCAPE {
                    break;
                }
            }
        }
        for _ in 0..choice {
            legal &= legal - 1;
        }
        let sq = Square::first(legal);
        moves.push(sq);
        game.play(sq);
    }
    match high {
        Some(h) if h != 0 => Err(format!("game {index}: padding nibble {h} after the moves")),
        _ => Ok(moves),
    }
}

/// The record of a binary payload in `version`. Checks the form; version 2 also replays the moves
/// (each must be legal), and [`GameRecord::positions`] checks the rest of the game.
pub fn decode(payload: &[u8], version: u8) -> Result<GameRecord, String> {
    check_version(version)?;
    let mut c = Cursor { bytes: payload, at: 0 };
    let index = c.varint()?;
    let (n, labelled, solved) = (c.byte()? as usize, c.byte()? as usize, c.byte()? as usize);
    if n > 60 || labelled > solved || solved > n {
        return Err(format!("game {index}: {n} moves, labelled from {labelled}, solved from {solved}"));
    }
    let moves = if version == 1 {
        c.take(n)?
            .iter()
            .map(|&b| Square::new(b).ok_or_else(|| format!("game {index}: square {b}")))
            .collect::<Result<Vec<_>, _>>()?
    } else {
        take_choices(&mut c, index, n)?
    };
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
    pub form: Form,
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
        // Looked at without consuming: a text file's header line may be shorter than the magic. A
        // regular file fills the buffer in one read, so a binary file's magic and version are here.
        let start = input.fill_buf().map_err(|e| format!("cannot read {path}: {e}"))?;
        let version = (start.len() >= 5 && &start[..4] == MAGIC).then(|| start[4]);
        let mut reader = Reader {
            path: path.to_string(),
            input,
            form: Form::Text,
            line: 0,
            header: String::new(),
            good_len: 0,
            torn: false,
        };
        if let Some(version) = version {
            check_version(version).map_err(|e| format!("{path}: {e}"))?;
            reader.input.consume(5);
            reader.form = Form::Binary(version);
            let len = reader.varint()?.ok_or_else(|| format!("{path}: no header"))?;
            let bytes = reader.exact(len)?.ok_or_else(|| format!("{path}: the header ends early"))?;
            reader.header = String::from_utf8(bytes).map_err(|_| format!("{path}: the header is not UTF-8"))?;
            reader.good_len = 5 + varint_len(len) + len;
            return Ok(reader);
        }
        let mut line = Vec::new();
        reader.input.read_until(b'\n', &mut line).map_err(|e| format!("cannot read {path}: {e}"))?;
        let line = String::from_utf8(line).map_err(|_| format!("{path}: not a game file"))?;
        let head = line.strip_suffix('\n').filter(|head| head.starts_with('#'));
        let head = head.ok_or_else(|| format!("{path}: not a game file (no header line)"))?;
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
        let Form::Binary(version) = self.form else {
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
        };
        let Some(len) = self.varint()? else { return Ok(None) };
        if len == 0 || len > MAX_RECORD {
            return Err(format!("{}: bad record length {len} at byte {}", self.path, self.good_len));
        }
        let Some(payload) = self.exact(len)? else {
            self.torn = true;
            return Ok(None);
        };
        let record = decode(&payload, version).map_err(|e| format!("{}: byte {}: {e}", self.path, self.good_len))?;
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
    form: Form,
}

impl Writer {
    /// Opens `path` to append the records of a run with `header`, and the indices it holds already.
    /// A new or empty file gets the header (binary: version [`VERSION`]); an existing one must have
    /// the same header, keeps its version, and has a torn last record cut off, so the run appends
    /// after whole records.
    pub fn resume(path: &str, header: &str) -> Result<(Writer, BTreeSet<u64>), String> {
        let mut done = BTreeSet::new();
        let exists = std::fs::metadata(path).map(|m| m.len() > 0).unwrap_or(false);
        if !exists {
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open {path}: {e}"))?;
            return Ok((Writer::start(path, file, header, VERSION)?, done));
        }
        let mut reader = Reader::open(path)?;
        if reader.header != header {
            return Err(format!("{path} was made with other settings:\n  {}\nnot\n  {header}", reader.header));
        }
        if (reader.form == Form::Text) != is_text(path) {
            return Err(format!("{path}: the file's form does not match its name (.txt is the text form)"));
        }
        while let Some(record) = reader.next_record()? {
            done.insert(record.index);
        }
        let file = OpenOptions::new().write(true).open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
        file.set_len(reader.good_len).map_err(|e| format!("cannot truncate {path}: {e}"))?;
        let file = OpenOptions::new().append(true).open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
        Ok((Writer { path: path.to_string(), out: BufWriter::new(file), form: reader.form }, done))
    }

    /// A new file `path` with `header`, in the binary form's `version` unless the path names the
    /// text form; an existing file is refused.
    pub fn create(path: &str, header: &str, version: u8) -> Result<Writer, String> {
        check_version(version)?;
        let file = OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                format!("{path} exists; choose a new file")
            } else {
                format!("cannot create {path}: {e}")
            }
        })?;
        Writer::start(path, file, header, version)
    }

    /// Writes the header of a new file.
    fn start(path: &str, file: File, header: &str, version: u8) -> Result<Writer, String> {
        let form = if is_text(path) { Form::Text } else { Form::Binary(version) };
        let mut writer = Writer { path: path.to_string(), out: BufWriter::new(file), form };
        if form == Form::Text {
            writeln!(writer.out, "# {header}").map_err(|e| writer.error(e))?;
        } else {
            let mut head = MAGIC.to_vec();
            head.push(version);
            put_varint(&mut head, header.len() as u64);
            head.extend(header.as_bytes());
            writer.out.write_all(&head).map_err(|e| writer.error(e))?;
        }
        Ok(writer)
    }

    fn error(&self, e: std::io::Error) -> String {
        format!("cannot write {}: {e}", self.path)
    }

    pub fn write(&mut self, record: &GameRecord) -> Result<(), String> {
        match self.form {
            Form::Text => writeln!(self.out, "{record}").map_err(|e| self.error(e)),
            Form::Binary(version) => {
                let payload = encode(record, version).map_err(|e| format!("{}: {e}", self.path))?;
                let mut bytes = Vec::with_capacity(payload.len() + 2);
                put_varint(&mut bytes, payload.len() as u64);
                bytes.extend(payload);
                self.out.write_all(&bytes).map_err(|e| self.error(e))
            }
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

/// A bound on the positions a game file holds, from its size and form, for sizing work by memory
/// before reading it. A game has at most 61 positions. A text line takes 2 bytes a move and 8 more,
/// a version 1 record a byte a move and 8 more: at least a byte a position. A version 2 record may
/// take as few as 9 bytes (8 and the first move's nibble; real ones take a byte a position too).
pub fn max_positions(path: &str) -> Result<u64, String> {
    let form = Reader::open(path)?.form;
    let bytes = std::fs::metadata(path).map_err(|e| format!("cannot read {path}: {e}"))?.len();
    Ok(match form {
        Form::Text | Form::Binary(1) => bytes,
        Form::Binary(_) => (bytes * 61).div_ceil(9),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transcript(text: &str) -> Vec<Square> {
        text.as_bytes().chunks(2).map(|c| std::str::from_utf8(c).unwrap().parse().unwrap()).collect()
    }

    /// The shortest game (black wins 13-0 after nine moves), with `values` from its solve point on.
    fn game(index: u64, values: Vec<i8>, scores: Vec<i8>) -> GameRecord {
        let solved = 9 - values.len() + 1;
        let moves = transcript("e6f4e3f6g5d6e7f5c5");
        GameRecord { index, moves, labelled: solved.min(2), solved, values, scores }
    }

    /// Game 16957 of iter2.ebgm: white has no move after moves 17 (b4) and 18 (a7), so black plays
    /// three moves in a row; move 16 (c5) is the only legal move.
    fn with_passes() -> GameRecord {
        let moves = transcript("f5d6c7d7c3b7d8e7f8f4g4f7b8d3d2c5b4a7f6");
        GameRecord { index: 16957, moves, labelled: 14, solved: 19, values: vec![64], scores: vec![64; 5] }
    }

    /// Game 8747 of iter2.ebgm: move 30 (d8) is choice 15 of 16, an escaped nibble; six forced passes.
    fn with_escape() -> GameRecord {
        let moves = transcript(
            "e6f6f5f4g7e7f7c6e3h7f3g4g5h5h6d7g3h3h4g2h8d3h2g6e8f8g8c2c3d8c1e2f1h1g1f2e1c8c7d6c5c4b3a4a2d1b1",
        );
        let scores = vec![
            39, 38, 39, 40, 43, 47, 50, 47, 58, 57, 61, 60, 64, 63, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
            64, 64,
        ];
        GameRecord {
            index: 8747,
            moves,
            labelled: 11,
            solved: 40,
            values: vec![64, 62, 62, 62, 62, 62, 62, 62],
            scores,
        }
    }

    /// The offset of the transcript in a payload whose index takes one byte.
    const MOVES_AT: usize = 1 + 3;

    #[test]
    fn records_round_trip_through_both_versions() {
        let cases = [
            game(0, vec![64, 64, 64], vec![10, 12, 20, 40, 64, -64, 5]),
            game(300, vec![64, 10, 10, -3, -64], vec![]),
            game(u64::MAX, vec![0], vec![-64, 64, 63, 56, 57, 57]),
            game(7, vec![1; 10], vec![3]),
            with_passes(),
            with_escape(),
        ];
        // The real games are whole and consistent; the others are forms only.
        with_passes().positions().unwrap();
        with_escape().positions().unwrap();
        for version in [1, 2] {
            for record in &cases {
                let bytes = encode(record, version).unwrap();
                assert_eq!(decode(&bytes, version).unwrap(), *record, "version {version}");
            }
        }
        // Version 1: two bytes of values for a game whose value never changes, one nibble a small
        // score step. Version 2: the nine moves' choices in five bytes (e6 is choice 3 of 4, ...).
        let steady = game(1, vec![8; 10], vec![1, 2, 3, 4, 5]);
        assert_eq!(encode(&steady, 1).unwrap().len(), 1 + 3 + 9 + 2 + 1 + 1 + 2);
        let v2 = encode(&steady, 2).unwrap();
        assert_eq!(v2.len(), 1 + 3 + 5 + 2 + 1 + 1 + 2);
        assert_eq!(v2[MOVES_AT..MOVES_AT + 5], [0x03, 0x32, 0x65, 0x44, 0x03]);
    }

    #[test]
    fn version_2_skips_moves_without_a_choice_and_plays_forced_passes() {
        let record = with_passes();
        let mut board = Board::START;
        let mut passes = 0;
        for &sq in &record.moves {
            board = board.play(sq);
            if board.moves() == 0 && !board.is_game_over() {
                board = board.pass();
                passes += 1;
            }
        }
        assert_eq!(passes, 2);
        let bytes = encode(&record, 2).unwrap();
        // A three-byte index, 19 moves of which one had no choice: 18 nibbles, 9 bytes.
        assert_eq!(bytes.len(), 3 + 3 + 9 + 2 + 1 + 1 + 2);
        // The last byte: a7 (choice 2 of 4), then after white's pass f6 (choice 0 of 2).
        assert_eq!(bytes[3 + 3 + 8], 0x02);
        assert_eq!(decode(&bytes, 2).unwrap(), record);
        // The escape: choice 15 of move 30 is nibbles 15 and 0, the 29th and 30th (move 24 had no
        // choice).
        let bytes = encode(&with_escape(), 2).unwrap();
        let nibbles: Vec<u8> = bytes[2 + 3..].iter().flat_map(|b| [b & 0xF, b >> 4]).collect();
        assert_eq!((nibbles[28], nibbles[29]), (15, 0));
        assert_eq!(decode(&bytes, 2).unwrap(), with_escape());
    }

    #[test]
    fn bad_payloads_are_errors() {
        for version in [1, 2] {
            let good = encode(&game(5, vec![64, 10, 10], vec![1, 2, 30]), version).unwrap();
            for cut in 0..good.len() {
                assert!(decode(&good[..cut], version).is_err(), "version {version}: cut at {cut}");
            }
            let mut extra = good.clone();
            extra.push(0);
            assert!(decode(&extra, version).is_err());
            // The values (4 bytes) and scores (4 bytes: 30 is escaped) end the payload.
            let mut value = good.clone();
            value[good.len() - 8] = 100;
            assert!(decode(&value, version).is_err());
        }
        assert!(encode(&game(5, vec![64], vec![]), 3).is_err());
        assert!(decode(&[0; 10], 0).is_err());
        // Version 1: a square off the board.
        let mut square = encode(&game(5, vec![64], vec![]), 1).unwrap();
        square[MOVES_AT] = 64;
        assert!(decode(&square, 1).unwrap_err().contains("square 64"));
        // Version 2: a choice beyond the legal moves (e6 is choice 3 of the 4 at the start).
        let good = encode(&game(5, vec![64], vec![]), 2).unwrap();
        let mut choice = good.clone();
        choice[MOVES_AT] = (choice[MOVES_AT] & 0xF0) | 4;
        assert!(decode(&choice, 2).unwrap_err().contains("choice 4 of 4"), "{:?}", decode(&choice, 2));
        let mut escaped = good.clone();
        escaped[MOVES_AT] = (escaped[MOVES_AT] & 0xF0) | 15;
        assert!(decode(&escaped, 2).unwrap_err().contains("choice 15 of 4"));
        // The ninth move's nibble is the low one of the fifth byte: its padding must be 0.
        let mut padding = good.clone();
        padding[MOVES_AT + 4] |= 0x10;
        assert!(decode(&padding, 2).unwrap_err().contains("padding"));
        // A tenth move after the end of the game, in the record and in the encoder.
        let mut after = good.clone();
        after[MOVES_AT - 3] = 10;
        after[MOVES_AT - 1] = 10;
        assert!(decode(&after, 2).unwrap_err().contains("move 10 after the end"));
        let mut record = game(5, vec![64], vec![]);
        record.moves.push("a1".parse().unwrap());
        record.solved = 10;
        assert!(encode(&record, 2).unwrap_err().contains("move 10 after the end"));
        // An illegal move is a square version 1 keeps (the replay rejects it) and version 2 cannot.
        let mut record = game(5, vec![64], vec![]);
        record.moves[1] = "a1".parse().unwrap();
        assert_eq!(decode(&encode(&record, 1).unwrap(), 1).unwrap(), record);
        assert!(encode(&record, 2).unwrap_err().contains("move 2 (a1) is illegal"));
    }

    fn temp(name: &str) -> String {
        let dir = std::env::temp_dir().join(format!("ebony-train-games-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name).to_string_lossy().into_owned()
    }

    #[test]
    fn every_form_resumes_after_a_torn_record_in_its_own_version() {
        for (name, version) in [("g1.ebgm", Some(1)), ("g2.ebgm", None), ("g.txt", None)] {
            let path = temp(name);
            let _ = std::fs::remove_file(&path);
            let mut w = match version {
                Some(v) => Writer::create(&path, "settings a", v).unwrap(),
                None => {
                    let (w, done) = Writer::resume(&path, "settings a").unwrap();
                    assert!(done.is_empty());
                    w
                }
            };
            w.write(&game(3, vec![64, 64, 64], vec![1])).unwrap();
            w.write(&game(4, vec![64, 10, 64], vec![])).unwrap();
            w.flush().unwrap();
            drop(w);
            let whole = std::fs::read(&path).unwrap();
            let form = Reader::open(&path).unwrap().form;
            let expected = if is_text(&path) { Form::Text } else { Form::Binary(version.unwrap_or(VERSION)) };
            assert_eq!(form, expected, "{name}");
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
            assert!(Writer::create(&path, "settings a", 2).unwrap_err().contains("exists"));
            std::fs::remove_file(&path).unwrap();
        }
    }

    #[test]
    fn a_text_header_shorter_than_the_binary_magic_reads() {
        let record = game(3, vec![64, 64, 64], vec![10, 12, 20]);
        for header in ["#", "# ", "#x"] {
            let path = temp("short.txt");
            std::fs::write(&path, format!("{header}\n{record}\n")).unwrap();
            let mut reader = Reader::open(&path).unwrap();
            assert_eq!(reader.header, header.trim_start_matches('#').trim());
            assert_eq!(reader.next_record().unwrap(), Some(record.clone()));
            assert_eq!(reader.next_record().unwrap(), None);
        }
        for bad in ["", "#", "x\n", "EBGM"] {
            let path = temp("bad-header.txt");
            std::fs::write(&path, bad).unwrap();
            assert!(Reader::open(&path).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_version_1_file_converts_to_version_2_and_back_byte_for_byte() {
        let records = [game(0, vec![64, 64, 64], vec![10, 12, 20]), with_passes(), with_escape()];
        let paths = [temp("c1.ebgm"), temp("c2.ebgm"), temp("c1-again.ebgm")];
        let mut from = records.to_vec();
        for (path, version) in paths.iter().zip([1, 2, 1]) {
            let _ = std::fs::remove_file(path);
            let mut w = Writer::create(path, "settings c", version).unwrap();
            for record in &from {
                w.write(record).unwrap();
            }
            w.flush().unwrap();
            drop(w);
            let (header, read) = read_all(path).unwrap();
            assert_eq!((header.as_str(), &read[..]), ("settings c", &records[..]), "version {version}");
            from = read;
        }
        let [one, two, again] = paths.clone().map(|p| std::fs::read(p).unwrap());
        assert_eq!((one[4], two[4]), (1, 2));
        assert!(two.len() < one.len());
        assert_eq!(one, again);
        for path in paths {
            std::fs::remove_file(path).unwrap();
        }
    }

    #[test]
    fn the_bound_on_positions_holds_in_every_form() {
        let shortest = GameRecord { labelled: 0, solved: 9, values: vec![64], ..game(0, vec![64], vec![]) };
        for (name, version) in [("b.txt", 2), ("b1.ebgm", 1), ("b2.ebgm", 2)] {
            let path = temp(name);
            let _ = std::fs::remove_file(&path);
            let mut w = Writer::create(&path, "settings b", version).unwrap();
            let records = [shortest.clone(), with_passes(), with_escape()];
            for (index, record) in records.iter().cycle().take(30).enumerate() {
                w.write(&GameRecord { index: index as u64, ..record.clone() }).unwrap();
            }
            w.flush().unwrap();
            drop(w);
            let positions: usize = read_all(&path).unwrap().1.iter().map(|r| r.moves.len() + 1).sum();
            assert!(positions as u64 <= max_positions(&path).unwrap(), "{name}");
            std::fs::remove_file(&path).unwrap();
        }
    }

    #[test]
    fn every_changed_byte_decodes_or_fails_cleanly() {
        for version in [1, 2] {
            for record in [with_passes(), game(5, vec![64, 10, 10], vec![1, 2, 30])] {
                let good = encode(&record, version).unwrap();
                for at in 0..good.len() {
                    for b in 0..=255 {
                        let mut bad = good.clone();
                        bad[at] = b;
                        // A decoded record is one the encoder can write again (its moves legal).
                        if let Ok(decoded) = decode(&bad, version) {
                            encode(&decoded, version).unwrap();
                        }
                    }
                }
            }
        }
    }
}
