#include "asm/interpreter/pointer_access.hpp"

#include <pto/profile/profile.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <string>

namespace pto::as::interp {

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
    const uint64_t size = runtime::memory_size(*p.memory);
    if (s.i < 0 || bytes < 0 || uint64_t(s.i) + uint64_t(bytes) > size)
        runtime::fail({"RUN_POINTER_RANGE", "", operand, "the access leaves " + std::string(profile::memory_name(*p.memory)),
                       "bytes [0, " + std::to_string(size) + ")",
                       "[" + std::to_string(s.i) + ", " + std::to_string(s.i + bytes) + ")", ""});
    return runtime::memory_base(*p.memory) + s.i;
}

void advance(const PointerInfo& p, Slot& s, int64_t count, int64_t bytes)
{
    int64_t delta = 0;
    if (p.memory) {
        if (__builtin_mul_overflow(count, bytes, &delta) || __builtin_add_overflow(s.i, delta, &s.i)) s.i = -1;
        return;
    }
    const __int128 at = __int128(reinterpret_cast<uintptr_t>(s.view.data)) + __int128(count) * bytes;
    const bool representable = at >= 0 && at <= __int128(UINTPTR_MAX);
    s.view.data = representable ? reinterpret_cast<std::byte*>(uintptr_t(at)) : nullptr;
}

void require_aligned(const PointerInfo& p, const Slot& s, int64_t alignment, const char* operand, const char* why)
{
    const int64_t at = p.memory ? s.i : int64_t(reinterpret_cast<uintptr_t>(s.view.data));
    if (at % alignment != 0)
        runtime::fail({"RUN_POINTER_ALIGN", "", operand, why,
                       "a multiple of " + std::to_string(alignment), std::to_string(at), ""});
}

}  // namespace pto::as::interp
