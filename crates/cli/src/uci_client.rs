//! Another engine as a player: a UCI engine run as a child process (`uci:PATH[,Name=Value…]`),
//! driven as a GUI drives it. libro keeps the rules; the engine is only asked for moves.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` and `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

/// An engine as written on the command line: `uci:/path/to/engine,Threads=1,Skill Level=3`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub path: PathBuf,
    /// `setoption`s sent in this order after the handshake (`VariantPath` before
    /// `UCI_Variant`, as Fairy-Stockfish needs).
    pub options: Vec<(String, String)>,
}

/// What went wrong with an engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("engine `{0}`: expected `uci:PATH[,Name=Value…]`")]
    Syntax(String),
    #[error("engine option `{0}`: expected `Name=Value`")]
    Option(String),
    #[error("cannot start the engine {path}: {source}")]
    Spawn {
        path: String,
        source: std::io::Error,
    },
    #[error("the engine {0} stopped (its process ended or closed its output)")]
    Gone(String),
    #[error("the engine {engine} did not answer `{waiting_for}` in {seconds:.1} s")]
    Timeout {
        engine: String,
        waiting_for: String,
        seconds: f64,
    },
}

impl FromStr for EngineSpec {
    type Err = EngineError;

    fn from_str(s: &str) -> Result<Self, EngineError> {
        let rest = s
            .strip_prefix("uci:")
            .ok_or_else(|| EngineError::Syntax(s.to_string()))?;
        let mut parts = rest.split(',');
        let path = parts.next().filter(|p| !p.is_empty());
        let path = PathBuf::from(path.ok_or_else(|| EngineError::Syntax(s.to_string()))?);
        let options = parts
            .map(|o| match o.split_once('=') {
                Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().into(), v.trim().into())),
                _ => Err(EngineError::Option(o.to_string())),
            })
            .collect::<Result<_, _>>()?;
        Ok(EngineSpec { path, options })
    }
}

impl std::fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "uci:{}", self.path.display())?;
        for (k, v) in &self.options {
            write!(f, ",{k}={v}")?;
        }
        Ok(())
    }
}

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// What it calls itself (`id name`), else its path.
    pub name: String,
}

impl Engine {
    /// Starts the engine, shakes hands, sets its options (then `UCI_Variant` to `variant`
    /// unless the options set it) and waits until it is ready.
    pub fn start(spec: &EngineSpec, variant: &str) -> Result<Engine, EngineError> {
        let mut child = Command::new(&spec.path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| EngineError::Spawn {
                path: spec.path.display().to_string(),
                source,
            })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
            name: spec.path.display().to_string(),
        };
        engine.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = engine.next_line("uciok", deadline)?;
            if let Some(name) = line.strip_prefix("id name ") {
                engine.name = name.trim().to_string();
            }
            if line.trim() == "uciok" {
                break;
            }
        }
        for (k, v) in &spec.options {
            engine.send(&format!("setoption name {k} value {v}"))?;
        }
        if !spec
            .options
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("UCI_Variant"))
        {
            engine.send(&format!("setoption name UCI_Variant value {variant}"))?;
        }
        engine.ready()?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| EngineError::Gone(self.name.clone()))
    }

    fn next_line(&mut self, waiting_for: &str, deadline: Instant) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Gone(self.name.clone())),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout {
                engine: self.name.clone(),
                waiting_for: waiting_for.to_string(),
                seconds: left.as_secs_f64(),
            }),
        }
    }

    /// `isready`, waiting for `readyok`.
    pub fn ready(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        while self.next_line("readyok", deadline)?.trim() != "readyok" {}
        Ok(())
    }

    /// A new game: `ucinewgame`, then `isready`.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// Sends the game so far (`position startpos moves …`) and `go …`, and waits until
    /// `patience` for `bestmove`. Returns the move as the engine wrote it and the time it took.
    pub fn best_move(
        &mut self,
        moves: &[String],
        go: &str,
        patience: Duration,
    ) -> Result<(String, Duration), EngineError> {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        self.send(&position)?;
        let started = Instant::now();
        self.send(go)?;
        let deadline = started + patience;
        loop {
            let line = self.next_line("bestmove", deadline)?;
            if let Some(rest) = line.strip_prefix("bestmove") {
                let mv = rest.split_whitespace().next().unwrap_or("(none)");
                return Ok((mv.to_string(), started.elapsed()));
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_read_with_their_options_in_order() {
        let spec: EngineSpec = "uci:/opt/fsf,VariantPath=/x/variants.ini,Skill Level=3"
            .parse()
            .unwrap();
        assert_eq!(spec.path, PathBuf::from("/opt/fsf"));
        assert_eq!(
            spec.options,
            vec![
                ("VariantPath".to_string(), "/x/variants.ini".to_string()),
                ("Skill Level".to_string(), "3".to_string())
            ]
        );
        assert_eq!(
            spec.to_string(),
            "uci:/opt/fsf,VariantPath=/x/variants.ini,Skill Level=3"
        );
        for bad in ["fsf", "uci:", "uci:/opt/fsf,Threads", "uci:/opt/fsf,=3"] {
            assert!(bad.parse::<EngineSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_missing_engine_is_named() {
        let spec: EngineSpec = "uci:/nonexistent/engine".parse().unwrap();
        let err = Engine::start(&spec, "shatranj")
            .err()
            .expect("no such engine");
        assert!(err.to_string().contains("/nonexistent/engine"), "{err}");
    }
}
