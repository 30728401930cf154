//! Forçado's forced capture: the filter on the legal moves, and the sentence that explains it.

use crate::options::ForcedCapture;
use crate::position::{Move, MoveList, Pos};
use crate::rules::{ChessRules, Width};

/// The power rank of the victim of `mv` (lower = more powerful), if it captures.
fn victim_rank<B: Width>(r: &ChessRules, pos: &Pos<B>, mv: &Move) -> Option<u8> {
    if !mv.is_normal() || !pos.occ.contains(mv.to()) {
        return None;
    }
    let types = pos.types_at(r, mv.to());
    (0..r.pieces.len())
        .filter(|&t| types >> t & 1 != 0)
        .map(|t| r.victim_rank[t])
        .min()
}

/// Keeps only the captures the rule allows, if any move captures.
pub(crate) fn filter<B: Width>(r: &ChessRules, pos: &Pos<B>, moves: &mut MoveList) {
    match r.options.forced_capture {
        ForcedCapture::None => {}
        ForcedCapture::Any => {
            if moves.iter().any(|m| victim_rank(r, pos, m).is_some()) {
                moves.retain(|m| victim_rank(r, pos, m).is_some());
            }
        }
        ForcedCapture::Priority => {
            let Some(best) = moves.iter().filter_map(|m| victim_rank(r, pos, m)).min() else {
                return;
            };
            moves.retain(|m| victim_rank(r, pos, m) == Some(best));
            let least = moves
                .iter()
                .map(|m| r.capturer_rank[m.piece().index()])
                .min()
                .unwrap_or(0);
            moves.retain(|m| r.capturer_rank[m.piece().index()] == least);
        }
    }
}

fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn alternatives(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The sentence explaining the forced capture in this position, given its (filtered) legal
/// moves, or `None` if no capture is forced.
pub(crate) fn explain<B: Width>(r: &ChessRules, pos: &Pos<B>, legal: &[Move]) -> Option<String> {
    let name = |sq| r.board.name(sq).to_string();
    if r.options.forced_capture == ForcedCapture::None
        || legal.is_empty()
        || legal.iter().any(|m| victim_rank(r, pos, m).is_none())
    {
        return None;
    }
    let mut victims: Vec<String> = legal.iter().map(|m| name(m.to())).collect();
    victims.sort();
    victims.dedup();
    let mut capturers: Vec<String> = legal.iter().map(|m| name(m.from())).collect();
    capturers.sort();
    capturers.dedup();
    if r.options.forced_capture == ForcedCapture::Any {
        let moves: Vec<String> = legal
            .iter()
            .map(|m| format!("{}{}", name(m.from()), name(m.to())))
            .collect();
        return Some(format!("you must capture: {}", alternatives(&moves)));
    }
    let vt = {
        let types = pos.types_at(r, legal[0].to());
        (0..r.pieces.len())
            .filter(|&t| types >> t & 1 != 0)
            .min_by_key(|&t| r.victim_rank[t])
            .unwrap_or(0)
    };
    let ct = legal[0].piece().index();
    let (vname, cname) = (&r.pieces[vt].name, &r.pieces[ct].name);
    let victim_part = if victims.len() == 1 {
        format!(
            "the {vname} on {} is the most powerful piece you can take",
            victims[0]
        )
    } else {
        format!(
            "the {vname}s on {} are the most powerful pieces you can take",
            list(&victims)
        )
    };
    let it = if victims.len() == 1 {
        "it"
    } else {
        "one of them"
    };
    let capturer_part = if capturers.len() == 1 {
        format!("the {cname} on {} must take {it}", capturers[0])
    } else {
        format!(
            "one of the {cname}s on {} must take {it}",
            alternatives(&capturers)
        )
    };
    Some(format!(
        "you must capture: {victim_part}, and {capturer_part}"
    ))
}
