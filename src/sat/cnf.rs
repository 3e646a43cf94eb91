//! A formula in conjunctive normal form under construction: numbered variables, clauses, and
//! the few gadgets the game's encoding is written with (definitions of AND and OR, at most one,
//! equality under conditions).
//!
//! Variable 1 is forced true, so a constant is just a literal ([`Cnf::TRUE`], [`Cnf::FALSE`]),
//! and clauses fold constants away as they are added: the encoding can write its fixed start
//! position and its open turns with the same code.

/// A literal in DIMACS form: variable `v` is `v`, its negation `-v`.
pub type Lit = i32;

/// Clauses over numbered variables, kept flat (each clause ends with a 0), ready for a solver.
#[derive(Clone, Debug)]
pub struct Cnf {
    vars: i32,
    clauses: Vec<Lit>,
    count: usize,
}

impl Cnf {
    /// The literal that is always true.
    pub const TRUE: Lit = 1;
    /// The literal that is always false.
    pub const FALSE: Lit = -1;

    /// A formula holding only the clause that makes [`Cnf::TRUE`] true.
    pub fn new() -> Cnf {
        Cnf {
            vars: 1,
            clauses: vec![Cnf::TRUE, 0],
            count: 1,
        }
    }

    /// The constant literal for `value`.
    pub const fn constant(value: bool) -> Lit {
        if value {
            Cnf::TRUE
        } else {
            Cnf::FALSE
        }
    }

    /// A fresh variable.
    pub fn var(&mut self) -> Lit {
        self.vars += 1;
        self.vars
    }

    pub fn vars(&self) -> i32 {
        self.vars
    }

    /// Clauses added so far.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Each clause as a slice of literals.
    pub fn clauses(&self) -> impl Iterator<Item = &[Lit]> {
        self.clauses.split(|&l| l == 0).filter(|c| !c.is_empty())
    }

    /// Adds the clause `lits` (their disjunction). A clause holding [`Cnf::TRUE`] is dropped,
    /// [`Cnf::FALSE`] literals are left out, and an empty clause makes the formula false.
    pub fn clause(&mut self, lits: &[Lit]) {
        if lits.contains(&Cnf::TRUE) {
            return;
        }
        let start = self.clauses.len();
        self.clauses
            .extend(lits.iter().copied().filter(|&l| l != Cnf::FALSE));
        if self.clauses.len() == start {
            self.clauses.push(Cnf::FALSE);
        }
        self.clauses.push(0);
        self.count += 1;
    }

    /// A literal equal to the conjunction of `lits`.
    pub fn and(&mut self, lits: &[Lit]) -> Lit {
        let lits: Vec<Lit> = lits.iter().copied().filter(|&l| l != Cnf::TRUE).collect();
        if lits.contains(&Cnf::FALSE) {
            return Cnf::FALSE;
        }
        match lits.as_slice() {
            [] => Cnf::TRUE,
            [one] => *one,
            _ => {
                let a = self.var();
                for &l in &lits {
                    self.clause(&[-a, l]);
                }
                let mut back: Vec<Lit> = lits.iter().map(|&l| -l).collect();
                back.push(a);
                self.clause(&back);
                a
            }
        }
    }

    /// A literal equal to the disjunction of `lits`.
    pub fn or(&mut self, lits: &[Lit]) -> Lit {
        let negated: Vec<Lit> = lits.iter().map(|&l| -l).collect();
        -self.and(&negated)
    }

    /// At most one of `lits` is true: pairwise for a few, else the sequential counter (one
    /// helper variable per literal, about three clauses each).
    pub fn at_most_one(&mut self, lits: &[Lit]) {
        if lits.len() <= 5 {
            for (i, &a) in lits.iter().enumerate() {
                for &b in &lits[i + 1..] {
                    self.clause(&[-a, -b]);
                }
            }
            return;
        }
        // `seen` is true once some literal up to this one is.
        let mut seen = lits[0];
        for &l in &lits[1..] {
            self.clause(&[-seen, -l]);
            let next = self.var();
            self.clause(&[-seen, next]);
            self.clause(&[-l, next]);
            seen = next;
        }
    }

    /// At least `k` of `lits` are true: at most `n - k` of their negations, by the sequential
    /// counter (`n - k` helper variables per literal).
    pub fn at_least(&mut self, lits: &[Lit], k: usize) {
        self.at_least_when(Cnf::TRUE, lits, k);
    }

    /// Where `when` holds, at least `k` of `lits` are true ([`Cnf::at_least`] under a
    /// condition: assuming `when` asks for it, and without it nothing is asked).
    pub fn at_least_when(&mut self, when: Lit, lits: &[Lit], k: usize) {
        if k == 0 {
            return;
        }
        if k > lits.len() {
            self.clause(&[-when]);
            return;
        }
        if k == 1 {
            let mut clause = vec![-when];
            clause.extend_from_slice(lits);
            self.clause(&clause);
            return;
        }
        let most = lits.len() - k;
        let negated: Vec<Lit> = lits.iter().map(|&l| -l).collect();
        self.at_most_when(when, &negated, most);
    }

    /// At most `k` of `lits` are true (Sinz's sequential counter: `count[j]` is "at least j+1
    /// of the literals so far").
    pub fn at_most(&mut self, lits: &[Lit], k: usize) {
        self.at_most_when(Cnf::TRUE, lits, k);
    }

    /// Where `when` holds, at most `k` of `lits` are true. Only the clauses that forbid one
    /// literal too many are conditional; the counter's own clauses hold either way, as they
    /// only ever allow its "at least" variables to be true.
    pub fn at_most_when(&mut self, when: Lit, lits: &[Lit], k: usize) {
        if k >= lits.len() {
            return;
        }
        if k == 0 {
            for &l in lits {
                self.clause(&[-when, -l]);
            }
            return;
        }
        let mut count: Vec<Lit> = vec![Cnf::FALSE; k];
        for &l in lits {
            // Too many: this literal on top of k already.
            self.clause(&[-when, -l, -count[k - 1]]);
            let next: Vec<Lit> = (0..k).map(|_| self.var()).collect();
            for j in 0..k {
                self.clause(&[-count[j], next[j]]);
                let below = if j == 0 { Cnf::TRUE } else { count[j - 1] };
                self.clause(&[-l, -below, next[j]]);
            }
            count = next;
        }
    }

    /// Exactly one of `lits` is true.
    pub fn exactly_one(&mut self, lits: &[Lit]) {
        self.clause(lits);
        self.at_most_one(lits);
    }

    /// Where every literal of `when` holds, `a` and `b` are equal.
    pub fn equal_when(&mut self, when: &[Lit], a: Lit, b: Lit) {
        let mut c: Vec<Lit> = when.iter().map(|&l| -l).collect();
        let n = c.len();
        c.extend([-a, b]);
        self.clause(&c);
        c[n] = a;
        c[n + 1] = -b;
        self.clause(&c);
    }
}

impl Default for Cnf {
    fn default() -> Self {
        Cnf::new()
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Every assignment of the variables `1..=vars` (variable 1 true), as a truth function.
    pub(in crate::sat) fn assignments(vars: i32) -> impl Iterator<Item = impl Fn(Lit) -> bool> {
        (0u32..1 << (vars - 1)).map(|bits| {
            move |l: Lit| {
                let v = l.unsigned_abs() as i32;
                let value = v == 1 || bits >> (v - 2) & 1 == 1;
                if l > 0 {
                    value
                } else {
                    !value
                }
            }
        })
    }

    /// Whether the assignment `value` satisfies every clause of `cnf`.
    pub(in crate::sat) fn satisfied(cnf: &Cnf, value: &impl Fn(Lit) -> bool) -> bool {
        cnf.clauses().all(|c| c.iter().any(|&l| value(l)))
    }

    /// For each combination of the inputs `xs` (bit i for `xs[i]`), whether some setting of the
    /// other (helper) variables satisfies every clause.
    fn allowed(cnf: &Cnf, xs: &[Lit]) -> Vec<bool> {
        let mut allowed = vec![false; 1 << xs.len()];
        for value in assignments(cnf.vars()) {
            if satisfied(cnf, &value) {
                let bits = (0..xs.len()).fold(0, |b, i| b | usize::from(value(xs[i])) << i);
                allowed[bits] = true;
            }
        }
        allowed
    }

    #[test]
    fn gadgets_mean_what_they_say() {
        for n in 1..=7usize {
            let mut cnf = Cnf::new();
            let xs: Vec<Lit> = (0..n).map(|_| cnf.var()).collect();
            let and = cnf.and(&xs);
            let or = cnf.or(&xs);
            let mut amo = Cnf::new();
            let ys: Vec<Lit> = (0..n).map(|_| amo.var()).collect();
            amo.at_most_one(&ys);
            for (bits, ok) in allowed(&amo, &ys).into_iter().enumerate() {
                assert_eq!(
                    ok,
                    bits.count_ones() <= 1,
                    "at most one of {n}, inputs {bits:b}"
                );
            }
            for value in assignments(cnf.vars()) {
                if satisfied(&cnf, &value) {
                    assert_eq!(value(and), xs.iter().all(|&x| value(x)));
                    assert_eq!(value(or), xs.iter().any(|&x| value(x)));
                }
            }
        }
    }

    /// The counters, plain and conditional: with the condition true (or none), the count is
    /// asked; with it false, every combination of the inputs is allowed.
    #[test]
    fn counting_gadgets_mean_what_they_say() {
        for n in 0..=5usize {
            for k in 0..=n + 1 {
                for (most, conditional) in
                    [(false, false), (true, false), (false, true), (true, true)]
                {
                    let mut cnf = Cnf::new();
                    let when = if conditional { cnf.var() } else { Cnf::TRUE };
                    let xs: Vec<Lit> = (0..n).map(|_| cnf.var()).collect();
                    match (most, conditional) {
                        (true, false) => cnf.at_most(&xs, k),
                        (false, false) => cnf.at_least(&xs, k),
                        (true, true) => cnf.at_most_when(when, &xs, k),
                        (false, true) => cnf.at_least_when(when, &xs, k),
                    }
                    let inputs: Vec<Lit> = xs.iter().copied().chain([when]).collect();
                    for (bits, ok) in allowed(&cnf, &inputs).into_iter().enumerate() {
                        let ones = (bits & ((1 << n) - 1)).count_ones() as usize;
                        let asked = bits >> n & 1 == 1;
                        if !conditional && !asked {
                            continue; // the constant TRUE is never false
                        }
                        let want = !asked || if most { ones <= k } else { ones >= k };
                        assert_eq!(
                            ok, want,
                            "n {n} k {k} at most {most} conditional {conditional} inputs {bits:b}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn constants_fold() {
        let mut cnf = Cnf::new();
        let x = cnf.var();
        assert_eq!(cnf.and(&[x, Cnf::TRUE]), x);
        assert_eq!(cnf.and(&[x, Cnf::FALSE]), Cnf::FALSE);
        assert_eq!(cnf.or(&[x, Cnf::TRUE]), Cnf::TRUE);
        let before = cnf.len();
        cnf.clause(&[x, Cnf::TRUE]);
        assert_eq!(cnf.len(), before);
        cnf.clause(&[Cnf::FALSE]);
        assert!(assignments(cnf.vars()).all(|v| !satisfied(&cnf, &v)));
    }
}
