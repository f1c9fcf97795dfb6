#ifndef HOORAY_EXECUTOR_H
#define HOORAY_EXECUTOR_H
// A small thread pool that can serve as Swift concurrency's global executor, so that a process
// that waits for hours does not wake at all: idle threads wait on a condition variable with no
// timeout, and delayed work is served by one timed wait on the nearest deadline.
//
// libdispatch, Swift concurrency's default executor on Linux, starts a 1 Hz workqueue monitor the
// first time one of its worker threads runs, and never stops it. hoorayd installs this pool instead
// (hooray_executor_install) and never hands work to Dispatch's worker pool.

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Work for a pool: a function and its argument.
typedef void (*hooray_work_function)(void *_Nullable context);

/// A pool of worker threads and one timer thread.
typedef struct hooray_pool hooray_pool;

/// Makes a pool with `threads` workers (at least 1). When every worker has been busy for a while
/// with work waiting, the pool adds workers, up to `max_threads`, so that work that blocks a thread
/// until other work has run cannot stall it; those extra workers end when the queue is empty.
/// Pools live as long as the process.
hooray_pool *_Nonnull hooray_pool_create(unsigned threads, unsigned max_threads, const char *_Nonnull name);

/// Runs `work(context)` on a worker thread, after the work already queued.
void hooray_pool_submit(hooray_pool *_Nonnull pool, hooray_work_function _Nonnull work, void *_Nullable context);

/// Runs `work(context)` on a worker thread once CLOCK_MONOTONIC reaches `deadline` (nanoseconds);
/// work with the same deadline runs in the order it was submitted. Returns a token for
/// hooray_pool_cancel (never 0).
uint64_t hooray_pool_submit_at(
    hooray_pool *_Nonnull pool, uint64_t deadline, hooray_work_function _Nonnull work, void *_Nullable context);

/// Takes delayed work out of the pool before its deadline, so that the timer thread does not wake
/// for it. Returns its context, for the caller to release, or NULL when it is not waiting any more
/// (it runs or ran).
void *_Nullable hooray_pool_cancel(hooray_pool *_Nonnull pool, uint64_t token);

/// Nanoseconds of CLOCK_MONOTONIC.
uint64_t hooray_monotonic_now(void);

/// How many worker threads the pool has now.
unsigned hooray_pool_threads(hooray_pool *_Nonnull pool);

/// How much delayed work waits for its deadline.
unsigned hooray_pool_delayed(hooray_pool *_Nonnull pool);

/// Makes a pool the global executor of Swift concurrency (jobs, delayed jobs, and jobs for the
/// main actor, which run on the thread that calls hooray_executor_run_main) through the runtime's
/// hooks. Call it once, before the first task is created. Returns false when the hooks are taken.
bool hooray_executor_install(unsigned threads, unsigned max_threads);

/// Runs the main actor's jobs on the calling thread (the process's main thread) forever.
_Noreturn void hooray_executor_run_main(void);

/// The pool hooray_executor_install made, or NULL when it was not called (or failed).
hooray_pool *_Nullable hooray_executor_pool(void);

#ifdef __cplusplus
}
#endif
#endif
