// The strided byte copies of the data-movement micro-instructions (pto.mte_gm_l1, mte_l1_ub, mte_ub_l1,
// mte_l1_bt, mte_l1_fb, and the vector core's mte_gm_ub, mte_ub_gm, mte_ub_ub).
#include <pto/engine/ops/cube.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace pto::engine::cube {

namespace {

// RUN_UNINIT_READ when a byte of [p, p + n) was never written (checked mode).
void require_written(const std::byte* p, int64_t n)
{
    if (!runtime::checked()) return;
    if (const int64_t bad = runtime::first_unwritten(p, std::size_t(n)); bad >= 0)
        runtime::fail({"RUN_UNINIT_READ", "", "src", "reads a byte " + std::to_string(bad) + " bytes into a burst that nothing has written",
                       "initialised data", "never-written bytes", ""});
}

// Calls `burst(src_offset, dst_offset)` for every burst of the pattern, innermost level fastest.
template <typename F>
void for_each_burst(std::span<const BurstLevel> levels, F&& burst, std::size_t level, int64_t src, int64_t dst)
{
    if (level == 0) return burst(src, dst);
    const BurstLevel& l = levels[level - 1];
    for (int64_t i = 0; i < l.count; ++i) for_each_burst(levels, burst, level - 1, src + i * l.src_stride, dst + i * l.dst_stride);
}

}  // namespace

int64_t burst_extent(int64_t length, std::span<const BurstLevel> levels, bool source)
{
    int64_t end = length;
    for (const BurstLevel& l : levels) {
        if (l.count <= 0) return 0;
        int64_t reach = 0;
        // An extent past int64 is past every memory: the caller's range check rejects the largest value.
        if (__builtin_mul_overflow(l.count - 1, source ? l.src_stride : l.dst_stride, &reach) ||
            __builtin_add_overflow(end, reach, &end))
            return INT64_MAX;
    }
    return end;
}

void copy_bursts(const BurstCopy& copy)
{
    const bool widen = copy.from != copy.to;
    const int64_t out_length = widen ? copy.length * dtype_bits(copy.to) / dtype_bits(copy.from) : copy.length;
    // Overlapping source and destination (a copy inside one memory): every burst reads the source as it
    // was before the copy, as if staged through a buffer first, whatever the order of the bursts.
    const int64_t src_end = burst_extent(copy.length, copy.levels, true);
    const int64_t dst_end = burst_extent(copy.padding ? copy.padding->row_bytes(copy.length) : out_length, copy.levels, false);
    const bool overlap = src_end > 0 && dst_end > 0 && copy.src < copy.dst + dst_end && copy.dst < copy.src + src_end;
    std::vector<std::byte> staged;
    if (overlap) {
        for_each_burst(copy.levels, [&](int64_t src, int64_t) { require_written(copy.src + src, copy.length); }, copy.levels.size(), 0, 0);
        staged.assign(copy.src, copy.src + src_end);
    }
    const std::byte* source = overlap ? staged.data() : copy.src;
    for_each_burst(
        copy.levels,
        [&](int64_t src, int64_t dst) {
            const std::byte* from = source + src;
            std::byte* to = copy.dst + dst;
            if (!overlap) require_written(from, copy.length);
            if (const RowPadding* pad = copy.padding) {
                const int64_t row = pad->row_bytes(copy.length), before = pad->left * pad->element_bytes;
                for (int64_t at = 0; at < row; at += pad->element_bytes)
                    std::memcpy(to + at, pad->value.data(), std::size_t(std::min<int64_t>(pad->element_bytes, row - at)));
                std::memcpy(to + before, from, std::size_t(copy.length));
                runtime::mark_written(to, std::size_t(row));
                return;
            }
            if (widen) {
                const int64_t values = copy.length * 8 / dtype_bits(copy.from);
                for (int64_t i = 0; i < values; ++i)
                    numeric::from_double(copy.to, to, std::size_t(i), numeric::to_double(copy.from, from, std::size_t(i)),
                                         RoundMode::CAST_RINT, SaturationMode::OFF);
            } else {
                std::memcpy(to, from, std::size_t(copy.length));
            }
            runtime::mark_written(to, std::size_t(out_length));
        },
        copy.levels.size(), 0, 0);
}

}  // namespace pto::engine::cube
