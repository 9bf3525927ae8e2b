#include "asm/interpreter/pointer_access.hpp"

#include <pto/profile/profile.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <string>

namespace pto::as::interp {

MemoryWindow window_of(pto::TileType memory) { return {runtime::memory_base(memory), runtime::memory_size(memory), true}; }

std::byte* on_chip_address_slow(Frame& f, pto::TileType memory, int64_t at, int64_t bytes, const char* operand)
{
    MemoryWindow& window = f.memories[static_cast<std::size_t>(memory)];
    if (!window.known) window = window_of(memory);
    return inside(memory, window, at, bytes, operand);
}

std::byte* address(const PointerInfo& p, const Slot& s, int64_t bytes, const char* operand)
{
    if (!p.memory) {
        std::byte* at = s.view.data;
        const int64_t have = runtime::global_bytes_after(at);
        if (have < 0 || bytes > have)
            runtime::fail({"RUN_POINTER_RANGE", "", operand, "the access leaves the global allocation",
                           have < 0 ? "an address inside an allocation" : "at most " + std::to_string(have) + " bytes",
                           std::to_string(bytes) + " bytes", ""});
        return at;
    }
    return inside(*p.memory, window_of(*p.memory), s.i, bytes, operand);
}

void advance(const PointerInfo& p, Slot& s, int64_t count, int64_t bytes)
{
    if (p.memory) {
        s.i = moved(s.i, count, bytes);
        return;
    }
    const __int128 at = __int128(reinterpret_cast<uintptr_t>(s.view.data)) + __int128(count) * bytes;
    const bool representable = at >= 0 && at <= __int128(UINTPTR_MAX);
    s.view.data = representable ? reinterpret_cast<std::byte*>(uintptr_t(at)) : nullptr;
}

void require_aligned(const PointerInfo& p, const Slot& s, int64_t alignment, const char* operand, const char* why)
{
    require_aligned(p.memory ? s.i : int64_t(reinterpret_cast<uintptr_t>(s.view.data)), alignment, operand, why);
}

void require_aligned(int64_t at, int64_t alignment, const char* operand, const char* why)
{
    if (at % alignment != 0) misaligned(at, alignment, operand, why);
}

}  // namespace pto::as::interp
