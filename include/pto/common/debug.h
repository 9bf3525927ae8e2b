// Kernel assertions of the public library. PTO_ASSERT checks only in _DEBUG builds, as there; a failed
// check prints where and aborts.
#pragma once

#include <cstdio>
#include <cstdlib>

#define DEBUG_CHECK(condition, message)                                                                \
    do {                                                                                               \
        if (!(condition)) {                                                                            \
            std::fprintf(stderr, "ptosim: assertion failed: %s (%s) at %s:%d\n", (message), #condition, \
                         __FILE__, __LINE__);                                                          \
            std::abort();                                                                              \
        }                                                                                              \
    } while (0)

#ifdef _DEBUG
#define PTO_ASSERT(condition, message) DEBUG_CHECK(condition, message)
#else
#define PTO_ASSERT(condition, message) ((void)0)
#endif
