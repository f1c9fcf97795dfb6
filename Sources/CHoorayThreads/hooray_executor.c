// See include/hooray_executor.h. One mutex guards a pool: a FIFO of ready work, a min-heap of
// delayed work, and the thread counts. Workers wait on `ready` with no timeout; the timer thread
// waits on `timer` until the nearest deadline, or with no timeout when nothing is delayed. Nothing
// here ever wakes on its own while the pool has nothing to do.
#define _GNU_SOURCE
#include "hooray_executor.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

// How long all workers may be busy, with work waiting and none finished, before the pool adds a
// worker: work that blocks its thread waiting for other work (a semaphore, a condition) must not
// stall the process, and 2 cores run only so many threads anyway.
#define HOORAY_STALL_NS (50 * 1000 * 1000ull)

typedef struct hooray_item {
    hooray_work_function work;
    void *context;
    uint64_t deadline;  // CLOCK_MONOTONIC ns; delayed items only
    uint64_t order;     // submission order, so that equal deadlines run first come, first served
    struct hooray_item *next;
} hooray_item;

struct hooray_pool {
    pthread_mutex_t lock;
    pthread_cond_t ready;  // workers wait here for work
    pthread_cond_t timer;  // the timer thread waits here, until a CLOCK_MONOTONIC deadline
    hooray_item *head, *tail;
    hooray_item **heap;  // delayed work, earliest deadline first
    size_t delayed, capacity;
    // `idle` counts workers waiting for work and not yet called: a worker is called (idle - 1,
    // calls + 1) by whoever gives it work, so that work queued while the called worker has not yet
    // woken is seen as waiting for a busy pool, and watched.
    unsigned threads, idle, calls, base, max;
    uint64_t finished, order;
    bool watching;  // the timer thread is checking for a stall
    char name[12];
};

uint64_t hooray_monotonic_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

static void fail(const char *what) {
    fprintf(stderr, "hooray executor: %s: %s\n", what, strerror(errno));
    abort();
}

static hooray_item *make_item(hooray_work_function work, void *context) {
    hooray_item *item = malloc(sizeof *item);
    if (!item) fail("out of memory");
    item->work = work;
    item->context = context;
    item->next = NULL;
    return item;
}

static bool earlier(const hooray_item *a, const hooray_item *b) {
    return a->deadline != b->deadline ? a->deadline < b->deadline : a->order < b->order;
}

static void heap_push(hooray_pool *pool, hooray_item *item) {
    if (pool->delayed == pool->capacity) {
        pool->capacity = pool->capacity ? pool->capacity * 2 : 16;
        pool->heap = realloc(pool->heap, pool->capacity * sizeof *pool->heap);
        if (!pool->heap) fail("out of memory");
    }
    size_t at = pool->delayed++;
    while (at > 0 && earlier(item, pool->heap[(at - 1) / 2])) {
        pool->heap[at] = pool->heap[(at - 1) / 2];
        at = (at - 1) / 2;
    }
    pool->heap[at] = item;
}

// Takes the item at `at` out of the heap and restores its order.
static hooray_item *heap_remove(hooray_pool *pool, size_t at) {
    hooray_item *removed = pool->heap[at];
    hooray_item *last = pool->heap[--pool->delayed];
    if (at == pool->delayed) return removed;
    // `last` goes where the removed item was: up while earlier than its parent, else down.
    while (at > 0 && earlier(last, pool->heap[(at - 1) / 2])) {
        pool->heap[at] = pool->heap[(at - 1) / 2];
        at = (at - 1) / 2;
    }
    for (;;) {
        size_t child = 2 * at + 1;
        if (child >= pool->delayed) break;
        if (child + 1 < pool->delayed && earlier(pool->heap[child + 1], pool->heap[child])) child++;
        if (!earlier(pool->heap[child], last)) break;
        pool->heap[at] = pool->heap[child];
        at = child;
    }
    pool->heap[at] = last;
    return removed;
}

static hooray_item *heap_pop(hooray_pool *pool) { return heap_remove(pool, 0); }

static void start_thread(hooray_pool *pool, void *(*body)(void *), const char *suffix);
static bool try_start_thread(hooray_pool *pool, void *(*body)(void *), const char *suffix);

// With the lock held: queues ready work and finds a thread for it.
static void enqueue_ready(hooray_pool *pool, hooray_item *item) {
    if (pool->tail) pool->tail->next = item; else pool->head = item;
    pool->tail = item;
    if (pool->idle > 0) {
        pool->idle--;
        pool->calls++;
        pthread_cond_signal(&pool->ready);
    } else if (!pool->watching && pool->threads < pool->max) {
        // Every worker is busy: have the timer thread look again shortly, and only while this lasts.
        pool->watching = true;
        pthread_cond_signal(&pool->timer);
    }
}

static void *worker(void *argument) {
    hooray_pool *pool = argument;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->head) {
            // A worker added for a stall ends once there is nothing left to do.
            if (pool->threads > pool->base) {
                pool->threads--;
                pthread_mutex_unlock(&pool->lock);
                return NULL;
            }
            pool->idle++;
            // Spurious wake-ups are waited out: only a call takes a worker out of `idle`.
            do {
                pthread_cond_wait(&pool->ready, &pool->lock);
            } while (pool->calls == 0);
            pool->calls--;
        }
        hooray_item *item = pool->head;
        pool->head = item->next;
        if (!pool->head) pool->tail = NULL;
        pthread_mutex_unlock(&pool->lock);
        item->work(item->context);
        free(item);
        pthread_mutex_lock(&pool->lock);
        pool->finished++;
    }
}

static void *timer(void *argument) {
    hooray_pool *pool = argument;
    uint64_t finished_then = 0;
    bool had_look = false;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        uint64_t now = hooray_monotonic_now();
        while (pool->delayed > 0 && pool->heap[0]->deadline <= now) {
            enqueue_ready(pool, heap_pop(pool));
        }
        if (pool->watching) {
            if (!pool->head || pool->idle > 0 || pool->threads >= pool->max) {
                pool->watching = false;
                had_look = false;
            } else if (had_look && pool->finished == finished_then) {
                // Work has waited a whole period while no worker finished anything: add one.
                // A thread that cannot be started (a task limit, no memory) leaves the pool as it is;
                // the next look tries again. Only the pool's first threads are required.
                pool->threads++;
                if (!try_start_thread(pool, worker, "task")) pool->threads--;
                had_look = false;
            } else {
                had_look = true;
                finished_then = pool->finished;
            }
        }
        uint64_t wake = UINT64_MAX;
        if (pool->delayed > 0) wake = pool->heap[0]->deadline;
        if (pool->watching && now + HOORAY_STALL_NS < wake) wake = now + HOORAY_STALL_NS;
        if (wake == UINT64_MAX) {
            pthread_cond_wait(&pool->timer, &pool->lock);
        } else {
            // pthread_cond_clockwait names its clock itself. libfaketime, which the end-to-end
            // tests preload, wraps pthread_cond_timedwait and reads the deadline there as a faked
            // wall-clock instant: with a date in the past, every wait ended at once and this thread
            // spun a whole core.
            struct timespec until = {(time_t)(wake / 1000000000ull), (long)(wake % 1000000000ull)};
            pthread_cond_clockwait(&pool->timer, &pool->lock, CLOCK_MONOTONIC, &until);
        }
    }
}

static bool try_start_thread(hooray_pool *pool, void *(*body)(void *), const char *suffix) {
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    // The size Dispatch's workers get: Swift code runs on these threads.
    pthread_attr_setstacksize(&attributes, 8 * 1024 * 1024);
    pthread_t thread;
    int failed = pthread_create(&thread, &attributes, body, pool);
    pthread_attr_destroy(&attributes);
    if (failed != 0) return false;
    char name[16];
    snprintf(name, sizeof name, "%s-%s", pool->name, suffix);
    pthread_setname_np(thread, name);
    return true;
}

static void start_thread(hooray_pool *pool, void *(*body)(void *), const char *suffix) {
    if (!try_start_thread(pool, body, suffix)) fail("cannot start a thread");
}

hooray_pool *hooray_pool_create(unsigned threads, unsigned max_threads, const char *name) {
    hooray_pool *pool = calloc(1, sizeof *pool);
    if (!pool) fail("out of memory");
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->ready, NULL);
    pthread_cond_init(&pool->timer, NULL);
    pool->base = threads > 0 ? threads : 1;
    pool->max = max_threads > pool->base ? max_threads : pool->base;
    snprintf(pool->name, sizeof pool->name, "%s", name);
    pthread_mutex_lock(&pool->lock);
    start_thread(pool, timer, "timer");
    for (unsigned i = 0; i < pool->base; i++) {
        pool->threads++;
        start_thread(pool, worker, "task");
    }
    pthread_mutex_unlock(&pool->lock);
    return pool;
}

void hooray_pool_submit(hooray_pool *pool, hooray_work_function work, void *context) {
    hooray_item *item = make_item(work, context);
    pthread_mutex_lock(&pool->lock);
    enqueue_ready(pool, item);
    pthread_mutex_unlock(&pool->lock);
}

uint64_t hooray_pool_submit_at(hooray_pool *pool, uint64_t deadline, hooray_work_function work, void *context) {
    hooray_item *item = make_item(work, context);
    item->deadline = deadline;
    pthread_mutex_lock(&pool->lock);
    uint64_t order = item->order = ++pool->order;
    heap_push(pool, item);
    // Only a new earliest deadline changes what the timer thread waits for.
    if (pool->heap[0] == item) pthread_cond_signal(&pool->timer);
    pthread_mutex_unlock(&pool->lock);
    return order;
}

void *hooray_pool_cancel(hooray_pool *pool, uint64_t token) {
    void *context = NULL;
    pthread_mutex_lock(&pool->lock);
    for (size_t at = 0; at < pool->delayed; at++) {
        if (pool->heap[at]->order != token) continue;
        hooray_item *item = heap_remove(pool, at);
        context = item->context;
        free(item);
        // The timer thread waits for the earliest deadline: if that one went, it waits for the next
        // now, while the process is awake anyway, rather than waking for nothing later.
        if (at == 0) pthread_cond_signal(&pool->timer);
        break;
    }
    pthread_mutex_unlock(&pool->lock);
    return context;
}

unsigned hooray_pool_threads(hooray_pool *pool) {
    pthread_mutex_lock(&pool->lock);
    unsigned threads = pool->threads;
    pthread_mutex_unlock(&pool->lock);
    return threads;
}

unsigned hooray_pool_delayed(hooray_pool *pool) {
    pthread_mutex_lock(&pool->lock);
    unsigned delayed = (unsigned)pool->delayed;
    pthread_mutex_unlock(&pool->lock);
    return delayed;
}

// MARK: - Swift concurrency's hooks

// The runtime's types, as far as they are used here (swift/Runtime/ConcurrencyHooks.def and
// swift/ABI/Executor.h): a job is opaque; an executor reference is two words. The hooks and the
// runtime's entry points use the Swift calling convention.
#define SWIFT_CC __attribute__((swiftcall))
typedef struct SwiftJob SwiftJob;
typedef struct {
    const void *identity;
    uintptr_t implementation;
} SwiftExecutorRef;

SWIFT_CC void swift_job_run(SwiftJob *job, SwiftExecutorRef executor);

typedef SWIFT_CC void (*enqueue_original)(SwiftJob *);
typedef SWIFT_CC void (*enqueue_hook)(SwiftJob *, enqueue_original);
typedef SWIFT_CC void (*delay_original)(unsigned long long, SwiftJob *);
typedef SWIFT_CC void (*delay_hook)(unsigned long long, SwiftJob *, delay_original);
typedef SWIFT_CC void (*deadline_original)(long long, long long, long long, long long, int, SwiftJob *);
typedef SWIFT_CC void (*deadline_hook)(long long, long long, long long, long long, int, SwiftJob *, deadline_original);
typedef SWIFT_CC void (*drain_original)(void);
typedef SWIFT_CC void (*drain_override)(drain_original);
typedef SWIFT_CC void (*drain_hook)(drain_original, drain_override);

extern enqueue_hook swift_task_enqueueGlobal_hook;
extern delay_hook swift_task_enqueueGlobalWithDelay_hook;
extern deadline_hook swift_task_enqueueGlobalWithDeadline_hook;
extern drain_hook swift_task_asyncMainDrainQueue_hook;

static hooray_pool *global_pool;

static void run_global_job(void *job) {
    // A job of the global executor runs on the generic executor: {NULL, 0}.
    SwiftExecutorRef generic = {NULL, 0};
    swift_job_run(job, generic);
}

static SWIFT_CC void enqueue_global(SwiftJob *job, enqueue_original original) {
    (void)original;
    hooray_pool_submit(global_pool, run_global_job, job);
}

static SWIFT_CC void enqueue_with_delay(unsigned long long delay, SwiftJob *job, delay_original original) {
    (void)original;
    // Saturated: a sleep "for ever" must not wrap round to a deadline in the past.
    uint64_t now = hooray_monotonic_now();
    uint64_t deadline = delay > UINT64_MAX - now ? UINT64_MAX : now + delay;
    hooray_pool_submit_at(global_pool, deadline, run_global_job, job);
}

// The runtime's clock ids (swift/Runtime/Concurrency.h): Task.sleep's ContinuousClock and
// SuspendingClock. On Linux the first counts through suspend (CLOCK_BOOTTIME) and the second does
// not (CLOCK_MONOTONIC).
enum { swift_clock_continuous = 1, swift_clock_suspending = 2 };

static SWIFT_CC void enqueue_with_deadline(
    long long sec, long long nsec, long long tsec, long long tnsec, int clock, SwiftJob *job,
    deadline_original original) {
    (void)tsec, (void)tnsec, (void)original;
    // The deadline is an instant of `clock`; the pool waits on CLOCK_MONOTONIC, so it is turned into
    // the time left from now. A sleep across a suspend of the machine ends that much later.
    struct timespec now;
    clock_gettime(clock == swift_clock_continuous ? CLOCK_BOOTTIME : CLOCK_MONOTONIC, &now);
    // Saturated: a deadline centuries away must neither overflow nor wrap round to the past.
    long long seconds_left = sec - (long long)now.tv_sec;
    uint64_t left;
    if (seconds_left < 0) {
        left = 0;
    } else if (seconds_left >= (long long)(UINT64_MAX / 1000000000ull) - 1) {
        left = UINT64_MAX;
    } else {
        long long total = seconds_left * 1000000000ll + (nsec - (long long)now.tv_nsec);
        left = total > 0 ? (uint64_t)total : 0;
    }
    uint64_t start = hooray_monotonic_now();
    uint64_t deadline = left > UINT64_MAX - start ? UINT64_MAX : start + left;
    hooray_pool_submit_at(global_pool, deadline, run_global_job, job);
}

// The main actor's jobs go to Dispatch's main queue whatever the hooks say (MainActor.executor
// enqueues there directly). Dispatch drains that queue on a worker thread after dispatch_main(),
// which would start its monitor; a run loop drains it on the main thread instead, through the
// interface Dispatch offers CoreFoundation: an eventfd that becomes readable when the queue has
// work, and a call that runs what is queued.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

void hooray_executor_run_main(void) {
    int handle = _dispatch_get_main_queue_handle_4CF();
    for (;;) {
        struct pollfd ready = {.fd = handle, .events = POLLIN};
        if (poll(&ready, 1, -1) < 0) {
            if (errno == EINTR) continue;
            fail("cannot wait for the main queue");
        }
        // Cleared before the queue is drained, so that work queued meanwhile makes it readable again.
        uint64_t count;
        while (read(handle, &count, sizeof count) < 0 && errno == EINTR) {}
        _dispatch_main_queue_callback_4CF(NULL);
    }
}

static SWIFT_CC void drain_main(drain_original original, drain_override override) {
    (void)original, (void)override;
    hooray_executor_run_main();
}

bool hooray_executor_install(unsigned threads, unsigned max_threads) {
    if (global_pool || swift_task_enqueueGlobal_hook || swift_task_enqueueGlobalWithDelay_hook
        || swift_task_enqueueGlobalWithDeadline_hook || swift_task_asyncMainDrainQueue_hook)
        return false;
    global_pool = hooray_pool_create(threads, max_threads, "hooray");
    swift_task_enqueueGlobal_hook = enqueue_global;
    swift_task_enqueueGlobalWithDelay_hook = enqueue_with_delay;
    swift_task_enqueueGlobalWithDeadline_hook = enqueue_with_deadline;
    swift_task_asyncMainDrainQueue_hook = drain_main;
    return true;
}

hooray_pool *hooray_executor_pool(void) { return global_pool; }
