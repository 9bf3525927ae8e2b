// TPREFETCH_ASYNC: the checks of an L2 prefetch of a global tensor, and its handle.
#include <pto/engine/ops/data_movement.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <atomic>
#include <string>

#include "engine/data_movement/global_view.hpp"
#include "runtime/call_site.hpp"

namespace pto::engine {

uint64_t tprefetch_async(const GlobalDesc& src)
{
    PTO_NOTE_CALL_SITE();
    runtime::InstructionScope scope("TPREFETCH_ASYNC");
    data_movement::check_global_dims(src, "src");
    // The SDMA prefetch takes one flat range: every dimension that has more than one element is packed
    // against the next one.
    int64_t packed = 1;
    for (int d = 4; d >= 0; --d) {
        if (src.shape[d] > 1 && src.stride[d] != packed)
            runtime::fail({"RUN_PREFETCH_LAYOUT", "TPREFETCH_ASYNC", "src",
                           "the prefetched tensor is one contiguous range: dimension " + std::to_string(d) + " is not packed",
                           "stride " + std::to_string(packed), std::to_string(src.stride[d]), ""});
        packed *= src.shape[d];
    }
    const int64_t last[5] = {src.shape[0] - 1, src.shape[1] - 1, src.shape[2] - 1, src.shape[3] - 1, src.shape[4] - 1};
    data_movement::check_global_reach(src, last, 1, "src");
    static std::atomic<uint64_t> issued{0};
    return ++issued;
}

}  // namespace pto::engine
