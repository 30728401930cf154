//! Betza's funny notation: the subset the Libro's chess games need.
//!
//! Atoms W F D A N K H C Z G (leapers: H = (3,0), C = (3,1), Z = (3,2), G = (3,3)), any
//! other leaper written by its offsets in parentheses (`(4,1)`: Murray's giraffe, which
//! has no letter; `(1,4)` is the same atom; offsets 0 to 15), and R B Q (riders; a doubled
//! leaper letter such as `WW` also rides). A number after an atom limits
//! its range (`R4`, `B2`, `W3` = `R3`). Modifiers before an atom: `m` move only, `c` capture
//! only, direction letters `f b l r v s h` (and two-letter combinations such as `fl`, `ff`,
//! `fs`), `i` only on the piece's first move, `n` lame (the square passed over must be
//! empty), `j` jumping (what leapers do anyway), and for riders `p` (hop over exactly one
//! piece, then land on any square beyond it as a rider: the cannon) or `g` (land just behind
//! the one piece hopped: the grasshopper). `t[XY]`: the leap or step X, then optionally on
//! as the rider Y in the directions leading away from the start (Grant Acedrex's aanca
//! `t[FR]`, its unicorn `t[NB]`); the square X lands on must be empty to go on. Directions
//! are from the mover's side: `f` is the way its pawns advance.

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
    /// The most steps a rider takes (0: as far as the board lets it).
    pub range: u8,
    /// Whether (and how) the rider hops over one piece.
    pub hop: Hop,
    /// A bent move: after the leap `(dx, dy)`, on as a rider in this unit direction.
    pub then: Option<(i8, i8)>,
}

/// How a rider hops: not at all, over one piece to any square beyond (Betza `p`), or over
/// one piece to the square just behind it (Betza `g`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Hop {
    #[default]
    None,
    Cannon,
    Grasshopper,
}

impl BetzaMove {
    /// Whether the move needs the square-by-square walk (hoppers, limited ranges, bent
    /// moves) rather than the leaper tables or the sliding attacks.
    pub fn is_path(&self) -> bool {
        self.then.is_some() || (self.rider && (self.range != 0 || self.hop != Hop::None))
    }
}

/// The leaps of an atom letter (each up to symmetry, larger coordinate first) and whether
/// it rides.
fn atom(c: char) -> Option<(&'static [(i8, i8)], bool)> {
    Some(match c {
        'W' => (&[(1, 0)], false),
        'F' => (&[(1, 1)], false),
        'D' => (&[(2, 0)], false),
        'A' => (&[(2, 2)], false),
        'N' => (&[(2, 1)], false),
        'H' => (&[(3, 0)], false),
        'C' => (&[(3, 1)], false),
        'Z' => (&[(3, 2)], false),
        'G' => (&[(3, 3)], false),
        'K' => (&[(1, 0), (1, 1)], false),
        'R' => (&[(1, 0)], true),
        'B' => (&[(1, 1)], true),
        'Q' => (&[(1, 0), (1, 1)], true),
        _ => return None,
    })
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
    let mut hop = Hop::None;
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
            'p' => hop = Hop::Cannon,
            'g' => hop = Hop::Grasshopper,
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
            c if atom(c).is_some() || c == 't' || c == '(' => {
                // A bent move `t[XY]`: X's leaps, each then on as Y outwards.
                let mut then_atom: Option<&[(i8, i8)]> = None;
                // An explicit leaper `(x,y)`: its one leap, and no letter to double.
                let mut explicit: Option<[(i8, i8); 1]> = None;
                let c = if c == '(' {
                    let (leap, len) = explicit_leap(&chars[i..]).map_err(|(at, what)| err(i + at, what))?;
                    explicit = Some([leap]);
                    i += len - 1;
                    ')'
                } else if c == 't' {
                    let inner: String = chars.iter().skip(i + 1).take(4).collect();
                    let mut ic = inner.chars();
                    let (open, x, y, close) = (ic.next(), ic.next(), ic.next(), ic.next());
                    let (Some('['), Some(x), Some(y), Some(']')) = (open, x, y, close) else {
                        return Err(err(i, "`t` must be followed by `[XY]`: two atoms"));
                    };
                    match (atom(x), atom(y)) {
                        (Some((_, false)), Some((ys, true))) => then_atom = Some(ys),
                        _ => {
                            return Err(err(
                                i + 2,
                                "in `t[XY]` X must be a leaper and Y a rider (R, B or Q)",
                            ))
                        }
                    }
                    i += 4;
                    x
                } else {
                    c
                };
                let (atoms, mut rider) = match &explicit {
                    Some(leap) => (&leap[..], false),
                    None => atom(c).expect("an atom letter"),
                };
                let mut range = 0u8;
                if let Some(&next) = chars.get(i + 1) {
                    if next == c && !rider && then_atom.is_none() && explicit.is_none() {
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
                let digits: String = chars[i + 1..]
                    .iter()
                    .take_while(|d| d.is_ascii_digit())
                    .collect();
                if !digits.is_empty() {
                    if then_atom.is_some() {
                        return Err(err(i + 1, "a bent move `t[XY]` takes no range"));
                    }
                    range = match digits.parse::<u8>() {
                        Ok(n) if (1..=15).contains(&n) => n,
                        _ => return Err(err(i + 1, "a range must be 1 to 15")),
                    };
                    rider = true;
                    i += digits.len();
                }
                if rider && (lame || jumping) {
                    return Err(err(i, "`n` and `j` apply to leapers only"));
                }
                if rider && initial {
                    return Err(err(i, "initial-move riders are not supported yet"));
                }
                if hop != Hop::None && !rider {
                    return Err(err(i, "`p` and `g` apply to riders only"));
                }
                if then_atom.is_some() && (initial || lame || hop != Hop::None) {
                    return Err(err(i, "a bent move `t[XY]` takes no `i`, `n`, `p` or `g`"));
                }
                if lame && (explicit.is_some() || (c != 'D' && c != 'A')) {
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
                let mut push = |mv: BetzaMove| match out.iter_mut().find(|m| {
                    (m.dx, m.dy, m.rider, m.initial, m.lame, m.range, m.hop, m.then)
                        == (mv.dx, mv.dy, mv.rider, mv.initial, mv.lame, mv.range, mv.hop, mv.then)
                }) {
                    Some(m) => {
                        m.quiet |= mv.quiet;
                        m.capture |= mv.capture;
                    }
                    None => out.push(mv),
                };
                for &(a, b) in atoms {
                    for (dy, dx) in images(a, b, &dirs).map_err(|w| err(i, w))? {
                        let base = BetzaMove {
                            dx,
                            dy,
                            rider,
                            quiet: q,
                            capture: cap,
                            initial,
                            lame,
                            range,
                            hop,
                            then: None,
                        };
                        push(base);
                        for &(ya, yb) in then_atom.unwrap_or(&[]) {
                            for (ey, ex) in images(ya, yb, &[]).map_err(|w| err(i, w))? {
                                if ex * dx >= 0 && ey * dy >= 0 {
                                    push(BetzaMove {
                                        then: Some((ex, ey)),
                                        ..base
                                    });
                                }
                            }
                        }
                    }
                }
                quiet = false;
                capture = false;
                initial = false;
                lame = false;
                jumping = false;
                hop = Hop::None;
                dirs.clear();
            }
            ' ' => {
                if quiet
                    || capture
                    || initial
                    || lame
                    || jumping
                    || hop != Hop::None
                    || !dirs.is_empty()
                {
                    return Err(err(i, "modifiers must be followed by an atom"));
                }
            }
            _ => {
                return Err(err(
                    i,
                    "unknown letter (atoms: W F D A N K H C Z G R B Q, or a leaper's offsets such as (4,1); modifiers: m c f b l r s v h i n j p g t)",
                ))
            }
        }
        i += 1;
    }
    if quiet || capture || initial || lame || jumping || hop != Hop::None || !dirs.is_empty() {
        return Err(err(
            chars.len().saturating_sub(1),
            "modifiers at the end must be followed by an atom",
        ));
    }
    Ok(out)
}

/// Where in the text something is wrong (0-based), and what.
type Fault = (usize, &'static str);

/// Reads an explicit leaper `(x,y)` at the start of `chars`: its leap with the larger offset
/// first (as the letter atoms' are) and how many characters it takes; or the 0-based place
/// in `chars` of what is wrong, and what.
fn explicit_leap(chars: &[char]) -> Result<((i8, i8), usize), Fault> {
    const SHAPE: &str =
        "a leaper's offsets are written `(x,y)`: two whole numbers 0 to 15, e.g. `(4,1)`";
    let mut offsets = [0i8; 2];
    let mut at = 1;
    for (k, end) in [',', ')'].into_iter().enumerate() {
        let start = at;
        while chars.get(at).is_some_and(|d| d.is_ascii_digit()) {
            at += 1;
        }
        if at == start || chars.get(at) != Some(&end) {
            return Err((at.min(chars.len().saturating_sub(1)), SHAPE));
        }
        let digits: String = chars[start..at].iter().collect();
        offsets[k] = match digits.parse::<i8>() {
            Ok(n @ 0..=15) => n,
            _ => {
                return Err((
                    start,
                    "a leaper's offset must be 0 to 15 (boards are at most 16x16)",
                ))
            }
        };
        at += 1;
    }
    let (a, b) = (offsets[0].max(offsets[1]), offsets[0].min(offsets[1]));
    if a == 0 {
        return Err((1, "the leap (0,0) goes nowhere"));
    }
    Ok(((a, b), at))
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
            match (self.rider, self.range) {
                (false, _) => String::new(),
                (true, 0) => " ride".to_string(),
                (true, n) => format!(" ride {n}"),
            },
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
        assert!(parse("R0").unwrap_err().what.contains("1 to 15"));
        assert!(parse("pN").unwrap_err().what.contains("riders only"));
        assert!(parse("t[RB]").is_err());
        assert!(parse("fm")
            .unwrap_err()
            .what
            .contains("followed by an atom"));
        assert!(parse("NN").is_err());
        assert!(parse("icD").is_err());
    }

    #[test]
    fn limited_ranges_hoppers_and_bent_moves() {
        let r4 = parse("R4").unwrap();
        assert_eq!(r4.len(), 4);
        assert!(r4.iter().all(|m| m.rider && m.range == 4 && m.is_path()));
        assert_eq!(parse("W3").unwrap(), parse("R3").unwrap());
        let cannon = parse("mRcpR").unwrap();
        assert_eq!(cannon.len(), 8);
        assert_eq!(cannon.iter().filter(|m| m.hop == Hop::Cannon).count(), 4);
        assert!(cannon
            .iter()
            .all(|m| (m.hop == Hop::Cannon) == (m.capture && !m.quiet)));
        assert!(parse("gQ")
            .unwrap()
            .iter()
            .all(|m| m.hop == Hop::Grasshopper));
        // The aanca: four diagonal steps, each on in the two orthogonal directions away.
        let aanca = parse("t[FR]").unwrap();
        assert_eq!(aanca.iter().filter(|m| m.then.is_none()).count(), 4);
        let bent: Vec<_> = aanca
            .iter()
            .filter_map(|m| m.then.map(|t| (m.dx, m.dy, t)))
            .collect();
        assert_eq!(bent.len(), 8);
        assert!(bent.contains(&(1, 1, (1, 0))) && bent.contains(&(1, 1, (0, 1))));
        assert!(!bent.contains(&(1, 1, (-1, 0))));
        // The unicorn: eight knight leaps, each on along the one diagonal leading away.
        let unicorn = parse("t[NB]").unwrap();
        assert_eq!(unicorn.len(), 16);
        assert!(unicorn.contains(&BetzaMove {
            dx: 1,
            dy: 2,
            rider: false,
            quiet: true,
            capture: true,
            initial: false,
            lame: false,
            range: 0,
            hop: Hop::None,
            then: Some((1, 1)),
        }));
        assert_eq!(parse("HC").unwrap().len(), 12);
        assert_eq!(parse("Z").unwrap().len(), 8);
        // Plain moves keep their old reading.
        assert!(parse("fmWfcF").unwrap().iter().all(|m| !m.is_path()));
    }

    #[test]
    fn explicit_leapers_are_atoms_like_the_letters() {
        // The letters' leaps written out: the same moves.
        assert_eq!(parse("(2,1)").unwrap(), parse("N").unwrap());
        assert_eq!(parse("(3,2)").unwrap(), parse("Z").unwrap());
        assert_eq!(parse("(1,0)(1,1)").unwrap(), parse("K").unwrap());
        assert_eq!(parse("(1,4)").unwrap(), parse("(4,1)").unwrap());
        // Murray's giraffe: eight leaps, (+-1,+-4) and (+-4,+-1).
        let mut giraffe: Vec<(i8, i8)> = parse("(4,1)")
            .unwrap()
            .iter()
            .map(|m| (m.dx, m.dy))
            .collect();
        giraffe.sort();
        assert_eq!(
            giraffe,
            [
                (-4, -1),
                (-4, 1),
                (-1, -4),
                (-1, 4),
                (1, -4),
                (1, 4),
                (4, -1),
                (4, 1)
            ]
        );
        // Modifiers work on it as on a letter: narrow and wide forward, move or capture only.
        assert_eq!(
            vectors("ff(4,1)"),
            vec![(-1, 4, true, true), (1, 4, true, true)]
        );
        assert_eq!(
            vectors("fsm(4,1)"),
            vec![(-4, 1, true, false), (4, 1, true, false)]
        );
        assert_eq!(vectors("c(4,1)").len(), 8);
        assert!(vectors("c(4,1)").iter().all(|v| !v.2 && v.3));
        let first = parse("ifm(4,0)").unwrap();
        assert_eq!(first.len(), 1);
        assert!(first[0].initial && (first[0].dx, first[0].dy) == (0, 4));
        // A range makes it ride, as after a letter.
        assert!(parse("(4,1)2")
            .unwrap()
            .iter()
            .all(|m| m.rider && m.range == 2));
    }

    #[test]
    fn explicit_leaper_errors_name_the_place() {
        let place = |text: &str| {
            let e = parse(text).unwrap_err();
            (e.position, e.what)
        };
        let (at, what) = place("K(4;1)");
        assert_eq!(at, 4, "the `;`");
        assert!(what.contains("`(x,y)`"), "{what}");
        assert_eq!(place("(4,1").0, 4, "the last character: no `)`");
        assert_eq!(place("(,1)").0, 2, "no first offset");
        let (at, what) = place("R(16,1)");
        assert_eq!(at, 3, "the offset itself");
        assert!(what.contains("0 to 15"), "{what}");
        assert!(place("(0,0)").1.contains("goes nowhere"));
        assert!(place("n(4,1)").1.contains("D and A only"));
        assert!(place("p(4,1)").1.contains("riders only"));
        assert!(place("(4,1)(").1.contains("`(x,y)`"));
    }
}
