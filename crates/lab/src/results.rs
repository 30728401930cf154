//! The results file: JSON lines, the study first (`{"study":{...}}`), then one line per
//! finished game (`{"game":{...}}`), appended as games end (written out every fraction of a second). A stopped run
//! continues from it, and the files of a study's shards merge into one.

use crate::play::GameRow;
use crate::study::Study;
use crate::LabError;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One line of a results file.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Line {
    Study(Study),
    Game(GameRow),
}

/// A results file open for appending. Games are buffered and written out at least every
/// [`FLUSH_EVERY`] (and when the file is flushed or dropped), so a run stopped at any moment
/// loses at most that much play.
pub struct ResultsFile {
    path: PathBuf,
    file: BufWriter<File>,
    flushed: Instant,
}

/// The longest a finished game waits in memory before it is written to the results file.
pub const FLUSH_EVERY: Duration = Duration::from_millis(200);

impl ResultsFile {
    /// Opens (or creates) the results file of `study`, returning the games already in it.
    /// A file of another study is refused; a last line cut short by a stopped run is
    /// dropped (that game is played again).
    pub fn open(path: &Path, study: &Study) -> Result<(ResultsFile, Vec<GameRow>), LabError> {
        let io = |e| LabError::Io(path.display().to_string(), e);
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let mut rows = Vec::new();
        if len == 0 {
            writeln!(file, "{}", json(&Line::Study(study.clone()))).map_err(io)?;
            file.flush().map_err(io)?;
        } else {
            let (found, read, complete) = read_lines(&file, path)?;
            if !study.same_study(&found) {
                return Err(LabError::OtherStudy {
                    path: path.display().to_string(),
                    found: Box::new(found),
                });
            }
            let changes = found.stamp.changes(&study.stamp);
            if !changes.is_empty() {
                return Err(LabError::StampChanged {
                    path: path.display().to_string(),
                    changes: changes.join("; "),
                });
            }
            if complete < len {
                file.set_len(complete).map_err(io)?;
                file.seek(SeekFrom::End(0)).map_err(io)?;
            }
            rows = read;
        }
        Ok((
            ResultsFile {
                path: path.to_path_buf(),
                file: BufWriter::new(file),
                flushed: Instant::now(),
            },
            rows,
        ))
    }

    /// Appends a finished game (written out within [`FLUSH_EVERY`]).
    pub fn append(&mut self, row: &GameRow) -> Result<(), LabError> {
        serde_json::to_writer(&mut self.file, &Line::Game(row.clone()))
            .map_err(std::io::Error::from)
            .and_then(|()| self.file.write_all(b"\n"))
            .map_err(|e| LabError::Io(self.path.display().to_string(), e))?;
        if self.flushed.elapsed() >= FLUSH_EVERY {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes every appended game to the file.
    pub fn flush(&mut self) -> Result<(), LabError> {
        self.flushed = Instant::now();
        self.file
            .flush()
            .map_err(|e| LabError::Io(self.path.display().to_string(), e))
    }
}

fn json(line: &Line) -> String {
    serde_json::to_string(line).expect("results lines serialise")
}

/// Reads a results file: its study and its games.
pub fn read(path: &Path) -> Result<(Study, Vec<GameRow>), LabError> {
    let file = File::open(path).map_err(|e| LabError::Io(path.display().to_string(), e))?;
    let (study, rows, _) = read_lines(&file, path)?;
    Ok((study, rows))
}

/// The study, the games, and the length of the file up to its last complete line.
fn read_lines(file: &File, path: &Path) -> Result<(Study, Vec<GameRow>, u64), LabError> {
    let name = path.display().to_string();
    let mut reader = BufReader::new(file);
    reader
        .seek(SeekFrom::Start(0))
        .map_err(|e| LabError::Io(name.clone(), e))?;
    let mut study = None;
    let mut rows = Vec::new();
    let mut complete = 0u64;
    let mut buf = String::new();
    for number in 1.. {
        buf.clear();
        let n = reader
            .read_line(&mut buf)
            .map_err(|e| LabError::Io(name.clone(), e))?;
        if n == 0 {
            break;
        }
        if !buf.ends_with('\n') {
            // Cut short by a stopped run: dropped, that game is played again.
            break;
        }
        complete += n as u64;
        let bad = |message: String| LabError::BadLine {
            path: name.clone(),
            line: number,
            message,
        };
        match serde_json::from_str::<Line>(buf.trim_end()).map_err(|e| bad(e.to_string()))? {
            Line::Study(s) if study.is_none() && number == 1 => study = Some(s),
            Line::Study(_) => return Err(bad("a second study line".into())),
            Line::Game(_) if study.is_none() => {
                return Err(bad("a game before the study line".into()))
            }
            Line::Game(row) => rows.push(row),
        }
    }
    let study = study.ok_or_else(|| LabError::BadLine {
        path: name.clone(),
        line: 1,
        message: "no study line".into(),
    })?;
    Ok((study, rows, complete))
}

/// Merges the results files of one study (its shards, or runs continued elsewhere) into
/// the study (with the most games any of them asked for) and its games, each once, in
/// `(reading, index)` order. Files of different studies, or two different results for one
/// game, are refused.
pub fn merge(paths: &[PathBuf]) -> Result<(Study, Vec<GameRow>), LabError> {
    let mut study: Option<Study> = None;
    let mut games: BTreeMap<(String, u32), GameRow> = BTreeMap::new();
    for path in paths {
        let (s, rows) = read(path)?;
        match &mut study {
            None => study = Some(s),
            Some(first) if first.same_study(&s) => {
                let changes = first.stamp.changes(&s.stamp);
                if !changes.is_empty() {
                    return Err(LabError::StampChanged {
                        path: path.display().to_string(),
                        changes: changes.join("; "),
                    });
                }
                first.games = first.games.max(s.games)
            }
            Some(_) => {
                return Err(LabError::OtherStudy {
                    path: path.display().to_string(),
                    found: Box::new(s),
                })
            }
        }
        for row in rows {
            let key = (row.reading.clone(), row.index);
            match games.get(&key) {
                Some(old) if *old != row => {
                    return Err(LabError::Conflict {
                        path: path.display().to_string(),
                        reading: key.0,
                        index: key.1,
                    })
                }
                Some(_) => {}
                None => {
                    games.insert(key, row);
                }
            }
        }
    }
    let study = study.ok_or(LabError::NothingToMerge)?;
    Ok((study, games.into_values().collect()))
}
