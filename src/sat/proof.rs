//! Refutations with a proof: a formula solved afresh by CaDiCaL writing an LRAT proof, which
//! [`super::lrat`] then checks, so that a score proven out of reach rests on a checked proof
//! and the formula's exactness, not on the search or the solver being free of faults.
//!
//! A deal's best score then stands on two independent checks: its line, replayed through the
//! rules, reaches it; and a checked proof says the per-turn formula ([`super::encode`]) for one
//! point more has no model, which by the formula's exactness means no line reaches that. The
//! formula is [`Encoding::counted`]: with the count of the plays left, the bounds the search
//! proves by counting take the solver milliseconds instead of seconds or minutes.
//!
//! The `cadical` crate has no call for proofs, so this talks to the same CaDiCaL library
//! through its C interface directly (the crate builds and links it): a solver of its own, the
//! `lrat` and `binary` options set, the proof traced into an anonymous temporary file.

use std::ffi::{c_char, c_int, c_void, CString};
use std::fs::OpenOptions;
use std::io::{ErrorKind, Seek, SeekFrom};
use std::os::fd::AsRawFd;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::cnf::Cnf;
use super::encode::{self, Encoding};
use super::lrat::{check_refutation, ProofError};
use super::{check_line, SatError};
use crate::state::{Deal, State};

extern "C" {
    fn ccadical_init() -> *mut c_void;
    fn ccadical_release(ptr: *mut c_void);
    fn ccadical_set_option(ptr: *mut c_void, name: *const c_char, val: c_int);
    fn ccadical_trace_proof(ptr: *mut c_void, file: *mut libc::FILE, name: *const c_char) -> c_int;
    fn ccadical_close_proof(ptr: *mut c_void);
    fn ccadical_add(ptr: *mut c_void, lit: c_int);
    fn ccadical_solve(ptr: *mut c_void) -> c_int;
    fn ccadical_val(ptr: *mut c_void, lit: c_int) -> c_int;
    fn ccadical_set_terminate(
        ptr: *mut c_void,
        data: *const c_void,
        cb: Option<extern "C" fn(*const c_void) -> c_int>,
    );
}

/// What solving a formula with a proof gave.
#[derive(Debug)]
enum Certified {
    /// Unsatisfiable, and the proof was checked: how long solving and checking took, and the
    /// proof's size in bytes.
    Refuted {
        solve_seconds: f64,
        check_seconds: f64,
        proof_bytes: usize,
    },
    /// The formula has a model: `model[v]` is variable v's value (index 0 unused).
    Satisfiable(Vec<bool>),
    /// Stopped before an answer (the deadline), after this many seconds.
    Open(f64),
}

/// Why a refutation could not be certified.
#[derive(Debug, thiserror::Error)]
enum CertifyError {
    #[error("the solver's proof could not be kept: {0}")]
    Io(#[from] std::io::Error),
    #[error("the solver's proof does not check: {0}")]
    Proof(#[from] ProofError),
}

/// A CaDiCaL solver through its C interface, released when dropped.
struct Raw(*mut c_void);

impl Drop for Raw {
    fn drop(&mut self) {
        // SAFETY: made by `ccadical_init`, released once.
        unsafe { ccadical_release(self.0) }
    }
}

/// The deadline the terminate callback reads.
extern "C" fn past_deadline(data: *const c_void) -> c_int {
    // SAFETY: `data` points to the `Option<Instant>` that outlives the solve call.
    let deadline = unsafe { &*(data as *const Option<Instant>) };
    c_int::from(deadline.is_some_and(|d| Instant::now() >= d))
}

/// A solver's answer with its proof trace.
struct Traced {
    /// CaDiCaL's status: 10 satisfiable, 20 unsatisfiable, otherwise stopped.
    status: c_int,
    /// With status 10, each variable's value (index 0 unused).
    model: Vec<bool>,
    /// The binary LRAT proof as far as the solver got (a refutation where status is 20), in
    /// an unlinked temporary file set to its start ([`anonymous_file`]), and its size.
    proof: std::fs::File,
    proof_bytes: usize,
    seconds: f64,
}

/// A file in the temporary folder (`TMPDIR`, else `/tmp`) that no other program can open: made,
/// then unlinked at once, so it goes when the last handle to it is closed.
fn anonymous_file() -> std::io::Result<std::fs::File> {
    let dir = std::env::temp_dir();
    for attempt in 0..100u32 {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!(
            "hanabi-solver-proof-{}-{nanos}-{attempt}",
            std::process::id()
        );
        let path = dir.join(name);
        match OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => {
                std::fs::remove_file(&path)?;
                return Ok(file);
            }
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::new(
        ErrorKind::AlreadyExists,
        "no free name for a proof file",
    ))
}

/// Solves `cnf` afresh, tracing an LRAT proof, until `deadline`.
fn traced_solve(cnf: &Cnf, deadline: Option<Instant>) -> std::io::Result<Traced> {
    // SAFETY: the C interface is used as documented: options and the proof trace are set right
    // after initialisation, clauses are added as zero-terminated literals, and the stream
    // CaDiCaL writes to outlives the trace (it is closed after the solver is released).
    unsafe {
        let mut proof_file = anonymous_file()?;
        // A second handle to the same file for CaDiCaL to write through (closed below).
        let fd = libc::dup(proof_file.as_raw_fd());
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let file = libc::fdopen(fd, c"w".as_ptr());
        if file.is_null() {
            let e = std::io::Error::last_os_error();
            libc::close(fd);
            return Err(e);
        }
        let solver = Raw(ccadical_init());
        let option = |name: &str, value: c_int| {
            let name = CString::new(name).expect("no NUL");
            ccadical_set_option(solver.0, name.as_ptr(), value);
        };
        option("lrat", 1);
        option("binary", 1);
        let name = CString::new("proof").expect("no NUL");
        ccadical_trace_proof(solver.0, file, name.as_ptr());
        for clause in cnf.clauses() {
            for &lit in clause {
                ccadical_add(solver.0, lit);
            }
            ccadical_add(solver.0, 0);
        }
        let start = Instant::now();
        let data = &deadline as *const Option<Instant> as *const c_void;
        ccadical_set_terminate(solver.0, data, Some(past_deadline));
        let status = ccadical_solve(solver.0);
        let seconds = start.elapsed().as_secs_f64();
        let model: Vec<bool> = match status {
            10 => (0..=cnf.vars())
                .map(|v| v > 0 && ccadical_val(solver.0, v) > 0)
                .collect(),
            _ => Vec::new(),
        };
        ccadical_close_proof(solver.0);
        drop(solver);
        // CaDiCaL does not check its writes (a full disk cuts the proof short): check here.
        let failed = libc::ferror(file) != 0 || libc::fflush(file) != 0;
        if libc::fclose(file) != 0 || failed {
            return Err(std::io::Error::other("writing the proof failed"));
        }
        let proof_bytes = proof_file.seek(SeekFrom::End(0))? as usize;
        proof_file.seek(SeekFrom::Start(0))?;
        Ok(Traced {
            status,
            model,
            proof: proof_file,
            proof_bytes,
            seconds,
        })
    }
}

/// Solves `cnf` afresh with an LRAT proof and, where it is unsatisfiable, checks the proof.
fn solve_certified(cnf: &Cnf, deadline: Option<Instant>) -> Result<Certified, CertifyError> {
    let traced = traced_solve(cnf, deadline)?;
    match traced.status {
        10 => Ok(Certified::Satisfiable(traced.model)),
        20 => {
            let start = Instant::now();
            check_refutation(cnf.clauses(), &traced.proof)?;
            Ok(Certified::Refuted {
                solve_seconds: traced.seconds,
                check_seconds: start.elapsed().as_secs_f64(),
                proof_bytes: traced.proof_bytes,
            })
        }
        _ => Ok(Certified::Open(traced.seconds)),
    }
}

/// The score to certify out of reach where the best score is proven at most `upper`, below
/// `perfect`: one point more, but in endless mode, where anything short of the perfect score
/// is a loss, the perfect score.
pub fn score_out_of_reach(upper: u8, perfect: u8, endless: bool) -> u8 {
    if endless {
        perfect
    } else {
        upper + 1
    }
}

/// A checked proof that no line from a position reaches a score, or why there is none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Certificate {
    /// The score shown out of reach (in endless mode, the perfect score).
    pub score: u8,
    /// Whether a proof was made and checked; `false` when the deadline came first or the
    /// formula does not model the rules (`why` says which).
    pub checked: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// The proof's size (binary LRAT), and the time to make it and to check it (unchecked: 0,
    /// the time spent before the deadline, and 0).
    pub proof_bytes: usize,
    pub solve_seconds: f64,
    pub check_seconds: f64,
}

impl Certificate {
    /// The certificate in words, for the text output.
    pub fn words(&self) -> String {
        if self.checked {
            format!(
                "Certified: no line reaches {} (an LRAT proof of {:.1} MB, made in {:.2} s and \
                 checked in {:.2} s by an independent checker).",
                self.score,
                self.proof_bytes as f64 / 1e6,
                self.solve_seconds,
                self.check_seconds
            )
        } else {
            format!(
                "Not certified that no line reaches {}: {}.",
                self.score,
                self.why.as_deref().unwrap_or("no proof")
            )
        }
    }

    fn unchecked(score: u8, why: &str) -> Certificate {
        Certificate {
            score,
            checked: false,
            why: Some(why.to_string()),
            proof_bytes: 0,
            solve_seconds: 0.0,
            check_seconds: 0.0,
        }
    }
}

/// A checked proof that no line from `state` ends the game with `target` or more (the per-turn
/// formula for `target`, solved afresh, and its LRAT proof checked), unless `deadline` comes
/// first or the formula does not model the rules ([`Certificate::checked`] false).
///
/// The error is a fault: a line that reaches `target` after all (whatever proved it out of
/// reach was wrong), a model whose line does not replay, or a proof that does not check.
pub fn certify_unreachable(
    deal: &Deal,
    state: &State,
    target: u8,
    deadline: Option<Instant>,
) -> Result<Certificate, SatError> {
    if let Err(why) = encode::applies(deal, state) {
        return Ok(Certificate::unchecked(target, why));
    }
    let encoding = Encoding::counted(deal, state, target);
    let outcome = match solve_certified(&encoding.cnf, deadline) {
        Ok(outcome) => outcome,
        // Not the solver's fault (a full disk, say): this bound goes without a certificate.
        Err(CertifyError::Io(e)) => {
            let why = format!("the proof could not be written or read back ({e})");
            return Ok(Certificate::unchecked(target, &why));
        }
        Err(CertifyError::Proof(e)) => return Err(SatError::BadProof(target, e.to_string())),
    };
    match outcome {
        Certified::Refuted {
            solve_seconds,
            check_seconds,
            proof_bytes,
        } => Ok(Certificate {
            score: target,
            checked: true,
            why: None,
            proof_bytes,
            solve_seconds,
            check_seconds,
        }),
        Certified::Open(seconds) => Ok(Certificate {
            solve_seconds: seconds,
            ..Certificate::unchecked(target, "the time limit came first")
        }),
        Certified::Satisfiable(model) => {
            let line = encoding.line(deal, state, |l| {
                let v = model[l.unsigned_abs() as usize];
                if l > 0 {
                    v
                } else {
                    !v
                }
            });
            check_line(deal, state, target, &line)?;
            Err(SatError::Contradicted(target))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pigeons into holes, each pigeon in some hole, no two in one hole: unsatisfiable with
    /// more pigeons than holes, and hard enough that the solver derives many clauses. Without
    /// pigeon `free`'s clause asking for a hole, satisfiable.
    fn pigeons(pigeons: i32, holes: i32, free: Option<i32>) -> Cnf {
        let mut cnf = Cnf::new();
        let vars: Vec<Vec<i32>> = (0..pigeons)
            .map(|_| (0..holes).map(|_| cnf.var()).collect())
            .collect();
        for (p, row) in vars.iter().enumerate() {
            if free != Some(p as i32) {
                cnf.clause(row);
            }
        }
        for h in 0..holes as usize {
            let in_hole: Vec<i32> = vars.iter().map(|row| row[h]).collect();
            cnf.at_most_one(&in_hole);
        }
        cnf
    }

    #[test]
    fn a_solver_proof_checks_and_a_satisfiable_formula_is_not_refuted() {
        let cnf = pigeons(7, 6, None);
        match solve_certified(&cnf, None) {
            Ok(Certified::Refuted { proof_bytes, .. }) => assert!(proof_bytes > 10_000),
            other => panic!("{other:?}"),
        }
        let loose = pigeons(7, 6, Some(3));
        assert!(matches!(
            solve_certified(&loose, None),
            Ok(Certified::Satisfiable(_))
        ));
        // The refutation's own proof, checked against the loose formula: it must fail.
        let mut proof = Vec::new();
        let mut traced = traced_solve(&cnf, None).expect("solved");
        std::io::Read::read_to_end(&mut traced.proof, &mut proof).expect("read back");
        assert_eq!(proof.len(), traced.proof_bytes);
        assert!(check_refutation(loose.clauses(), proof.as_slice()).is_err());
        assert!(check_refutation(cnf.clauses(), proof.as_slice()).is_ok());
    }
}
