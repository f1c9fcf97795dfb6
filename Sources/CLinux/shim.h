#ifndef HOORAY_CLINUX_SHIM_H
#define HOORAY_CLINUX_SHIM_H
// Linux interfaces that Swift's Glibc module does not export.
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <time.h>

static const int hooray_TFD_TIMER_CANCEL_ON_SET = TFD_TIMER_CANCEL_ON_SET;
#endif
