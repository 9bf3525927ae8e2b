#include <pto/runtime/sync.hpp>

#include <pto/runtime/memory.hpp>

#include "runtime/adversarial_schedule.hpp"
#include "runtime/call_site.hpp"
#include "runtime/order_checker.hpp"
#include "runtime/sync_capture.hpp"

#include <mutex>

namespace pto::runtime {

namespace {
std::mutex g_mutex;
std::vector<SyncRecord>& log()
{
    static std::vector<SyncRecord> records;
    return records;
}
thread_local std::vector<SyncRecord>* t_capture = nullptr;  // the running block's records (SyncCapture)
}  // namespace

void record_sync(SyncKind kind, int32_t src_pipe, int32_t dst_pipe, int32_t event_id, const void* event_object)
{
    PTO_NOTE_CALL_SITE();
    const SyncRecord record{kind, src_pipe, dst_pipe, event_id, block_idx(), event_object};
    if (t_capture) {
        t_capture->push_back(record);
    } else {
        std::lock_guard lock(g_mutex);
        log().push_back(record);
    }
    order::note_sync(record);
    adversary::note_sync(record);
}

SyncCapture::SyncCapture(std::vector<SyncRecord>& into) : previous_(t_capture) { t_capture = &into; }
SyncCapture::~SyncCapture() { t_capture = previous_; }

void append_sync_records(const std::vector<SyncRecord>& records)
{
    if (t_capture) {
        t_capture->insert(t_capture->end(), records.begin(), records.end());
        return;
    }
    std::lock_guard lock(g_mutex);
    log().insert(log().end(), records.begin(), records.end());
}

std::vector<SyncRecord> sync_log()
{
    std::lock_guard lock(g_mutex);
    return log();
}

void clear_sync_log()
{
    std::lock_guard lock(g_mutex);
    log().clear();
}

}  // namespace pto::runtime
