// The synchronisation log: every set_flag / wait_flag / pipe_barrier / event record and wait a kernel
// issues, in program order, per core. A sequential CPU needs none of them to be correct; the log is
// what a synchronisation checker reads.
#pragma once

#include <cstdint>
#include <vector>

namespace pto::runtime {

enum class SyncKind : uint8_t { SetFlag, WaitFlag, PipeBarrier, EventRecord, EventWait, Tsync };

struct SyncRecord {
    SyncKind kind;
    int32_t src_pipe;  // pipe_t value, or -1
    int32_t dst_pipe;  // pipe_t value, or -1
    int32_t event_id;  // event_t value, or the Op of an event, or -1
    uint32_t block;    // block index of the core that issued it
};

void record_sync(SyncKind kind, int32_t src_pipe, int32_t dst_pipe, int32_t event_id);
std::vector<SyncRecord> sync_log();
void clear_sync_log();

}  // namespace pto::runtime
