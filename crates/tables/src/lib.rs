//! The tables family of libro.
