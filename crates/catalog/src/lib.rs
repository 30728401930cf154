//! The rulesets shipped with libro.
