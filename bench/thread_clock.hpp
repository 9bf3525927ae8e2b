// CPU time of the calling thread. The benchmarks that compare two single-threaded phases measured one
// after the other use it instead of wall time, so that a phase is not charged for the time the thread
// spent descheduled while other processes (builds) shared the cores.
#pragma once

#include <ctime>

inline double thread_seconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}
