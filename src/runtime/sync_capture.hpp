// The synchronisation records of one block of a launch, kept apart while it runs: blocks run at once
// on several threads, and the launch appends each block's records to the log in block order, so that
// the log reads as a serial run's whatever the thread count.
#pragma once

#include <vector>

#include <pto/runtime/sync.hpp>

namespace pto::runtime {

// While it lives, the calling thread's records go to `into` instead of the log.
class SyncCapture {
public:
    explicit SyncCapture(std::vector<SyncRecord>& into);
    ~SyncCapture();
    SyncCapture(const SyncCapture&) = delete;
    SyncCapture& operator=(const SyncCapture&) = delete;

private:
    std::vector<SyncRecord>* previous_;
};

// Appends `records` where the calling thread's own records go now: the capture of the block it runs
// (a launch nested in a block), else the log.
void append_sync_records(const std::vector<SyncRecord>& records);

}  // namespace pto::runtime
