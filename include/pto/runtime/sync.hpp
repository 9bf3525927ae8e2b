// The synchronisation log: every set_flag / wait_flag / pipe_barrier / event record and wait a kernel
// issues, in program order, per core. A sequential CPU needs none of them to be correct; in checked
// mode each one is also an edge of the run-time synchronisation check (src/runtime/order_checker.hpp).
#pragma once

#include <cstdint>
#include <vector>

namespace pto::runtime {

enum class SyncKind : uint8_t { SetFlag, WaitFlag, PipeBarrier, EventRecord, EventWait, Tsync };

struct SyncRecord {
    SyncKind kind;
    int32_t src_pipe;  // pipe_t value (an event's: its producer's pipe), or -1
    int32_t dst_pipe;  // pipe_t value (an event's: its consumer's pipe), or -1
    int32_t event_id;  // event_t value, or the Op of a C++ Event, or -1
    uint32_t block;    // block index of the core that issued it
    const void* event_object = nullptr;  // the C++ Event recorded or waited (each one is a flag of its own)
};

void record_sync(SyncKind kind, int32_t src_pipe, int32_t dst_pipe, int32_t event_id, const void* event_object = nullptr);
std::vector<SyncRecord> sync_log();
void clear_sync_log();

}  // namespace pto::runtime
