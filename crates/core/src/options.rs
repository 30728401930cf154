//! Rule options declared once: [`rule_options!`] turns one list of fields (name, type,
//! default, explanation) into the options struct, its defaults, its specs and the code that
//! reads and writes each option as text; [`option_choice!`] does the same for an option's
//! words. [`Sources`] keeps where a loaded ruleset's values come from (its file's words, an
//! override) and lists every option with its value and source. Every family (chess, tables)
//! declares its options with them, so an option cannot be listed without being readable, or
//! readable without being listed, and both families read, refuse and list options alike.

use std::collections::BTreeMap;
use std::fmt;

/// What values an option takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// One of these words.
    Choice(&'static [&'static str]),
    /// `true` or `false`.
    Bool,
    /// A whole number at least this large (for counts, 0 switches the rule off).
    Number { min: u32 },
}

impl OptionKind {
    /// The allowed values, for messages and listings.
    pub fn allowed(self) -> String {
        match self {
            OptionKind::Choice(values) => values.join(" | "),
            OptionKind::Bool => "true | false".into(),
            OptionKind::Number { min: 0 } => "a whole number (0 = off)".into(),
            OptionKind::Number { min } => format!("a whole number, at least {min}"),
        }
    }

    /// Every value, where the option has a list of them (words and `true`/`false`).
    pub fn values(self) -> Option<&'static [&'static str]> {
        match self {
            OptionKind::Choice(values) => Some(values),
            OptionKind::Bool => Some(&["true", "false"]),
            OptionKind::Number { .. } => None,
        }
    }
}

/// The static description of one option.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    pub explanation: &'static str,
    /// Whether the option only makes sense with more than two seats.
    pub multi_seat: bool,
    /// Whether a ruleset lists it only once its file or an override sets it (options added
    /// to a family after its files were written, so their listings stay as they were).
    pub quiet: bool,
}

/// An option that cannot be set: its name is unknown, or its value is not allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name; `known` lists the family's options in order.
    Unknown {
        name: String,
        known: Vec<&'static str>,
    },
    /// The option does not take this value.
    BadValue {
        name: &'static str,
        value: String,
        kind: OptionKind,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown { name, known } => {
                write!(f, "unknown option `{name}` (options: {})", known.join(", "))
            }
            OptionError::BadValue { name, value, kind } => write!(
                f,
                "option `{name}` cannot be `{value}`: allowed {}",
                kind.allowed()
            ),
        }
    }
}

impl std::error::Error for OptionError {}

/// A family's options struct, as [`rule_options!`] declares it: its specs and each option
/// read and written as text.
pub trait RuleOptions: Default + Clone + fmt::Debug {
    /// Every option, in declaration order.
    const SPECS: &'static [OptionSpec];
    /// Sets option `name` from its text; a refused value changes nothing.
    fn set_text(&mut self, name: &str, value: &str) -> Result<(), OptionError>;
    /// The value of option `name` as text (empty for an unknown name).
    fn get_text(&self, name: &str) -> String;
    /// The spec of option `name`.
    fn spec(name: &str) -> Option<&'static OptionSpec> {
        Self::SPECS.iter().find(|s| s.name == name)
    }
    /// The family's default value of option `name`, as text.
    fn default_text(name: &str) -> String {
        Self::default().get_text(name)
    }
}

/// One option of a loaded ruleset: what it is, its value in force and where that comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionEntry {
    pub spec: &'static OptionSpec,
    /// The value in force, as text.
    pub value: String,
    /// Where it comes from: the file's words, `--option`, or the default source given to
    /// [`Sources::listing`].
    pub source: String,
    /// Whether the file or an override set it (otherwise it is the family's default).
    pub set: bool,
}

/// Where each option set by a ruleset file or an override got its value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sources(BTreeMap<&'static str, String>);

impl Sources {
    /// Sets option `name` of `values` from `text`, recording `source` as where it comes from.
    pub fn set<O: RuleOptions>(
        &mut self,
        values: &mut O,
        name: &str,
        text: &str,
        source: impl Into<String>,
    ) -> Result<&'static OptionSpec, OptionError> {
        let spec = O::spec(name).ok_or_else(|| OptionError::Unknown {
            name: name.to_string(),
            known: O::SPECS.iter().map(|s| s.name).collect(),
        })?;
        values.set_text(name, text)?;
        self.0.insert(spec.name, source.into());
        Ok(spec)
    }

    /// Where option `name`'s value comes from, if a file or an override set it.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// Every option of `values` in declaration order, with its value and source
    /// (`default_source` for those nobody set).
    pub fn listing<O: RuleOptions>(&self, values: &O, default_source: &str) -> Vec<OptionEntry> {
        O::SPECS
            .iter()
            .map(|spec| {
                let source = self.get(spec.name);
                OptionEntry {
                    spec,
                    value: values.get_text(spec.name),
                    source: source.unwrap_or(default_source).to_string(),
                    set: source.is_some(),
                }
            })
            .collect()
    }
}

/// A type an option's value can have: read from and written to the text of ruleset files
/// and `--option`.
pub trait OptionValue: Copy {
    /// What values it takes.
    const KIND: OptionKind;
    /// Reads a value; `None` if the text is not one.
    fn read(text: &str) -> Option<Self>;
    /// Writes the value as it is read.
    fn write(self) -> String;
    /// The value as a number, for checking a number option's least value.
    fn number(self) -> Option<u32> {
        None
    }
}

impl OptionValue for bool {
    const KIND: OptionKind = OptionKind::Bool;
    fn read(text: &str) -> Option<bool> {
        match text {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        }
    }
    fn write(self) -> String {
        self.to_string()
    }
}

impl OptionValue for u32 {
    const KIND: OptionKind = OptionKind::Number { min: 0 };
    fn read(text: &str) -> Option<u32> {
        text.parse().ok()
    }
    fn write(self) -> String {
        self.to_string()
    }
    fn number(self) -> Option<u32> {
        Some(self)
    }
}

/// Reads `text` as a value of `T` for the option `spec`, saying what is allowed if it
/// cannot (the shared body of every generated setter).
pub fn read_value<T: OptionValue>(spec: &OptionSpec, text: &str) -> Result<T, OptionError> {
    let bad = || OptionError::BadValue {
        name: spec.name,
        value: text.to_string(),
        kind: spec.kind,
    };
    let value = T::read(text).ok_or_else(bad)?;
    match (spec.kind, value.number()) {
        (OptionKind::Number { min }, Some(n)) if n < min => Err(bad()),
        _ => Ok(value),
    }
}

/// An option's words as an enum: `option_choice! { pub enum Stalemate { Win = "win", ... } }`
/// declares the enum and its [`OptionValue`] (the words, in order, are the allowed values).
#[macro_export]
macro_rules! option_choice {
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $crate::options::OptionValue for $name {
            const KIND: $crate::options::OptionKind =
                $crate::options::OptionKind::Choice(&[$($text),+]);
            fn read(text: &str) -> Option<Self> {
                match text {
                    $($text => Some($name::$variant),)+
                    _ => None,
                }
            }
            fn write(self) -> String {
                match self {
                    $($name::$variant => $text,)+
                }
                .to_string()
            }
        }
    };
}

/// When an option of [`rule_options!`] is listed: `; listed when_set` or `; listed always`.
#[doc(hidden)]
#[macro_export]
macro_rules! __option_quiet {
    (when_set) => {
        true
    };
    (always) => {
        false
    };
}

/// A family's rule options, each declared once:
///
/// ```ignore
/// rule_options! {
///     /// The resolved rule options of a ruleset.
///     pub struct Options;
///     /// every option of the family
///     pub const SPECS;
///     /// A pawn may advance two squares ...
///     pawn_double_step: DoubleStep = DoubleStep::None, "explanation";
///     stake: u32 = 1; min 1; seats > 2, "explanation";
///     doubles: Doubles = Doubles::Once; listed when_set, "explanation";
/// }
/// ```
///
/// gives the struct with one public field per option, `Default` (the defaults), `SPECS`
/// (name, kind — `min N` raises a number's least value —, explanation, whether it only
/// matters with more than two seats, `seats > 2`, and whether it is listed only once set,
/// `listed when_set`; in declaration order), `set(name, text)`, `get(name)` and [`RuleOptions`].
///
/// [`RuleOptions`]: crate::options::RuleOptions
#[macro_export]
macro_rules! rule_options {
    (
        $(#[$meta:meta])* $vis:vis struct $name:ident;
        $(#[$specs_meta:meta])* $specs_vis:vis const $specs:ident;
        $(
            $(#[$fmeta:meta])*
            $field:ident : $ty:ty = $default:expr
            $(; min $min:literal)? $(; seats > $seats:literal)? $(; listed $listed:ident)?,
            $explanation:literal;
        )+
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        $vis struct $name {
            $($(#[$fmeta])* pub $field: $ty,)+
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $($field: $default,)+ }
            }
        }

        $(#[$specs_meta])*
        $specs_vis const $specs: &[$crate::options::OptionSpec] = &[
            $($crate::options::OptionSpec {
                name: stringify!($field),
                kind: {
                    #[allow(unused_variables)]
                    let kind = <$ty as $crate::options::OptionValue>::KIND;
                    $(let kind = $crate::options::OptionKind::Number { min: $min };)?
                    kind
                },
                explanation: $explanation,
                multi_seat: false $(|| $seats >= 2)?,
                quiet: false $(|| $crate::__option_quiet!($listed))?,
            },)+
        ];

        impl $name {
            /// Sets option `name` from its text value, saying what is wrong if it cannot (a
            /// refused value changes nothing).
            pub fn set(
                &mut self,
                name: &str,
                value: &str,
            ) -> Result<(), $crate::options::OptionError> {
                let Some(spec) = $specs.iter().find(|s| s.name == name) else {
                    return Err($crate::options::OptionError::Unknown {
                        name: name.to_string(),
                        known: $specs.iter().map(|s| s.name).collect(),
                    });
                };
                match name {
                    $(stringify!($field) => {
                        self.$field = $crate::options::read_value(spec, value)?;
                    })+
                    _ => unreachable!("every spec is a field"),
                }
                Ok(())
            }

            /// The current value of option `name`, as text (empty for an unknown name).
            pub fn get(&self, name: &str) -> String {
                match name {
                    $(stringify!($field) => $crate::options::OptionValue::write(self.$field),)+
                    _ => String::new(),
                }
            }
        }

        impl $crate::options::RuleOptions for $name {
            const SPECS: &'static [$crate::options::OptionSpec] = $specs;
            fn set_text(
                &mut self,
                name: &str,
                value: &str,
            ) -> Result<(), $crate::options::OptionError> {
                self.set(name, value)
            }
            fn get_text(&self, name: &str) -> String {
                self.get(name)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::option_choice! {
        /// A toy option's words.
        pub enum Pace {
            Slow = "slow",
            Fast = "fast",
        }
    }

    crate::rule_options! {
        /// A toy family's options.
        pub struct Toy;
        /// Its specs.
        pub const TOY_SPECS;
        pace: Pace = Pace::Slow, "how fast";
        doubles: bool = true, "doubles count twice";
        stake: u32 = 2; min 1; seats > 2, "what each seat pays";
        limit: u32 = 0, "plies before a draw (0 = off)";
        late: bool = false; listed when_set, "an option added after the files";
    }

    #[test]
    fn one_declaration_gives_defaults_specs_and_text() {
        let mut toy = Toy::default();
        assert_eq!(
            (toy.pace, toy.doubles, toy.stake, toy.limit),
            (Pace::Slow, true, 2, 0)
        );
        let names: Vec<&str> = TOY_SPECS.iter().map(|s| s.name).collect();
        assert_eq!(names, ["pace", "doubles", "stake", "limit", "late"]);
        assert_eq!(TOY_SPECS[0].kind, OptionKind::Choice(&["slow", "fast"]));
        assert_eq!(TOY_SPECS[2].kind, OptionKind::Number { min: 1 });
        assert_eq!(TOY_SPECS[3].kind, OptionKind::Number { min: 0 });
        assert!(TOY_SPECS[2].multi_seat && !TOY_SPECS[3].multi_seat);
        assert!(TOY_SPECS[4].quiet && !TOY_SPECS[0].quiet);
        for spec in TOY_SPECS {
            let text = toy.get(spec.name);
            toy.set(spec.name, &text).unwrap();
        }
        assert_eq!(toy, Toy::default(), "every default reads back");
        toy.set("pace", "fast").unwrap();
        assert_eq!(toy.get("pace"), "fast");
    }

    #[test]
    fn bad_values_and_names_say_what_is_allowed() {
        let mut toy = Toy::default();
        let e = toy.set("pace", "medium").unwrap_err();
        assert_eq!(
            e,
            OptionError::BadValue {
                name: "pace",
                value: "medium".into(),
                kind: OptionKind::Choice(&["slow", "fast"]),
            }
        );
        let e = e.to_string();
        assert!(
            e.contains("`pace` cannot be `medium`") && e.contains("slow | fast"),
            "{e}"
        );
        let e = toy.set("stake", "0").unwrap_err().to_string();
        assert!(e.contains("at least 1"), "{e}");
        toy.set("limit", "0").unwrap();
        assert!(toy.set("doubles", "yes").is_err());
        let e = toy.set("speed", "1").unwrap_err().to_string();
        assert!(
            e.contains("unknown option `speed`") && e.contains("pace, doubles"),
            "{e}"
        );
        assert_eq!(toy, Toy::default(), "a refused value changes nothing");
    }

    #[test]
    fn defaults_come_from_the_one_declaration() {
        assert_eq!(Toy::default_text("pace"), "slow");
        assert_eq!(Toy::default_text("stake"), "2");
        assert_eq!(Toy::default_text("late"), "false");
        assert_eq!(Toy::default_text("speed"), "", "no such option");
        assert_eq!(
            Toy::spec("limit").map(|s| s.kind),
            Some(OptionKind::Number { min: 0 })
        );
        assert!(Toy::spec("speed").is_none());
    }

    #[test]
    fn sources_record_who_set_what_and_list_every_option() {
        let mut toy = Toy::default();
        let mut sources = Sources::default();
        let spec = sources
            .set(&mut toy, "pace", "fast", "the file: fol. 3r")
            .unwrap();
        assert_eq!(spec.name, "pace");
        sources.set(&mut toy, "late", "true", "--option").unwrap();
        // An unknown name and a bad value are refused by name and change nothing.
        let e = sources.set(&mut toy, "speed", "1", "x").unwrap_err();
        assert_eq!(
            e,
            OptionError::Unknown {
                name: "speed".into(),
                known: vec!["pace", "doubles", "stake", "limit", "late"],
            }
        );
        let e = sources.set(&mut toy, "stake", "0", "x").unwrap_err();
        assert!(
            matches!(e, OptionError::BadValue { name: "stake", .. }),
            "{e}"
        );
        assert_eq!(sources.get("stake"), None);
        assert_eq!(toy.stake, 2);

        let listed = sources.listing(&toy, "default");
        let row = |name: &str| listed.iter().find(|e| e.spec.name == name).unwrap();
        assert_eq!(listed.len(), TOY_SPECS.len());
        assert_eq!(
            (
                row("pace").value.as_str(),
                row("pace").source.as_str(),
                row("pace").set
            ),
            ("fast", "the file: fol. 3r", true)
        );
        assert_eq!(
            (row("late").value.as_str(), row("late").source.as_str()),
            ("true", "--option")
        );
        assert_eq!(
            (
                row("stake").value.as_str(),
                row("stake").source.as_str(),
                row("stake").set
            ),
            ("2", "default", false)
        );
    }
}
