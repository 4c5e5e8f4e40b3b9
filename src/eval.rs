//! Static evaluation: a score in discs for the side to move. Every caller goes through [`evaluate`],
//! so a learned pattern evaluation can replace this one without touching the search.

use crate::board::Board;

/// Corners: worth holding for good.
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// A rough disc-difference estimate: mobility and corners.
pub fn evaluate(board: &Board) -> i32 {
    let mobility = board.moves().count_ones() as i32 - board.pass().moves().count_ones() as i32;
    let corners = (board.player & CORNERS).count_ones() as i32 - (board.opponent & CORNERS).count_ones() as i32;
    (mobility * 2 + corners * 8).clamp(-63, 63)
}
