//! What a study is: a ruleset, the options set for every game, the options varied (every
//! combination of their values is a *reading*), the players, the number of games and the
//! seed. Each game's seed follows from the study seed, the reading and the game's index
//! alone, so a game is the same whichever thread, shard or resumed run plays it.

use crate::stamp::Stamp;
use crate::LabError;
use libro_ai::PlayerSpec;
use std::fmt;
use std::str::FromStr;

/// Random moves opening every game by default. Deterministic players (the search from level
/// 4) otherwise play one game over and over whatever the seed; measured on acedrex, shatranj
/// and cuatro-tiempos with `ai:4` (see the README's lab section), this many makes every game
/// of a study distinct while leaving the position close to the start.
pub const DEFAULT_OPENING_MOVES: u32 = 4;

/// A study, as written in the first line of its results file.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Study {
    /// The ruleset's name or file, as given.
    pub ruleset: String,
    /// The seats' names in seat order.
    pub seats: Vec<String>,
    /// Options set for every reading (`--option K=V`).
    pub options: Vec<(String, String)>,
    /// Options varied (`--vary K=V1,V2`): every combination of their values is played.
    pub vary: Vec<(String, Vec<String>)>,
    /// One player spec for every seat, or one per seat.
    pub players: Vec<String>,
    /// Games per reading.
    pub games: u32,
    /// The study seed.
    pub seed: u64,
    /// A game still running at this many plies is stopped and counted as a move-limit draw.
    pub max_plies: u32,
    /// Moves played at random at the start of every game, from the game's seed, so that
    /// deterministic players (the search from level 4) do not play one game over and over.
    #[serde(default)]
    pub opening_moves: u32,
    /// Which libro played the games and the digest of each reading's rules; filled in by
    /// [`crate::prepare`]. Results under another stamp are not continued or merged.
    #[serde(default)]
    pub stamp: Stamp,
    /// The board's grid and piece types, for the heatmaps and piece usage; filled in by
    /// [`crate::prepare`].
    #[serde(default)]
    pub board: BoardShape,
}

/// What the report needs to lay out a board and name pieces ([`libro_core::Census`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BoardShape {
    /// Columns and rows of cells (files and ranks; points in a row).
    pub grid: (u16, u16),
    /// The piece types' names.
    pub pieces: Vec<String>,
}

impl BoardShape {
    /// The shape of `game`'s board.
    pub fn of<G: libro_core::Census>(game: &G) -> BoardShape {
        BoardShape {
            grid: game.grid(),
            pieces: game.piece_types(),
        }
    }
}

/// One combination of the varied options' values: a reading of the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// `k1=v1,k2=v2` in the order the options were varied (empty when nothing varies).
    pub key: String,
    /// Every override the reading's ruleset is loaded with: the fixed options, then the
    /// varied ones.
    pub overrides: Vec<(String, String)>,
    /// The varied options' values.
    pub varied: Vec<(String, String)>,
}

impl Reading {
    /// The reading as printed: its key, or `as set` when nothing varies.
    pub fn label(&self) -> &str {
        label(&self.key)
    }
}

/// How a reading's key is printed.
pub fn label(key: &str) -> &str {
    if key.is_empty() {
        "as set"
    } else {
        key
    }
}

impl Study {
    /// Checks what can be checked without loading the ruleset: the players parse, no
    /// option is both set and varied or varied twice, every varied option has values.
    pub fn validate(&self) -> Result<(), LabError> {
        self.player_specs()?;
        for (i, (key, values)) in self.vary.iter().enumerate() {
            if values.is_empty() || values.iter().any(|v| v.is_empty()) {
                return Err(LabError::BadVary(format!("{key}: empty value")));
            }
            if self.options.iter().any(|(k, _)| k == key) {
                return Err(LabError::BadVary(format!(
                    "`{key}` is both set with --option and varied with --vary"
                )));
            }
            if self.vary[..i].iter().any(|(k, _)| k == key) {
                return Err(LabError::BadVary(format!("`{key}` is varied twice")));
            }
        }
        if self.games == 0 {
            return Err(LabError::NoGames);
        }
        Ok(())
    }

    /// The players, parsed.
    pub fn player_specs(&self) -> Result<Vec<PlayerSpec>, LabError> {
        if self.players.is_empty() {
            return Err(LabError::BadPlayers("no player given".into()));
        }
        self.players
            .iter()
            .map(|p| {
                p.parse::<PlayerSpec>()
                    .map_err(|e| LabError::BadPlayers(format!("`{p}`: {e}")))
            })
            .collect()
    }

    /// The player of each seat: one spec for all, or one per seat.
    pub fn seat_players(&self, num_seats: usize) -> Result<Vec<PlayerSpec>, LabError> {
        let specs = self.player_specs()?;
        match specs.len() {
            1 => Ok(vec![specs[0]; num_seats]),
            n if n == num_seats => Ok(specs),
            n => Err(LabError::BadPlayers(format!(
                "{n} players given for {num_seats} seats (give one for all seats or one per seat)"
            ))),
        }
    }

    /// Every reading, the first varied option changing slowest.
    pub fn readings(&self) -> Vec<Reading> {
        let mut readings = vec![Vec::<(String, String)>::new()];
        for (key, values) in &self.vary {
            readings = readings
                .into_iter()
                .flat_map(|r| {
                    values.iter().map(move |v| {
                        let mut r = r.clone();
                        r.push((key.clone(), v.clone()));
                        r
                    })
                })
                .collect();
        }
        readings
            .into_iter()
            .map(|varied| Reading {
                key: varied
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(","),
                overrides: self.options.iter().chain(&varied).cloned().collect(),
                varied,
            })
            .collect()
    }

    /// Whether `other` asks for the same games, perhaps more or fewer of them (a results
    /// file can be continued with more games, and shards of one study merged). Stamps are
    /// compared apart ([`Stamp::changes`]), to say what changed.
    pub fn same_study(&self, other: &Study) -> bool {
        Study {
            games: other.games,
            stamp: other.stamp.clone(),
            ..self.clone()
        } == *other
    }

    /// The seed of game `index` of the reading `key`.
    pub fn game_seed(&self, key: &str, index: u32) -> u64 {
        mix(mix(mix(self.seed) ^ fnv1a(key)) ^ u64::from(index))
    }
}

/// Splits `KEY=V1,V2,...` as given to `--vary`.
pub fn parse_vary(text: &str) -> Result<(String, Vec<String>), LabError> {
    let (key, values) = text
        .split_once('=')
        .ok_or_else(|| LabError::BadVary(format!("`{text}` is not KEY=V1,V2,...")))?;
    let key = key.trim();
    if key.is_empty() {
        return Err(LabError::BadVary(format!("`{text}` has no option name")));
    }
    let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
    if values.iter().any(String::is_empty) {
        return Err(LabError::BadVary(format!("`{text}` has an empty value")));
    }
    Ok((key.to_string(), values))
}

/// A part of a study: the games whose index is `part` modulo `parts`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub part: u32,
    pub parts: u32,
}

impl Shard {
    /// The whole study.
    pub const ALL: Shard = Shard { part: 0, parts: 1 };

    /// Whether game `index` belongs to this part.
    pub fn holds(&self, index: u32) -> bool {
        index % self.parts == self.part
    }
}

impl FromStr for Shard {
    type Err = LabError;
    /// Reads `I/N` with 0 ≤ I < N.
    fn from_str(s: &str) -> Result<Self, LabError> {
        let bad = |why: &str| LabError::BadShard(format!("`{s}`: {why}"));
        let (i, n) = s.split_once('/').ok_or_else(|| bad("not I/N"))?;
        let part: u32 = i.trim().parse().map_err(|_| bad("I is not a number"))?;
        let parts: u32 = n.trim().parse().map_err(|_| bad("N is not a number"))?;
        if parts == 0 || part >= parts {
            return Err(bad("need 0 ≤ I < N (parts are numbered from 0)"));
        }
        Ok(Shard { part, parts })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.part, self.parts)
    }
}

/// SplitMix64's finaliser: spreads seeds over all bits.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// FNV-1a of a string: a hash that is the same on every platform and release (the
/// standard library's is not promised to be).
fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn study() -> Study {
        Study {
            ruleset: "acedrex".into(),
            seats: vec!["white".into(), "black".into()],
            options: vec![("stalemate".into(), "pass".into())],
            vary: vec![
                parse_vary("fers_leap=none,diagonal").unwrap(),
                parse_vary("promotion=always, only-without-fers").unwrap(),
            ],
            players: vec!["random".into()],
            games: 10,
            seed: 1,
            max_plies: 1000,
            opening_moves: 0,
            stamp: Stamp::default(),
            board: BoardShape::default(),
        }
    }

    #[test]
    fn readings_are_the_cartesian_product() {
        let keys: Vec<String> = study().readings().into_iter().map(|r| r.key).collect();
        assert_eq!(
            keys,
            [
                "fers_leap=none,promotion=always",
                "fers_leap=none,promotion=only-without-fers",
                "fers_leap=diagonal,promotion=always",
                "fers_leap=diagonal,promotion=only-without-fers",
            ]
        );
        let r = &study().readings()[1];
        assert_eq!(r.overrides[0], ("stalemate".into(), "pass".into()));
        assert_eq!(r.overrides.len(), 3);
        let plain = Study {
            vary: vec![],
            ..study()
        };
        assert_eq!(plain.readings().len(), 1);
        assert_eq!(plain.readings()[0].label(), "as set");
    }

    #[test]
    fn bad_studies_say_why() {
        let mut s = study();
        s.vary.push(("stalemate".into(), vec!["win".into()]));
        assert!(matches!(s.validate(), Err(LabError::BadVary(m)) if m.contains("both set")));
        assert!(parse_vary("fers_leap").is_err());
        assert!(parse_vary("fers_leap=a,,b").is_err());
        let s = Study {
            players: vec!["random".into(), "ai:3".into(), "greedy".into()],
            ..study()
        };
        assert!(matches!(s.seat_players(2), Err(LabError::BadPlayers(_))));
        assert_eq!(s.seat_players(3).unwrap().len(), 3);
    }

    #[test]
    fn shards_parse_and_partition() {
        let s: Shard = "1/3".parse().unwrap();
        assert_eq!(s, Shard { part: 1, parts: 3 });
        assert_eq!(
            (0..9).filter(|&i| s.holds(i)).collect::<Vec<_>>(),
            [1, 4, 7]
        );
        assert!("3/3".parse::<Shard>().is_err());
        assert!("1/0".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }

    #[test]
    fn game_seeds_differ_by_reading_and_index_only() {
        let s = study();
        let a = s.game_seed("fers_leap=none", 3);
        assert_eq!(a, s.game_seed("fers_leap=none", 3));
        assert_ne!(a, s.game_seed("fers_leap=none", 4));
        assert_ne!(a, s.game_seed("fers_leap=diagonal", 3));
        let more = Study {
            games: 99,
            ..s.clone()
        };
        assert_eq!(a, more.game_seed("fers_leap=none", 3));
        assert!(s.same_study(&more));
        assert!(!s.same_study(&Study {
            seed: 2,
            ..s.clone()
        }));
    }
}
