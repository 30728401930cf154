//! Replaying Ludii's recorded playouts move for move.
