//! Cores a batch's workers lend to its hard seeds.
//!
//! A batch solves one seed a core at a time: almost every seed is settled in milliseconds, and
//! a second core would sit idle beside it. The few hard ones are where a second core pays (two
//! SAT formulas racing settle many a deal one leaves open). So a hard seed asks for a core
//! ([`SpareCores::borrow`]), and the next worker to finish its seed lends its own
//! ([`SpareCores::lend_while_asked`]) instead of taking a new one, until the loan comes back:
//! the batch keeps about as many cores busy as it has workers, and the easy seeds flow on the
//! other workers meanwhile.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How often a waiting thread (a borrower, an idle worker, [`wait_until`]) looks again at its
/// deadline and its cancel flag.
const POLL: Duration = Duration::from_millis(5);

/// The cores a batch's workers offer to the seeds that ask for one. Shared by the workers
/// (which lend) and the seeds they solve (which borrow).
#[derive(Debug)]
pub struct SpareCores {
    /// How long a seed runs on its one core before it asks for a second.
    after: Duration,
    market: Mutex<Market>,
    /// Signalled when a core is offered.
    offered: Condvar,
    /// Signalled when a seed asks for a core.
    wanted: Condvar,
    /// Loans made so far.
    loans: AtomicUsize,
}

/// The borrowers waiting and the cores offered to them, not yet taken. Never more offers than
/// borrowers waiting: a worker offers only to a borrower no offer awaits, and a borrower takes
/// an offer if there is one before it gives up.
#[derive(Debug, Default)]
struct Market {
    asking: usize,
    offers: Vec<Arc<Offer>>,
}

impl Market {
    /// Whether a borrower waits for a core no worker has offered yet.
    fn unserved(&self) -> bool {
        self.asking > self.offers.len()
    }
}

/// One worker's core, lent: the worker waits until the loan is returned.
#[derive(Debug, Default)]
struct Offer {
    returned: Mutex<bool>,
    signal: Condvar,
}

impl Offer {
    fn give_back(&self) {
        *self.returned.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.signal.notify_all();
    }

    fn wait_until_returned(&self) {
        let guard = self.returned.lock().unwrap_or_else(|e| e.into_inner());
        let _returned = self
            .signal
            .wait_while(guard, |returned| !*returned)
            .unwrap_or_else(|e| e.into_inner());
    }
}

/// A core lent to a seed: its worker waits, idle, until the loan is dropped.
#[derive(Debug)]
pub struct Loan {
    offer: Arc<Offer>,
    taken: Instant,
}

impl Loan {
    /// How long the core has been lent so far.
    pub fn held(&self) -> Duration {
        self.taken.elapsed()
    }
}

impl Drop for Loan {
    fn drop(&mut self) {
        self.offer.give_back();
    }
}

impl SpareCores {
    /// Cores for the seeds that one core has not settled after `after`.
    pub fn new(after: Duration) -> SpareCores {
        SpareCores {
            after,
            market: Mutex::default(),
            offered: Condvar::new(),
            wanted: Condvar::new(),
            loans: AtomicUsize::new(0),
        }
    }

    /// How long a seed runs on its one core before it asks for a second.
    pub fn after(&self) -> Duration {
        self.after
    }

    fn market(&self) -> MutexGuard<'_, Market> {
        self.market.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many loans were made so far: how many seeds got a second core.
    pub fn loans(&self) -> usize {
        self.loans.load(Ordering::Relaxed)
    }

    /// Whether a seed is waiting for a core that no worker has offered yet.
    pub fn asked(&self) -> bool {
        self.market().unserved()
    }

    /// For a worker between two seeds: while a seed asks for a core, lends this thread's and
    /// waits until the loan comes back. Returns at once where nobody asks.
    pub fn lend_while_asked(&self) {
        loop {
            let offer = {
                let mut market = self.market();
                if !market.unserved() {
                    return;
                }
                let offer = Arc::new(Offer::default());
                market.offers.push(offer.clone());
                offer
            };
            self.offered.notify_all();
            offer.wait_until_returned();
        }
    }

    /// For a worker with no seed left: lends its core whenever a seed asks, until `done` (the
    /// seeds still being solved are done), looking again every `POLL`.
    pub fn lend_until(&self, done: impl Fn() -> bool) {
        loop {
            self.lend_while_asked();
            if done() {
                return;
            }
            let market = self.market();
            if !market.unserved() {
                drop(
                    self.wanted
                        .wait_timeout(market, POLL)
                        .unwrap_or_else(|e| e.into_inner()),
                );
            }
        }
    }

    /// For a seed that wants a second core: from `not_before`, asks for one and waits until a
    /// worker lends it, giving up at `until` or once `cancel` is raised (the seed is settled).
    pub fn borrow(
        &self,
        not_before: Instant,
        until: Option<Instant>,
        cancel: &AtomicBool,
    ) -> Option<Loan> {
        if !wait_until(not_before, until, cancel) {
            return None;
        }
        let mut market = self.market();
        market.asking += 1;
        self.wanted.notify_all();
        loop {
            if let Some(offer) = market.offers.pop() {
                market.asking -= 1;
                self.loans.fetch_add(1, Ordering::Relaxed);
                return Some(Loan {
                    offer,
                    taken: Instant::now(),
                });
            }
            if over(until, cancel) {
                market.asking -= 1;
                return None;
            }
            market = self
                .offered
                .wait_timeout(market, POLL)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// Whether `cancel` is raised or `until` has passed.
fn over(until: Option<Instant>, cancel: &AtomicBool) -> bool {
    cancel.load(Ordering::Relaxed) || until.is_some_and(|u| Instant::now() >= u)
}

/// Sleeps until `then`, looking every `POLL` at `until` and `cancel`: whether it got there
/// before `until` passed and before `cancel` was raised.
pub fn wait_until(then: Instant, until: Option<Instant>, cancel: &AtomicBool) -> bool {
    loop {
        if over(until, cancel) {
            return false;
        }
        let now = Instant::now();
        if now >= then {
            return true;
        }
        std::thread::sleep(POLL.min(then - now));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nobody asks: a worker lends nothing and goes straight on.
    #[test]
    fn a_worker_goes_on_where_nobody_asks() {
        let spare = SpareCores::new(Duration::ZERO);
        spare.lend_while_asked();
        assert!(!spare.asked());
    }

    /// A borrower past its deadline, or cancelled, gets nothing and leaves no ask behind.
    #[test]
    fn a_borrower_gives_up_at_its_deadline_or_cancel() {
        let spare = SpareCores::new(Duration::ZERO);
        let now = Instant::now();
        let cancel = AtomicBool::new(false);
        assert!(spare
            .borrow(now, Some(now + Duration::from_millis(20)), &cancel)
            .is_none());
        assert!(!spare.asked());
        cancel.store(true, Ordering::Relaxed);
        assert!(spare.borrow(now, None, &cancel).is_none());
        assert!(!spare.asked());
    }

    /// A seed that asks gets the next worker's core; the worker waits, idle, until the loan
    /// is dropped, and only then goes on.
    #[test]
    fn a_worker_lends_its_core_until_the_loan_is_returned() {
        let spare = SpareCores::new(Duration::ZERO);
        let cancel = AtomicBool::new(false);
        let lent_back = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            let borrower = scope.spawn(|| {
                let loan = spare.borrow(Instant::now(), None, &cancel).expect("a core");
                std::thread::sleep(Duration::from_millis(50));
                lent_back.store(1, Ordering::SeqCst);
                drop(loan);
            });
            while !spare.asked() {
                std::thread::sleep(Duration::from_millis(1));
            }
            spare.lend_while_asked();
            // The worker came back only once the loan was returned.
            assert_eq!(lent_back.load(Ordering::SeqCst), 1);
            borrower.join().unwrap();
        });
        assert!(!spare.asked());
    }

    /// Several borrowers and workers: every borrower gets a core, and every worker gets its
    /// own back.
    #[test]
    fn every_borrower_is_served_and_every_worker_returns() {
        let spare = SpareCores::new(Duration::ZERO);
        let cancel = AtomicBool::new(false);
        let served = AtomicUsize::new(0);
        let deadline = Instant::now() + Duration::from_secs(60);
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    let loan = spare.borrow(Instant::now(), Some(deadline), &cancel);
                    assert!(loan.is_some(), "a borrower was not served");
                    served.fetch_add(1, Ordering::SeqCst);
                });
            }
            for _ in 0..2 {
                scope.spawn(|| {
                    while served.load(Ordering::SeqCst) < 4 {
                        spare.lend_while_asked();
                        std::thread::sleep(Duration::from_millis(1));
                    }
                });
            }
        });
        assert_eq!(served.load(Ordering::SeqCst), 4);
        assert_eq!(spare.loans(), 4);
        assert!(!spare.asked());
    }
}
