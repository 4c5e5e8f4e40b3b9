//! The book file reader: never panics; a file that loads writes back (`to_bytes`) to the same bytes
//! (the reserved word aside), which load to the same book; the book's queries do not panic on what
//! it loaded. The input is read as it is, and once more with its entry count and checksum made
//! right, so that the fuzzer reaches the entries.
#![no_main]

use ebony::book::Book;
use ebony::Board;
use libfuzzer_sys::fuzz_target;

const HEADER: usize = 24;
const ENTRY: usize = 21;

fn check(bytes: &[u8]) {
    let Ok(book) = Book::from_bytes(bytes) else { return };
    let written = book.to_bytes();
    assert_eq!(written[..12], bytes[..12], "header written differently");
    assert_eq!(written[16..], bytes[16..], "entries written differently");
    assert_eq!(Book::from_bytes(&written).as_ref(), Ok(&book), "written book reads differently");
    let start = Board::START;
    let _ = (book.moves(&start), book.line(&start, 8), book.stats());
    for ((p, o), _) in book.iter_sorted().into_iter().take(8) {
        if p & o == 0 {
            let board = Board::new(p, o);
            let _ = (book.moves(&board), book.line(&board, 8));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    check(data);
    if data.len() >= HEADER {
        let mut repaired = data.to_vec();
        repaired[..8].copy_from_slice(b"EBBK\x01\x00\x00\x00");
        let count = ((data.len() - HEADER) / ENTRY) as u32;
        repaired.truncate(HEADER + count as usize * ENTRY);
        repaired[8..12].copy_from_slice(&count.to_le_bytes());
        let sum = ebony_fuzz::fnv1a(&repaired[HEADER..]);
        repaired[16..24].copy_from_slice(&sum.to_le_bytes());
        check(&repaired);
    }
});
