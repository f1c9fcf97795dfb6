// hooray-sandbox: the small program hoorayd starts around each external plugin.
//
//   hooray-sandbox outer PARENT-PID BWRAP ARGUMENT...
//       As hoorayd's direct child: dies with hoorayd (PR_SET_PDEATHSIG, which bwrap keeps across
//       exec since Debian's bwrap is not setuid), puts signals back to their defaults, and runs
//       bwrap with the arguments hoorayd built.
//
//   hooray-sandbox inner [--memory BYTES] [--processes N] [--files N] [--keep-descriptors] -- PROGRAM ...
//       Inside bwrap, just before the plugin: its limits (address space, processes, open files,
//       no core files), PR_SET_NO_NEW_PRIVS, Landlock's scoping of abstract unix sockets and signals
//       where the kernel has it (ABI 6 and later), every descriptor but 0, 1 and 2 closed (unless
//       --keep-descriptors: without bubblewrap, hoorayd's Foundation watches for the program's end
//       through a socket it inherits), then the plugin's program.
//
// The kernel does not hold root of the first user namespace to RLIMIT_NPROC; inside bwrap's own user
// namespace it does, which is why the process limit is set here and not by hoorayd.
//
// Exit statuses of its own: 125 when the sandbox cannot be set up, 126 when the program cannot be
// run, 127 when it is not there; each with a line on standard error saying why.
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

// Landlock's ruleset attributes as of ABI 6 (Linux 6.12), which older headers lack.
struct hooray_landlock_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};
#define HOORAY_LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#define HOORAY_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define HOORAY_LANDLOCK_SCOPE_SIGNAL (1ULL << 1)

static int fail(int status, const char *what, const char *detail) {
    fprintf(stderr, "hooray-sandbox: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return status;
}

/// Every descriptor above 2, closed: what the host had open is none of the plugin's business.
static void close_inherited(void) {
    if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
    long most = sysconf(_SC_OPEN_MAX);
    if (most < 0 || most > 1 << 20) most = 1 << 20;
    for (long fd = 3; fd < most; fd++) close((int)fd);
}

static int outer(int argc, char **argv) {
    if (argc < 4) return fail(125, "usage: hooray-sandbox outer PARENT-PID BWRAP ARGUMENT...", NULL);
    char *end = NULL;
    long parent = strtol(argv[2], &end, 10);
    if (!end || *end != '\0' || parent <= 0) return fail(125, "not a process id", argv[2]);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return fail(125, "cannot set the parent-death signal", strerror(errno));
    // hoorayd may have died before the signal was armed: then nothing would ever send it.
    if (getppid() != (pid_t)parent) return fail(125, "hoorayd is gone", NULL);
    // What it inherited stays open for bubblewrap, which shows none of it to the plugin (inner closes
    // all but 0, 1 and 2): Foundation's Process, in hoorayd, sees the program end when the socket it
    // handed down closes, and closed here it would wait for bubblewrap's exit in a blocking waitpid.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    for (int number = 1; number < NSIG; number++) {
        if (number != SIGKILL && number != SIGSTOP) signal(number, SIG_DFL);
    }
    execv(argv[3], argv + 3);
    return fail(errno == ENOENT ? 127 : 126, "cannot run bubblewrap", strerror(errno));
}

static int parse_count(const char *text, rlim_t *value) {
    char *end = NULL;
    errno = 0;
    unsigned long long number = strtoull(text, &end, 10);
    if (errno || !end || *end != '\0' || text[0] == '-' || text[0] == '\0') return -1;
    *value = (rlim_t)number;
    return 0;
}

static int limit(int resource, rlim_t value, const char *name) {
    struct rlimit limits = {value, value};
    if (setrlimit(resource, &limits) != 0) {
        char detail[160];
        snprintf(detail, sizeof detail, "%s: %s", name, strerror(errno));
        return fail(125, "cannot set a limit", detail);
    }
    return 0;
}

/// Scopes abstract unix sockets and signals to the sandbox, where the kernel can (Landlock ABI 6):
/// with the network shared, a session bus listening on an abstract socket would otherwise be in
/// reach. An older kernel leaves it to the namespaces.
static int scope_with_landlock(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, HOORAY_LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 6) return 0;
    struct hooray_landlock_ruleset_attr attributes = {
        .handled_access_fs = 0,
        .handled_access_net = 0,
        .scoped = HOORAY_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | HOORAY_LANDLOCK_SCOPE_SIGNAL,
    };
    long ruleset = syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0);
    if (ruleset < 0) return fail(125, "cannot create a Landlock ruleset", strerror(errno));
    long done = syscall(SYS_landlock_restrict_self, (int)ruleset, 0);
    int code = errno;
    close((int)ruleset);
    if (done != 0) return fail(125, "cannot restrict itself with Landlock", strerror(code));
    return 0;
}

static int inner(int argc, char **argv) {
    rlim_t memory = RLIM_INFINITY, processes = RLIM_INFINITY, files = RLIM_INFINITY;
    int keep = 0;
    int index = 2;
    for (; index < argc; index++) {
        if (strcmp(argv[index], "--") == 0) {
            index++;
            break;
        }
        if (strcmp(argv[index], "--keep-descriptors") == 0) {
            keep = 1;
            continue;
        }
        rlim_t *target = NULL;
        if (strcmp(argv[index], "--memory") == 0) target = &memory;
        if (strcmp(argv[index], "--processes") == 0) target = &processes;
        if (strcmp(argv[index], "--files") == 0) target = &files;
        if (!target || index + 1 >= argc || parse_count(argv[index + 1], target) != 0) {
            return fail(125, "not an option of hooray-sandbox inner", argv[index]);
        }
        index++;
    }
    if (index >= argc) return fail(125, "usage: hooray-sandbox inner [OPTIONS] -- PROGRAM ARGUMENT...", NULL);
    int status = 0;
    if ((status = limit(RLIMIT_CORE, 0, "core files"))) return status;
    if (memory != RLIM_INFINITY && (status = limit(RLIMIT_AS, memory, "memory"))) return status;
    if (processes != RLIM_INFINITY && (status = limit(RLIMIT_NPROC, processes, "processes"))) return status;
    if (files != RLIM_INFINITY && (status = limit(RLIMIT_NOFILE, files, "open files"))) return status;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return fail(125, "cannot set no_new_privs", strerror(errno));
    if ((status = scope_with_landlock())) return status;
    if (!keep) close_inherited();
    // bubblewrap's --chdir sets PWD; the plugin's environment is the host's fixed list and no more.
    unsetenv("PWD");
    execv(argv[index], argv + index);
    int code = errno;
    char detail[4200];
    snprintf(detail, sizeof detail, "%s: %s", argv[index], strerror(code));
    return fail(code == ENOENT ? 127 : 126, "cannot run the plugin's program", detail);
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "outer") == 0) return outer(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "inner") == 0) return inner(argc, argv);
    return fail(125, "usage: hooray-sandbox outer PARENT-PID BWRAP ARGUMENT... | inner [OPTIONS] -- PROGRAM ARGUMENT...",
                NULL);
}
