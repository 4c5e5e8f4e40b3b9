//! Transcripts and the `load` reader (`native::read_game`: a GGF record or squares run together):
//! never panics; a game read writes back as a transcript (passes left out) and as GGF, and both read
//! back as the same game.
#![no_main]

use ebony::formats::ggf;
use ebony::protocol::native::read_game;
use ebony::rules::game::Game;
use ebony::Move;
use libfuzzer_sys::fuzz_target;

fn assert_same(a: &Game, b: &Game, context: &str) {
    assert_eq!(a.start(), b.start(), "{context}");
    assert_eq!(a.moves().collect::<Vec<_>>(), b.moves().collect::<Vec<_>>(), "{context}");
    assert_eq!(a.position(), b.position(), "{context}");
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(game) = read_game(text) else { return };
    let as_ggf = ggf::write(&game);
    let again = read_game(&as_ggf).unwrap_or_else(|e| panic!("{as_ggf:?} does not load: {e}"));
    assert_same(&game, &again, &as_ggf);
    if game.start() == &ebony::Position::START {
        let transcript: String = game.moves().filter(|&m| m != Move::Pass).map(|m| m.to_string()).collect();
        if transcript.is_empty() {
            return;
        }
        let again = read_game(&transcript).unwrap_or_else(|e| panic!("{transcript:?} does not load: {e}"));
        assert_same(&game, &again, &transcript);
    }
});
