//! The GGF reader: never panics; a record that reads as a game writes (`ggf::write`) to a record that
//! reads back as the same game: start, moves (passes included) and final position.
#![no_main]

use ebony::formats::ggf;
use ebony_fuzz::assert_same_game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(record) = ggf::parse(text) else { return };
    let (black, white) = record.time_used();
    let _ = (black + white, record.black_clock, record.white_clock);
    let Ok(game) = record.to_game() else { return };
    let written = ggf::write(&game);
    let again = ggf::parse(&written).unwrap_or_else(|e| panic!("{written:?} does not parse: {e}"));
    let again = again.to_game().unwrap_or_else(|e| panic!("{written:?} is not a game: {e}"));
    assert_same_game(&game, &again, &written);
    assert_eq!(ggf::write(&again), written, "written twice differently");
});
