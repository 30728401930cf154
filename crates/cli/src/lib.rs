//! The parts of the `libro` command line that are pure text handling, kept in a library so
//! that tests and fuzz targets reach them without running a process.

pub mod uci_text;
