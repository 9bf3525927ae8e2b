#include <pto/runtime/sync.hpp>

#include <pto/runtime/memory.hpp>

#include <mutex>

namespace pto::runtime {

namespace {
std::mutex g_mutex;
std::vector<SyncRecord>& log()
{
    static std::vector<SyncRecord> records;
    return records;
}
}  // namespace

void record_sync(SyncKind kind, int32_t src_pipe, int32_t dst_pipe, int32_t event_id)
{
    std::lock_guard lock(g_mutex);
    log().push_back({kind, src_pipe, dst_pipe, event_id, block_idx()});
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
