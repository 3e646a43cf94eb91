//! A deliberately simple checker of LRAT refutations, so that "no line reaches this score" need
//! not rest on the SAT solver's word.
//!
//! An LRAT proof adds clauses one by one, each with its *hints*: the earlier clauses (by id)
//! that, with the new clause's literals all false, become unit one after another until the last
//! one is false. The checker does exactly that, and nothing cleverer: it assigns the negation
//! of the new clause, walks the hints in order, and accepts the clause only if each hint is
//! unit (its one open literal is then set) or false, and one is false. A proof is a refutation
//! when it adds the empty clause so. Clauses the proof deletes are forgotten, so a later hint
//! to them fails. The solver (CaDiCaL) writes the proof in the binary LRAT format.
//!
//! The proof does not list the original clauses. The solver numbers every clause from 1 as it
//! comes, the clauses it was given and those it derives while they are being given (a unit
//! propagated at once) alike, so the original clauses fill, in order, the ids the proof's own
//! clauses leave free. That numbering is only bookkeeping: every clause the checker holds is
//! either one of the formula's or one it has checked, so a proof that numbered them otherwise
//! could fail to check, never pass wrongly.

use std::io::{BufReader, Read};

use thiserror::Error;

use super::cnf::Lit;

/// Why a proof is not accepted.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ProofError {
    #[error("the proof could not be read: {0}")]
    Read(String),
    #[error("the proof ends in the middle of a step (byte {0})")]
    Truncated(usize),
    #[error("the proof has an unknown step {0:#04x} at byte {1}")]
    UnknownStep(u8, usize),
    #[error("step {id}: a hint names clause {hint}, which does not exist (or was deleted)")]
    MissingHint { id: u64, hint: u64 },
    #[error("step {id}: hint {hint} has a true literal or several open ones")]
    HintNotUnit { id: u64, hint: u64 },
    #[error("step {id}: the hints run out before a clause is false")]
    NoConflict { id: u64 },
    #[error("step {id}: a RAT hint, which this checker does not accept")]
    Rat { id: u64 },
    #[error("step {id}: the id is not above every id before it")]
    IdOrder { id: u64 },
    #[error("step {id}: the id skips more ids than there are original clauses left")]
    IdGap { id: u64 },
    #[error("a literal is out of range at byte {0}")]
    BadLiteral(usize),
    #[error("the proof never adds the empty clause")]
    NoRefutation,
}

/// The original clauses and the clauses a proof has added and not deleted, by id.
struct Clauses {
    by_id: Vec<Option<Box<[Lit]>>>,
}

impl Clauses {
    fn get(&self, id: u64) -> Option<&[Lit]> {
        self.by_id.get(id as usize).and_then(|c| c.as_deref())
    }
}

/// A partial assignment with a trail to undo it after each step.
struct Assignment {
    /// `value[v]`: 1 true, -1 false, 0 open.
    value: Vec<i8>,
    trail: Vec<usize>,
}

impl Assignment {
    fn of(&self, lit: Lit) -> i8 {
        let v = self
            .value
            .get(lit.unsigned_abs() as usize)
            .copied()
            .unwrap_or(0);
        if lit < 0 {
            -v
        } else {
            v
        }
    }

    /// Makes `lit` true; false if it was false already.
    fn set(&mut self, lit: Lit) -> bool {
        let var = lit.unsigned_abs() as usize;
        if var >= self.value.len() {
            self.value.resize(var + 1, 0);
        }
        match self.of(lit) {
            1 => true,
            -1 => false,
            _ => {
                self.value[var] = if lit < 0 { -1 } else { 1 };
                self.trail.push(var);
                true
            }
        }
    }

    fn undo(&mut self) {
        for var in self.trail.drain(..) {
            self.value[var] = 0;
        }
    }
}

/// Checks `proof` (binary LRAT, read as it goes, so that a long proof need not fit in memory)
/// as a refutation of the clauses `original`, in the order the solver was given them.
pub fn check_refutation<'a>(
    original: impl IntoIterator<Item = &'a [Lit]>,
    proof: impl Read,
) -> Result<(), ProofError> {
    let mut clauses = Clauses { by_id: vec![None] };
    let original: Vec<&[Lit]> = original.into_iter().collect();
    // Every literal of a derived clause is one of the formula's variables.
    let max_var = original
        .iter()
        .flat_map(|c| c.iter())
        .map(|l| l.unsigned_abs())
        .max()
        .unwrap_or(0);
    let mut original = original.into_iter();
    let mut assignment = Assignment {
        value: Vec::new(),
        trail: Vec::new(),
    };
    let mut reader = Reader {
        bytes: BufReader::with_capacity(1 << 16, proof),
        at: 0,
    };
    let mut lits = Vec::new();
    let mut hints = Vec::new();
    while let Some(step) = reader.byte()? {
        match step {
            b'a' => {
                let id = reader.id()?;
                if (id as usize) < clauses.by_id.len() {
                    return Err(ProofError::IdOrder { id });
                }
                // The ids below this one that no step took are the next original clauses (so
                // a step skips no more ids than there are original clauses left).
                if id - clauses.by_id.len() as u64 > original.len() as u64 {
                    return Err(ProofError::IdGap { id });
                }
                while clauses.by_id.len() < id as usize {
                    let next = original.next().map(Box::from);
                    clauses.by_id.push(next);
                }
                reader.list(&mut lits, Reader::lit)?;
                if lits.iter().any(|l| l.unsigned_abs() > max_var) {
                    return Err(ProofError::BadLiteral(reader.at));
                }
                reader.list(&mut hints, Reader::signed)?;
                let checked = implied(&clauses, &mut assignment, id, &lits, &hints);
                assignment.undo();
                checked?;
                if lits.is_empty() {
                    return Ok(());
                }
                clauses.by_id.push(Some(lits.as_slice().into()));
            }
            b'd' => {
                reader.list(&mut hints, Reader::signed)?;
                for &id in &hints {
                    if let Some(slot) = clauses.by_id.get_mut(id.unsigned_abs() as usize) {
                        *slot = None;
                    }
                }
            }
            other => return Err(ProofError::UnknownStep(other, reader.at - 1)),
        }
    }
    Err(ProofError::NoRefutation)
}

/// Whether `lits` follows from the clauses by unit propagation along `hints`.
fn implied(
    clauses: &Clauses,
    assignment: &mut Assignment,
    id: u64,
    lits: &[Lit],
    hints: &[i64],
) -> Result<(), ProofError> {
    for &lit in lits {
        if !assignment.set(-lit) {
            // The clause holds a literal and its negation: it always holds.
            return Ok(());
        }
    }
    for &hint in hints {
        if hint < 0 {
            return Err(ProofError::Rat { id });
        }
        let hint = hint as u64;
        let clause = clauses
            .get(hint)
            .ok_or(ProofError::MissingHint { id, hint })?;
        let mut open = None;
        for &lit in clause {
            match assignment.of(lit) {
                1 => return Err(ProofError::HintNotUnit { id, hint }),
                -1 => {}
                _ if open.is_some_and(|o| o != lit) => {
                    return Err(ProofError::HintNotUnit { id, hint })
                }
                _ => open = Some(lit),
            }
        }
        match open {
            None => return Ok(()),
            Some(lit) => {
                assignment.set(lit);
            }
        }
    }
    Err(ProofError::NoConflict { id })
}

/// Reads the binary LRAT encoding: a step letter, then numbers in 7-bit groups, low first,
/// the high bit set on all but the last; a number is twice the magnitude, plus one if negative.
struct Reader<R> {
    bytes: BufReader<R>,
    /// Bytes read so far.
    at: usize,
}

impl<R: Read> Reader<R> {
    /// The next byte, `None` at the end.
    fn byte(&mut self) -> Result<Option<u8>, ProofError> {
        let mut b = [0u8];
        loop {
            match self.bytes.read(&mut b) {
                Ok(0) => return Ok(None),
                Ok(_) => {
                    self.at += 1;
                    return Ok(Some(b[0]));
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ProofError::Read(e.to_string())),
            }
        }
    }

    fn number(&mut self) -> Result<u64, ProofError> {
        let mut x: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?.ok_or(ProofError::Truncated(self.at))?;
            x |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(x);
            }
        }
        Err(ProofError::Truncated(self.at))
    }

    fn signed(&mut self) -> Result<i64, ProofError> {
        let x = self.number()?;
        let magnitude = (x >> 1) as i64;
        Ok(if x & 1 == 1 { -magnitude } else { magnitude })
    }

    fn id(&mut self) -> Result<u64, ProofError> {
        Ok(self.number()? >> 1)
    }

    fn lit(&mut self) -> Result<Lit, ProofError> {
        let x = self.signed()?;
        Lit::try_from(x)
            .ok()
            .filter(|&l| l != Lit::MIN)
            .ok_or(ProofError::BadLiteral(self.at))
    }

    /// Numbers read by `read` up to a zero, into `out`.
    fn list<T: Default + PartialEq>(
        &mut self,
        out: &mut Vec<T>,
        read: fn(&mut Self) -> Result<T, ProofError>,
    ) -> Result<(), ProofError> {
        out.clear();
        loop {
            let x = read(self)?;
            if x == T::default() {
                return Ok(());
            }
            out.push(x);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes a proof in the binary format: `Some((id, lits, hints))` adds, `None` with `ids`
    /// deletes.
    fn encode(steps: &[(u64, &[Lit], &[i64])], deletions: &[(usize, &[u64])]) -> Vec<u8> {
        fn number(out: &mut Vec<u8>, mut x: u64) {
            while x & !0x7f != 0 {
                out.push((x & 0x7f) as u8 | 0x80);
                x >>= 7;
            }
            out.push(x as u8);
        }
        fn signed(out: &mut Vec<u8>, x: i64) {
            number(out, 2 * x.unsigned_abs() + u64::from(x < 0));
        }
        let mut out = Vec::new();
        for (i, (id, lits, hints)) in steps.iter().enumerate() {
            for (_, ids) in deletions.iter().filter(|(at, _)| *at == i) {
                out.push(b'd');
                ids.iter().for_each(|&d| signed(&mut out, d as i64));
                out.push(0);
            }
            out.push(b'a');
            signed(&mut out, *id as i64);
            lits.iter().for_each(|&l| signed(&mut out, l.into()));
            out.push(0);
            hints.iter().for_each(|&h| signed(&mut out, h));
            out.push(0);
        }
        out
    }

    /// Every sign of two variables: unsatisfiable, refuted in two steps.
    const FOUR: [&[Lit]; 4] = [&[1, 2], &[1, -2], &[-1, 2], &[-1, -2]];

    fn check(
        steps: &[(u64, &[Lit], &[i64])],
        deletions: &[(usize, &[u64])],
    ) -> Result<(), ProofError> {
        check_refutation(FOUR, encode(steps, deletions).as_slice())
    }

    #[test]
    fn a_valid_refutation_checks() {
        assert_eq!(
            check(&[(5, &[1], &[1, 2]), (6, &[], &[5, 3, 4])], &[]),
            Ok(())
        );
        // Hints past the conflict are not looked at.
        assert_eq!(
            check(&[(5, &[1], &[1, 2, 3]), (6, &[], &[5, 3, 4])], &[]),
            Ok(())
        );
    }

    #[test]
    fn each_fault_is_refused() {
        // The last hint left out: no conflict.
        assert_eq!(
            check(&[(5, &[1], &[1, 2]), (6, &[], &[5, 3])], &[]),
            Err(ProofError::NoConflict { id: 6 })
        );
        // Hints out of order: clause 3 is not unit before clause 5 sets 1.
        assert_eq!(
            check(&[(5, &[1], &[1, 2]), (6, &[], &[3, 5, 4])], &[]),
            Err(ProofError::HintNotUnit { id: 6, hint: 3 })
        );
        // A hint to a clause that does not exist, or was deleted.
        assert_eq!(
            check(&[(5, &[1], &[1, 9])], &[]),
            Err(ProofError::MissingHint { id: 5, hint: 9 })
        );
        assert_eq!(
            check(&[(5, &[1], &[1, 2]), (6, &[], &[5, 3, 4])], &[(1, &[3])]),
            Err(ProofError::MissingHint { id: 6, hint: 3 })
        );
        // A hint with a true literal: clause 3 (-1 2) once 1 is false.
        assert_eq!(
            check(&[(5, &[1], &[3, 1, 2])], &[]),
            Err(ProofError::HintNotUnit { id: 5, hint: 3 })
        );
        assert_eq!(
            check(&[(5, &[1], &[-1])], &[]),
            Err(ProofError::Rat { id: 5 })
        );
        assert_eq!(
            check(&[(5, &[1], &[1, 2])], &[]),
            Err(ProofError::NoRefutation)
        );
        assert_eq!(
            check(&[(5, &[1], &[1, 2]), (5, &[], &[5, 3, 4])], &[]),
            Err(ProofError::IdOrder { id: 5 })
        );
        // A step skipping more ids than original clauses are left, a variable the formula
        // does not have, a literal no i32 negates.
        assert_eq!(
            check(&[(9, &[1], &[1, 2])], &[]),
            Err(ProofError::IdGap { id: 9 })
        );
        assert!(matches!(
            check(&[(5, &[3], &[1, 2])], &[]),
            Err(ProofError::BadLiteral(_))
        ));
        assert!(matches!(
            check(&[(5, &[Lit::MIN], &[1, 2])], &[]),
            Err(ProofError::BadLiteral(_))
        ));
        let mut cut = encode(&[(5, &[1], &[1, 2])], &[]);
        cut.pop();
        assert_eq!(
            check_refutation(FOUR, cut.as_slice()),
            Err(ProofError::Truncated(cut.len()))
        );
        assert_eq!(
            check_refutation(FOUR, &b"x"[..]),
            Err(ProofError::UnknownStep(b'x', 0))
        );
    }

    #[test]
    fn a_satisfiable_formula_is_never_refuted() {
        // Without its last clause the formula has a model (1 and 2 true): the same proof must
        // fail, whatever ids the missing clause leaves.
        let proof = encode(&[(5, &[1], &[1, 2]), (6, &[], &[5, 3, 4])], &[]);
        assert!(check_refutation(FOUR[..3].iter().copied(), proof.as_slice()).is_err());
    }
}
