#ifndef HOORAY_CLINUX_SHIM_H
#define HOORAY_CLINUX_SHIM_H
// Linux interfaces that Swift's Glibc module does not export.
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sched.h>

static const int hooray_TFD_TIMER_CANCEL_ON_SET = TFD_TIMER_CANCEL_ON_SET;

// Keeps this process's memory out of core dumps and away from ptrace by other processes of the
// user, for a process holding a secret (prctl is variadic, which Swift cannot call). Returns 0 on success.
static inline int hooray_forbid_core_dumps(void) {
    struct rlimit none = {0, 0};
    int limited = setrlimit(RLIMIT_CORE, &none);
    int undumpable = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    return limited == 0 && undumpable == 0 ? 0 : -1;
}

// Lets the calling thread run only when no other thread wants the processor (SCHED_IDLE, Linux's:
// the scheduling policy is per thread there; glibc names it under _GNU_SOURCE only). For work that
// may wait, such as deflating kept files, so that it never slows a start. Returns 0 on success.
static inline int hooray_run_this_thread_when_idle(void) {
#ifdef SCHED_IDLE
    int policy = SCHED_IDLE;
#else
    int policy = 5;
#endif
    struct sched_param param = {0};
    return sched_setscheduler(0, policy, &param);
}
#endif
