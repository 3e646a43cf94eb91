//! Solving the items of a batch on several threads, one item per thread at a time.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use crate::spare_cores::SpareCores;

/// Runs `solve` on every item of `todo` on `pool`'s threads and hands each result to `take`
/// on the calling thread, in the order they finish.
///
/// Each thread of the pool runs one long-lived task that takes the next item as soon as it is
/// done with its last: a thread busy with a hard item never has other items queued behind it,
/// so the easy ones flow past it on the other threads. The first error, from `solve` or from
/// `take`, stops the threads from taking new items; it is returned once the items already
/// started are done, and their results are still handed to `take` (a seed solved is not lost
/// because another failed).
///
/// With `spare`, a thread done with an item first lends its core to any item that asks for
/// one ([`SpareCores::lend_while_asked`]), and takes the next item once it has it back; a
/// thread that finds no item left goes on lending until the items still being solved are done
/// (the last hard ones of a batch, or the only one, get a second core too).
pub fn solve_each<T, R, E>(
    pool: &rayon::ThreadPool,
    todo: &[T],
    spare: Option<&SpareCores>,
    solve: impl Fn(&T) -> Result<R, E> + Sync,
    mut take: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E>
where
    T: Sync,
    R: Send,
    E: Send,
{
    let next = AtomicUsize::new(0);
    // Items taken and not yet solved (counted from before an item is taken).
    let in_flight = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<R, E>>();
    let mut failure: Option<E> = None;
    std::thread::scope(|scope| {
        let (next, in_flight, stop, solve) = (&next, &in_flight, &stop, &solve);
        scope.spawn(move || {
            pool.broadcast(|_| {
                let tx = tx.clone();
                while !stop.load(Ordering::Relaxed) {
                    if let Some(spare) = spare {
                        spare.lend_while_asked();
                    }
                    in_flight.fetch_add(1, Ordering::SeqCst);
                    let Some(item) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        in_flight.fetch_sub(1, Ordering::SeqCst);
                        break;
                    };
                    let result = solve(item);
                    in_flight.fetch_sub(1, Ordering::SeqCst);
                    if tx.send(result).is_err() {
                        break;
                    }
                }
                if let Some(spare) = spare {
                    spare.lend_until(|| in_flight.load(Ordering::SeqCst) == 0);
                }
            });
            drop(tx);
        });
        for result in rx {
            if let Err(e) = result.and_then(&mut take) {
                stop.store(true, Ordering::Relaxed);
                failure.get_or_insert(e);
            }
        }
    });
    failure.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::solve_each;
    use std::time::Duration;

    /// An item that takes a millisecond to solve: 10,000 of them take seconds on two threads.
    fn slowly<T>(value: T) -> T {
        std::thread::sleep(Duration::from_millis(1));
        value
    }

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool")
    }

    #[test]
    fn every_item_is_solved_once() {
        let todo: Vec<u64> = (1..=200).collect();
        let mut got = Vec::new();
        let result: Result<(), String> = solve_each(
            &pool(3),
            &todo,
            None,
            |&i| Ok(i * i),
            |r| {
                got.push(r);
                Ok(())
            },
        );
        assert_eq!(result, Ok(()));
        got.sort_unstable();
        assert_eq!(got, todo.iter().map(|i| i * i).collect::<Vec<_>>());
    }

    /// With spare cores, a worker done with its item lends its core to an item that asks for
    /// one, and takes no new item until the loan is back: no other item finishes meanwhile.
    #[test]
    fn a_worker_lends_its_core_between_items() {
        use crate::spare_cores::SpareCores;
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        use std::time::Instant;
        let spare = SpareCores::new(Duration::ZERO);
        let finished = AtomicUsize::new(0);
        let never = AtomicBool::new(false);
        let todo: Vec<u64> = (0..200).collect();
        let result: Result<(), String> = solve_each(
            &pool(2),
            &todo,
            Some(&spare),
            |&i| {
                if i == 0 {
                    let until = Instant::now() + Duration::from_secs(10);
                    let Some(loan) = spare.borrow(Instant::now(), Some(until), &never) else {
                        return Err("no core was lent".to_string());
                    };
                    let before = finished.load(Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(50));
                    let during = finished.load(Ordering::SeqCst) - before;
                    drop(loan);
                    return Ok(during);
                }
                let _ = slowly(i);
                finished.fetch_add(1, Ordering::SeqCst);
                Ok(0)
            },
            |during| {
                assert_eq!(during, 0, "items finished while their worker lent its core");
                Ok(())
            },
        );
        assert_eq!(result, Ok(()));
        assert_eq!(spare.loans(), 1);
        assert_eq!(finished.load(Ordering::SeqCst), 199);
    }

    /// A thread with no item left lends its core to the items still being solved: here the
    /// only item, on a pool of two threads.
    #[test]
    fn an_idle_worker_lends_its_core_to_the_last_item() {
        use crate::spare_cores::SpareCores;
        use std::sync::atomic::AtomicBool;
        use std::time::Instant;
        let spare = SpareCores::new(Duration::ZERO);
        let never = AtomicBool::new(false);
        let result: Result<(), String> = solve_each(
            &pool(2),
            &[0u64],
            Some(&spare),
            |_| {
                let until = Instant::now() + Duration::from_secs(10);
                match spare.borrow(Instant::now(), Some(until), &never) {
                    Some(_) => Ok(()),
                    None => Err("no core was lent".to_string()),
                }
            },
            |()| Ok(()),
        );
        assert_eq!(result, Ok(()));
        assert_eq!(spare.loans(), 1);
    }

    #[test]
    fn the_first_error_stops_the_run() {
        let todo: Vec<u64> = (1..=10_000).collect();
        let mut taken = 0;
        let result: Result<(), String> = solve_each(
            &pool(2),
            &todo,
            None,
            |&i| {
                slowly(if i == 5 {
                    Err(format!("item {i}"))
                } else {
                    Ok(i)
                })
            },
            |_| {
                taken += 1;
                Ok(())
            },
        );
        assert_eq!(result, Err("item 5".to_string()));
        // Each item takes a millisecond: all of them would take seconds. The margin allows a
        // busy machine a second or two before the workers see the stop.
        assert!(taken < 5000, "the workers stopped early: {taken} taken");
    }

    #[test]
    fn an_error_taking_a_result_stops_the_run() {
        let todo: Vec<u64> = (1..=10_000).collect();
        let mut taken = 0;
        let result: Result<(), String> = solve_each(
            &pool(2),
            &todo,
            None,
            |&i| slowly(Ok(i)),
            |_| {
                taken += 1;
                if taken >= 3 {
                    Err(format!("full disk at {taken}"))
                } else {
                    Ok(())
                }
            },
        );
        // The first error is returned; the results still in flight were handed over.
        assert_eq!(result, Err("full disk at 3".to_string()));
        assert!((3..5000).contains(&taken), "{taken} taken");
    }
}
