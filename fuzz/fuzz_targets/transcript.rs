//! Transcripts and the `load` reader (`native::read_game`: a GGF record or squares run together):
//! never panics; a game read writes back as a transcript (passes left out) and as GGF, and both read
//! back as the same game.
#![no_main]

use ebony::formats::ggf;
use ebony::protocol::native::read_game;
use ebony::Move;
use ebony_fuzz::assert_same_game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(game) = read_game(text) else { return };
    let as_ggf = ggf::write(&game);
    let again = read_game(&as_ggf).unwrap_or_else(|e| panic!("{as_ggf:?} does not load: {e}"));
    assert_same_game(&game, &again, &as_ggf);
    if game.start() == &ebony::Position::START {
        let transcript: String = game.moves().filter(|&m| m != Move::Pass).map(|m| m.to_string()).collect();
        if transcript.is_empty() {
            return;
        }
        let again = read_game(&transcript).unwrap_or_else(|e| panic!("{transcript:?} does not load: {e}"));
        assert_same_game(&game, &again, &transcript);
    }
});
