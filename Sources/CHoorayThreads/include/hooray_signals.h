#ifndef HOORAY_SIGNALS_H
#define HOORAY_SIGNALS_H
// Signals as bytes on a pipe, for a thread that blocks in read(2): no Dispatch source, no timer.

#ifdef __cplusplus
extern "C" {
#endif

/// Installs a handler (SA_RESTART) for each of `signals` that writes the signal's number, as one
/// byte, to a pipe, and returns the pipe's read end (close-on-exec), or -1 with errno set. Children
/// started later get the default actions back when they exec. Call it once per process.
int hooray_signal_pipe(const int *_Nonnull signals, int count);

#ifdef __cplusplus
}
#endif
#endif
