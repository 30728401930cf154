//! Betza's funny notation: the subset the Libro's chess games need.
//!
//! Atoms W F D A N K (leapers) and R B Q (riders; a doubled leaper letter such as `WW` also
//! rides). Modifiers before an atom: `m` move only, `c` capture only, direction letters
//! `f b l r v s h` (and two-letter combinations such as `fl`, `ff`, `fs`), `i` only on the
//! piece's first move, `n` lame (the square passed over must be empty) and `j` jumping (what
//! leapers do anyway). Directions are from the mover's side: `f` is the way its pawns advance.

use std::fmt;

/// One move vector of a piece, from the mover's side: `dx` to its right, `dy` forward.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BetzaMove {
    pub dx: i8,
    pub dy: i8,
    /// Repeats the step until blocked (a rider) instead of making it once.
    pub rider: bool,
    /// May end on an empty square.
    pub quiet: bool,
    /// May end on a square it captures on.
    pub capture: bool,
    /// Only on the piece's first move.
    pub initial: bool,
    /// Blocked if the square passed over is occupied.
    pub lame: bool,
}

/// What is wrong with a Betza string, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad Betza `{text}` at character {position}: {what}")]
pub struct BetzaError {
    pub text: String,
    /// 1-based position of the offending character.
    pub position: usize,
    pub what: String,
}

const VERTICAL: &str = "fbvh";
const HORIZONTAL: &str = "rlsh";

/// Parses a Betza string into move vectors, each once.
pub fn parse(text: &str) -> Result<Vec<BetzaMove>, BetzaError> {
    let err = |position: usize, what: &str| BetzaError {
        text: text.to_string(),
        position: position + 1,
        what: what.to_string(),
    };
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<BetzaMove> = Vec::new();
    let (mut quiet, mut capture, mut initial, mut lame, mut jumping) =
        (false, false, false, false, false);
    let mut dirs: Vec<[char; 2]> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            'm' => quiet = true,
            'c' => capture = true,
            'i' => initial = true,
            'n' => lame = true,
            'j' => jumping = true,
            c if VERTICAL.contains(c) || HORIZONTAL.contains(c) => {
                let next = chars.get(i + 1).copied();
                match next {
                    Some(c2)
                        if c2 == c
                            || (VERTICAL.contains(c) && HORIZONTAL.contains(c2))
                            || (HORIZONTAL.contains(c) && VERTICAL.contains(c2)) =>
                    {
                        dirs.push([c, c2]);
                        i += 1;
                    }
                    _ => dirs.push([c, c]),
                }
            }
            'W' | 'F' | 'D' | 'A' | 'N' | 'K' | 'R' | 'B' | 'Q' => {
                let (atoms, mut rider): (&[(i8, i8)], bool) = match c {
                    'W' => (&[(1, 0)], false),
                    'F' => (&[(1, 1)], false),
                    'D' => (&[(2, 0)], false),
                    'A' => (&[(2, 2)], false),
                    'N' => (&[(2, 1)], false),
                    'K' => (&[(1, 0), (1, 1)], false),
                    'R' => (&[(1, 0)], true),
                    'B' => (&[(1, 1)], true),
                    _ => (&[(1, 0), (1, 1)], true),
                };
                if let Some(&next) = chars.get(i + 1) {
                    if next.is_ascii_digit() {
                        return Err(err(i + 1, "limited-range riders are not supported yet"));
                    }
                    if next == c && !rider {
                        if c == 'W' || c == 'F' {
                            rider = true;
                            i += 1;
                        } else {
                            return Err(err(
                                i + 1,
                                "only W and F can be doubled into riders (R and B)",
                            ));
                        }
                    }
                }
                if rider && (lame || jumping) {
                    return Err(err(i, "`n` and `j` apply to leapers only"));
                }
                if rider && initial {
                    return Err(err(i, "initial-move riders are not supported yet"));
                }
                if lame && c != 'D' && c != 'A' {
                    return Err(err(i, "lame (`n`) moves are supported for D and A only"));
                }
                if lame && jumping {
                    return Err(err(i, "a move cannot be both lame (`n`) and jumping (`j`)"));
                }
                let (q, cap) = if quiet || capture {
                    (quiet, capture)
                } else {
                    (true, true)
                };
                if (initial || lame) && cap {
                    return Err(err(
                        i,
                        "initial (`i`) and lame (`n`) moves must be move-only (`m`) for now",
                    ));
                }
                for &(a, b) in atoms {
                    for (dy, dx) in images(a, b, &dirs).map_err(|w| err(i, w))? {
                        let mv = BetzaMove {
                            dx,
                            dy,
                            rider,
                            quiet: q,
                            capture: cap,
                            initial,
                            lame,
                        };
                        match out.iter_mut().find(|m| {
                            (m.dx, m.dy, m.rider, m.initial, m.lame)
                                == (dx, dy, rider, initial, lame)
                        }) {
                            Some(m) => {
                                m.quiet |= q;
                                m.capture |= cap;
                            }
                            None => out.push(mv),
                        }
                    }
                }
                quiet = false;
                capture = false;
                initial = false;
                lame = false;
                jumping = false;
                dirs.clear();
            }
            ' ' => {
                if quiet || capture || initial || lame || jumping || !dirs.is_empty() {
                    return Err(err(i, "modifiers must be followed by an atom"));
                }
            }
            _ => {
                return Err(err(
                    i,
                    "unknown letter (atoms: W F D A N K R B Q; modifiers: m c f b l r s v h i n j)",
                ))
            }
        }
        i += 1;
    }
    if quiet || capture || initial || lame || jumping || !dirs.is_empty() {
        return Err(err(
            chars.len().saturating_sub(1),
            "modifiers at the end must be followed by an atom",
        ));
    }
    Ok(out)
}

/// The images `(forward, right)` of atom `(a, b)` (a >= b) selected by the direction groups.
fn images(a: i8, b: i8, dirs: &[[char; 2]]) -> Result<Vec<(i8, i8)>, &'static str> {
    // Orthogonal atoms have no oblique images: a mixed pair (`fs`) means its two letters.
    let mut groups: Vec<[char; 2]> = Vec::new();
    for &d in dirs {
        if b == 0 && d[0] != d[1] {
            groups.push([d[0], d[0]]);
            groups.push([d[1], d[1]]);
        } else {
            groups.push(d);
        }
    }
    let has = |s: &str| {
        let s: Vec<char> = s.chars().collect();
        groups.iter().any(|g| g[0] == s[0] && g[1] == s[1])
    };
    // The eight images with the direction groups that select each.
    let table: [((i8, i8), [&str; 7]); 8] = [
        ((a, b), ["ff", "vv", "rf", "rv", "fh", "rh", "hr"]),
        ((-a, -b), ["bb", "vv", "lb", "lv", "bh", "lh", "hr"]),
        ((-b, a), ["rr", "ss", "br", "bs", "bh", "rh", "hr"]),
        ((b, -a), ["ll", "ss", "fl", "fs", "fh", "lh", "hr"]),
        ((b, a), ["rr", "ss", "fr", "fs", "fh", "rh", "hl"]),
        ((-b, -a), ["ll", "ss", "bl", "bs", "bh", "lh", "hl"]),
        ((-a, b), ["bb", "vv", "rb", "rv", "bh", "rh", "hl"]),
        ((a, -b), ["ff", "vv", "lf", "lv", "fh", "lh", "hl"]),
    ];
    let mut out = Vec::new();
    for (img, keys) in table {
        if (groups.is_empty() || keys.iter().any(|k| has(k))) && !out.contains(&img) {
            out.push(img);
        }
    }
    if out.is_empty() {
        return Err("these direction modifiers select no move of this atom");
    }
    Ok(out)
}

impl fmt::Display for BetzaMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "({:+},{:+}){}{}",
            self.dx,
            self.dy,
            if self.rider { " ride" } else { "" },
            match (self.quiet, self.capture) {
                (true, false) => " move-only",
                (false, true) => " capture-only",
                _ => "",
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vectors(text: &str) -> Vec<(i8, i8, bool, bool)> {
        let mut v: Vec<_> = parse(text)
            .unwrap()
            .iter()
            .map(|m| (m.dx, m.dy, m.quiet, m.capture))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn pawn_moves_forward_and_captures_diagonally() {
        assert_eq!(
            vectors("fmWfcF"),
            vec![
                (-1, 1, false, true),
                (0, 1, true, false),
                (1, 1, false, true)
            ]
        );
    }

    #[test]
    fn leapers_have_all_images() {
        assert_eq!(parse("N").unwrap().len(), 8);
        assert_eq!(parse("K").unwrap().len(), 8);
        assert_eq!(parse("A").unwrap().len(), 4);
        assert_eq!(parse("D").unwrap().len(), 4);
        assert!(parse("R").unwrap().iter().all(|m| m.rider));
        assert_eq!(parse("Q").unwrap().len(), 8);
        assert_eq!(parse("WW").unwrap(), parse("R").unwrap());
    }

    #[test]
    fn direction_modifiers() {
        // Soldier: forward and sideways.
        assert_eq!(
            vectors("fsW"),
            vec![(-1, 0, true, true), (0, 1, true, true), (1, 0, true, true)]
        );
        // Forward-left fers only.
        assert_eq!(vectors("flF"), vec![(-1, 1, true, true)]);
        // Narrow forward knight moves.
        assert_eq!(
            vectors("ffN"),
            vec![(-1, 2, true, true), (1, 2, true, true)]
        );
        // Wide forward knight moves.
        assert_eq!(
            vectors("fsN"),
            vec![(-2, 1, true, true), (2, 1, true, true)]
        );
        assert_eq!(parse("vR").unwrap().len(), 2);
    }

    #[test]
    fn initial_and_lame() {
        let m = parse("ifmnD").unwrap();
        assert_eq!(m.len(), 1);
        assert!(m[0].initial && m[0].lame && m[0].quiet && !m[0].capture);
        assert_eq!((m[0].dx, m[0].dy), (0, 2));
    }

    #[test]
    fn errors_name_the_place() {
        let e = parse("fmWfcX").unwrap_err();
        assert_eq!(e.position, 6);
        assert!(e.what.contains("unknown letter"));
        assert!(parse("R4").unwrap_err().what.contains("limited-range"));
        assert!(parse("fm")
            .unwrap_err()
            .what
            .contains("followed by an atom"));
        assert!(parse("NN").is_err());
        assert!(parse("icD").is_err());
    }
}
