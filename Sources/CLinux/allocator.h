#ifndef HOORAY_CLINUX_ALLOCATOR_H
#define HOORAY_CLINUX_ALLOCATOR_H
// glibc's allocator controls (malloc.h), for hoorayd's memory after a burst of work.
#include <malloc.h>

static const int hooray_M_ARENA_MAX = M_ARENA_MAX;
static const int hooray_M_MMAP_THRESHOLD = M_MMAP_THRESHOLD;
static const int hooray_M_TRIM_THRESHOLD = M_TRIM_THRESHOLD;
#endif
