//! Rule options declared once: [`rule_options!`] turns one list of fields (name, type,
//! default, explanation) into the options struct, its defaults, its specs and the code that
//! reads and writes each option as text; [`option_choice!`] does the same for an option's
//! words. Families declare their options with them, so an option cannot be listed without
//! being readable, or readable without being listed.

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
}

/// The static description of one option.
#[derive(Copy, Clone, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    pub explanation: &'static str,
    /// Whether the option only makes sense with more than two seats.
    pub multi_seat: bool,
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
pub fn read_value<T: OptionValue>(spec: &OptionSpec, text: &str) -> Result<T, String> {
    let bad = || {
        format!(
            "option `{}` cannot be `{text}`: allowed {}",
            spec.name,
            spec.kind.allowed()
        )
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
/// }
/// ```
///
/// gives the struct with one public field per option, `Default` (the defaults), `SPECS`
/// (name, kind — `min N` raises a number's least value —, explanation, and whether it only
/// matters with more than two seats, `seats > 2`; in declaration order),
/// `set(name, text)` and `get(name)`.
#[macro_export]
macro_rules! rule_options {
    (
        $(#[$meta:meta])* $vis:vis struct $name:ident;
        $(#[$specs_meta:meta])* $specs_vis:vis const $specs:ident;
        $(
            $(#[$fmeta:meta])*
            $field:ident : $ty:ty = $default:expr
            $(; min $min:literal)? $(; seats > $seats:literal)?, $explanation:literal;
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
            },)+
        ];

        impl $name {
            /// Sets option `name` from its text value, saying what is wrong if it cannot.
            pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
                let Some(spec) = $specs.iter().find(|s| s.name == name) else {
                    let names: Vec<&str> = $specs.iter().map(|s| s.name).collect();
                    return Err(format!(
                        "unknown option `{name}` (options: {})",
                        names.join(", ")
                    ));
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
    }

    #[test]
    fn one_declaration_gives_defaults_specs_and_text() {
        let mut toy = Toy::default();
        assert_eq!(
            (toy.pace, toy.doubles, toy.stake, toy.limit),
            (Pace::Slow, true, 2, 0)
        );
        let names: Vec<&str> = TOY_SPECS.iter().map(|s| s.name).collect();
        assert_eq!(names, ["pace", "doubles", "stake", "limit"]);
        assert_eq!(TOY_SPECS[0].kind, OptionKind::Choice(&["slow", "fast"]));
        assert_eq!(TOY_SPECS[2].kind, OptionKind::Number { min: 1 });
        assert_eq!(TOY_SPECS[3].kind, OptionKind::Number { min: 0 });
        assert!(TOY_SPECS[2].multi_seat && !TOY_SPECS[3].multi_seat);
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
        assert!(
            e.contains("`pace` cannot be `medium`") && e.contains("slow | fast"),
            "{e}"
        );
        let e = toy.set("stake", "0").unwrap_err();
        assert!(e.contains("at least 1"), "{e}");
        toy.set("limit", "0").unwrap();
        assert!(toy.set("doubles", "yes").is_err());
        let e = toy.set("speed", "1").unwrap_err();
        assert!(
            e.contains("unknown option `speed`") && e.contains("pace, doubles"),
            "{e}"
        );
        assert_eq!(toy, Toy::default(), "a refused value changes nothing");
    }
}
