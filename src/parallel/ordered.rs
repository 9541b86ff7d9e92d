//! An ordered pipeline: items pulled from a source one at a time, worked on
//! by a [`WorkerPool`]'s workers, and handed to a sink in source order, each
//! as soon as it and every item before it are done.
//!
//! The source is read on a thread of its own, so that a slow source (a
//! terminal, a pipe) never holds back results that are ready, and at most
//! `window` items ahead of the sink, so that memory stays bounded whatever
//! the length of the source. A pool of one worker runs everything on the
//! caller's thread instead: read an item, work on it, hand it over.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;

use thiserror::Error;

use super::WorkerPool;

/// The work on an item panicked (a bug). The sink gets the item with this
/// instead of a result, and the other items go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Panicked;

/// Why a pipeline stopped before the end of its source.
#[derive(Debug, Error)]
pub enum PipelineError<E> {
    /// The source failed; every item read before was handed to the sink.
    #[error(transparent)]
    Source(E),
    /// The operating system refused the reader thread; nothing was read.
    #[error("cannot start the reader thread: {0}")]
    Thread(std::io::Error),
}

/// What the caller's thread hears about.
enum Event<T, R, E> {
    /// The reader read item number `.0`.
    Read(usize, T),
    /// A worker finished item number `.0`.
    Done(usize, T, Result<R, Panicked>),
    /// The reader reached the end of the source, or the source failed.
    End(Result<(), E>),
}

/// Runs `work(state, &item)` on `pool`'s workers for every item `source`
/// gives (until it gives `None`), and `sink(item, result)` on the caller's
/// thread for each, in source order, as soon as the item and all before it
/// are done. At most `window` items are read and not yet sunk.
///
/// A sink that returns `Break` ends the run at once: items not yet started
/// are dropped, those being worked on are waited for (not sunk), and the
/// reader thread is left to end on its own (it may be waiting for input).
/// A panic in `work` reaches the sink as [`Panicked`]. A source error ends
/// the reading; the items read before it are still worked on and sunk, then
/// the error is returned.
pub fn run_ordered<S, T, R, E, Src, F, K>(
    pool: &WorkerPool<S>,
    window: usize,
    mut source: Src,
    work: F,
    mut sink: K,
) -> Result<(), PipelineError<E>>
where
    S: Send,
    T: Send + 'static,
    R: Send + 'static,
    E: Send + 'static,
    Src: FnMut() -> Result<Option<T>, E> + Send + 'static,
    F: Fn(&mut S, &T) -> R + Sync,
    K: FnMut(T, Result<R, Panicked>) -> ControlFlow<()>,
{
    let guarded = |state: &mut S, item: &T| {
        catch_unwind(AssertUnwindSafe(|| work(state, item))).map_err(|_| Panicked)
    };
    let Some(threads) = pool.rayon() else {
        loop {
            let Some(item) = source().map_err(PipelineError::Source)? else {
                return Ok(());
            };
            let result = pool.with_state(0, |state| guarded(state, &item));
            if sink(item, result).is_break() {
                return Ok(());
            }
        }
    };

    // The reader takes a token before each item and the sink gives it back
    // once that item is sunk: at most `window` items in flight.
    let window = window.max(1);
    let (token_tx, token_rx) = mpsc::sync_channel::<()>(window);
    for _ in 0..window {
        token_tx
            .send(())
            .expect("the channel has room for every token");
    }
    let (event_tx, event_rx) = mpsc::channel::<Event<T, R, E>>();
    let reader_tx = event_tx.clone();
    // Detached: when the sink stops, the reader may be blocked in a read
    // that never ends (a terminal); it ends with the process.
    thread::Builder::new()
        .name("c4-reader".to_owned())
        .spawn(move || {
            let mut seq = 0;
            let end = loop {
                if token_rx.recv().is_err() {
                    return; // the sink stopped
                }
                match source() {
                    Ok(Some(item)) => {
                        if reader_tx.send(Event::Read(seq, item)).is_err() {
                            return;
                        }
                        seq += 1;
                    }
                    Ok(None) => break Ok(()),
                    Err(e) => break Err(e),
                }
            };
            let _ = reader_tx.send(Event::End(end));
        })
        .map_err(PipelineError::Thread)?;

    let stop = AtomicBool::new(false);
    let (guarded, stop_flag) = (&guarded, &stop);
    let mut pending = BTreeMap::new();
    let (mut read, mut next) = (0, 0);
    let mut end = None;
    // FIFO: spawned from this thread (not one of the pool's), the items are
    // taken in the order they were read, so the oldest finish first.
    threads.in_place_scope_fifo(|scope| {
        while end.is_none() || next < read {
            // The loop holds `event_tx`, so `recv` waits rather than fails.
            let Ok(event) = event_rx.recv() else { break };
            match event {
                Event::Read(seq, item) => {
                    read += 1;
                    let done_tx = event_tx.clone();
                    scope.spawn_fifo(move |_| {
                        if stop_flag.load(Ordering::Relaxed) {
                            return;
                        }
                        let result = pool.with_worker_state(|state| guarded(state, &item));
                        let _ = done_tx.send(Event::Done(seq, item, result));
                    });
                }
                Event::Done(seq, item, result) => {
                    pending.insert(seq, (item, result));
                    while let Some((item, result)) = pending.remove(&next) {
                        next += 1;
                        if sink(item, result).is_break() {
                            stop_flag.store(true, Ordering::Relaxed);
                            return;
                        }
                        // The reader may have ended and dropped its end.
                        let _ = token_tx.send(());
                    }
                }
                Event::End(result) => end = Some(result),
            }
        }
    });
    match end {
        Some(Err(e)) if !stop.into_inner() => Err(PipelineError::Source(e)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::table::TableError;

    /// A pool of `threads` workers whose state counts the items it worked on.
    fn counters(threads: usize) -> WorkerPool<usize> {
        WorkerPool::new(threads, || Ok::<_, TableError>(0)).unwrap()
    }

    /// A source of `0..n`, then the end (or `error` once `n` items are read).
    fn numbers(
        n: usize,
        error: Option<&'static str>,
    ) -> impl FnMut() -> Result<Option<usize>, &'static str> {
        let mut i = 0;
        move || {
            if i == n {
                return error.map_or(Ok(None), Err);
            }
            i += 1;
            Ok(Some(i - 1))
        }
    }

    #[test]
    fn results_leave_in_source_order_on_any_number_of_threads() {
        for threads in [1, 2, 3] {
            let pool = counters(threads);
            let mut seen = Vec::new();
            // Early items take longest, so later ones finish first.
            let work = |count: &mut usize, &i: &usize| {
                *count += 1;
                std::thread::sleep(std::time::Duration::from_micros(
                    ((50 - i % 50) * 20) as u64,
                ));
                i * i
            };
            run_ordered(&pool, 7, numbers(500, None), work, |i, r| {
                seen.push((i, r.unwrap()));
                ControlFlow::Continue(())
            })
            .unwrap();
            let expected: Vec<(usize, usize)> = (0..500).map(|i| (i, i * i)).collect();
            assert_eq!(seen, expected, "{threads} threads");
            let worked: usize = pool.into_states().into_iter().sum();
            assert_eq!(worked, 500);
        }
    }

    #[test]
    fn a_panic_reaches_the_sink_and_the_others_go_on() {
        for threads in [1, 2] {
            let pool = counters(threads);
            let mut seen = Vec::new();
            let work = |_: &mut usize, &i: &usize| {
                assert!(i != 3, "a bug on item 3");
                i
            };
            run_ordered(&pool, 4, numbers(6, None), work, |i, r| {
                seen.push((i, r));
                ControlFlow::Continue(())
            })
            .unwrap();
            let expected: Vec<(usize, Result<usize, Panicked>)> = (0..6)
                .map(|i| (i, if i == 3 { Err(Panicked) } else { Ok(i) }))
                .collect();
            assert_eq!(seen, expected, "{threads} threads");
        }
    }

    #[test]
    fn a_source_error_comes_after_the_items_read_before_it() {
        for threads in [1, 2] {
            let pool = counters(threads);
            let mut seen = Vec::new();
            let result = run_ordered(
                &pool,
                4,
                numbers(5, Some("broken")),
                |_, &i| i,
                |i, _| {
                    seen.push(i);
                    ControlFlow::Continue(())
                },
            );
            assert!(matches!(result, Err(PipelineError::Source("broken"))));
            assert_eq!(seen, [0, 1, 2, 3, 4], "{threads} threads");
        }
    }

    #[test]
    fn the_sink_can_stop_an_endless_source() {
        for threads in [1, 2] {
            let pool = counters(threads);
            let mut seen = Vec::new();
            let endless = numbers(usize::MAX, None);
            let work = |count: &mut usize, &i: &usize| {
                *count += 1;
                i
            };
            let result = run_ordered(&pool, 8, endless, work, |i, _| {
                seen.push(i);
                if i == 99 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert!(result.is_ok());
            assert_eq!(seen, (0..100).collect::<Vec<_>>(), "{threads} threads");
            // The window bounds what was read ahead of the sink.
            let worked: usize = pool.into_states().into_iter().sum();
            assert!(worked <= 100 + 8, "{worked} items worked on");
        }
    }
}
