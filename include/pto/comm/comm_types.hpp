// The asynchronous-DMA handles of the public communication API that tile instructions return:
// DmaEngine, AsyncSession and AsyncEvent (TPREFETCH_ASYNC's result). A CPU run completes every transfer
// when it is issued, so waiting always succeeds at once.
#pragma once

#include <cstdint>

namespace pto::comm {

enum class DmaEngine : uint8_t {
    SDMA = 0,  // 2-D transfers
    URMA = 1,  // 1-D transfers
    RDMA = 2,
};

// The engine-side state a transfer is issued and waited through.
struct AsyncSession {
    DmaEngine engine{DmaEngine::SDMA};
    bool valid{false};
    uint8_t* contextGm{nullptr};
    uint8_t* tmpBufAddr{nullptr};
    uint32_t tmpBufSize{0};
    uint32_t syncId{0};
    uint32_t queueNum{1};
};

// A transfer in flight: a nonzero handle names it.
struct AsyncEvent {
    uint64_t handle{0};
    DmaEngine engine{DmaEngine::SDMA};

    constexpr AsyncEvent() = default;
    constexpr AsyncEvent(uint64_t h, DmaEngine e) : handle(h), engine(e) {}
    constexpr bool valid() const { return handle != 0; }

    // The transfer has completed (true): on the CPU it completed when it was issued.
    bool Wait(const AsyncSession&) const { return true; }
    bool Test(const AsyncSession&) const { return true; }
};

}  // namespace pto::comm
