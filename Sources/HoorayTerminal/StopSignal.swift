import Glibc

/// Stops the process from inside a SIGTSTP handler, as Ctrl-Z would have without one, and returns
/// once it is continued (`fg`). The caller has put the terminal back first; afterwards it takes the
/// handler (and its terminal state) again. Async-signal-safe calls only.
public func stopFromHandler() {
    _ = signal(SIGTSTP, SIG_DFL)
    var stop = sigset_t()
    sigemptyset(&stop)
    sigaddset(&stop, SIGTSTP)
    // SIGTSTP is blocked while its handler runs: unblock it so that raising it stops the process here.
    _ = pthread_sigmask(SIG_UNBLOCK, &stop, nil)
    _ = raise(SIGTSTP)
    // Continued.
    _ = pthread_sigmask(SIG_BLOCK, &stop, nil)
}

/// Installs `handler` for SIGTSTP again, after ``stopFromHandler()``.
public func handleStopAgain(with handler: @convention(c) (Int32) -> Void, flags: Int32) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    action.sa_flags = flags
    _ = sigaction(SIGTSTP, &action, nil)
}
