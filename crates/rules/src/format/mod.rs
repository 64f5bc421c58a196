//! Every text format of every family, side by side: FEN (`fen` for the
//! turn-based family and the reader all three share, `crowd` and `sim` for
//! their extensions), move notation (`notation`: coordinates, SAN and the
//! lenient reader, over each family's `MoveContext`), and game records
//! (`record`).

pub mod crowd;
pub mod fen;
pub mod notation;
pub mod record;
pub mod sim;
