#ifndef HOORAY_CDEFLATE_SHIM_H
#define HOORAY_CDEFLATE_SHIM_H
// zlib's one-shot deflate and inflate, for the configuration files hoorayd keeps as they were
// loaded (Sources/HoorayConfig/KeptFiles.swift). ZIPFoundation links the same library.
#include <zlib.h>
#endif
