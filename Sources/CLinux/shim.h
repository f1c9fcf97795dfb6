#ifndef HOORAY_CLINUX_SHIM_H
#define HOORAY_CLINUX_SHIM_H
// Linux interfaces that Swift's Glibc module does not export.
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>

static const int hooray_TFD_TIMER_CANCEL_ON_SET = TFD_TIMER_CANCEL_ON_SET;

// Keeps this process's memory out of core dumps and away from ptrace by other processes of the
// user, for a process holding a secret (prctl is variadic, which Swift cannot call). Returns 0 on success.
static inline int hooray_forbid_core_dumps(void) {
    struct rlimit none = {0, 0};
    int limited = setrlimit(RLIMIT_CORE, &none);
    int undumpable = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    return limited == 0 && undumpable == 0 ? 0 : -1;
}
#endif
