//! The chess family of libro.
