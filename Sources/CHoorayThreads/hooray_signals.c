#define _GNU_SOURCE
#include "hooray_signals.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static int write_end = -1;

static void relay(int signal) {
    // Only async-signal-safe calls here; errno belongs to the interrupted code.
    int saved = errno;
    unsigned char number = (unsigned char)signal;
    (void)!write(write_end, &number, 1);
    errno = saved;
}

int hooray_signal_pipe(const int *signals, int count) {
    int ends[2];
    // Non-blocking writes: a handler must never block, even if nobody reads for a while.
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    int flags = fcntl(ends[1], F_GETFL);
    fcntl(ends[1], F_SETFL, flags | O_NONBLOCK);
    write_end = ends[1];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = relay;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < count; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) return -1;
    }
    return ends[0];
}
