// The UB-to-UB sorts of the vector core: pto.vsort32 and pto.vbitsort through TSORT32's block sort, and
// pto.vmrgsort4 through TMRGSORT's merges, over the same 8-byte (value, index) records.
#include <pto/engine/ops/vector.hpp>

#include <cstring>
#include <string>
#include <vector>

#include <pto/profile/rules_vector.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/sort/block_sort.hpp"
#include "engine/sort/merge_kernel.hpp"

namespace pto::engine::vector {

namespace {

constexpr int kGroup = 32;
constexpr int kRecordBytes = 8;

// Checked mode: RUN_UNINIT_READ when `bytes` bytes at `p` hold one nothing wrote.
void require_written(const std::byte* p, std::size_t bytes, const char* operand)
{
    if (!runtime::checked() || bytes == 0) return;
    if (const int64_t bad = runtime::first_unwritten(p, bytes); bad >= 0)
        runtime::fail({"RUN_UNINIT_READ", "", operand, "reads a byte " + std::to_string(bad) + " bytes past its address that nothing has written",
                       "initialised data", "never-written bytes", ""});
}

bool overlaps(const std::byte* a, std::size_t a_bytes, const std::byte* b, std::size_t b_bytes)
{
    return a < b + b_bytes && b < a + a_bytes;
}

// A copy of `bytes` bytes at `p` in a scratch buffer of the thread (slot `k`).
const std::byte* staged(int k, const std::byte* p, std::size_t bytes)
{
    thread_local std::vector<std::byte> copies[2];
    copies[k].assign(p, p + bytes);
    return copies[k].data();
}

// The sign bit of each record's value: flipping it reverses the order of every value but the zeros,
// which stay equal, so an ascending merge is the descending merge of the flipped values.
uint64_t sign_bit(bool half) { return half ? uint64_t{0x8000} : uint64_t{0x80000000}; }

}  // namespace

std::string_view ub_sort_problem(DType dtype) { return rules::ub_sort_dtype_ok(dtype) ? "" : "f16 or f32 values"; }

void sort32_groups(DType dtype, const std::byte* values, const std::byte* indices, int groups, std::byte* records)
{
    const std::size_t value_bytes = std::size_t(dtype_bits(dtype) / 8) * kGroup * std::size_t(groups);
    const std::size_t index_bytes = 4 * kGroup * std::size_t(groups), record_bytes = kRecordBytes * kGroup * std::size_t(groups);
    require_written(values, value_bytes, "src");
    if (indices) require_written(indices, index_bytes, "indices");
    // The block sort reads a group just before writing its records: a source the records overlap is
    // read from a copy, so that no group is overwritten before it is sorted.
    if (overlaps(records, record_bytes, values, value_bytes)) values = staged(0, values, value_bytes);
    if (indices && overlaps(records, record_bytes, indices, index_bytes)) indices = staged(1, indices, index_bytes);
    thread_local std::vector<uint32_t> positions;
    if (!indices) {
        positions.resize(std::size_t(kGroup * groups));
        for (std::size_t i = 0; i < positions.size(); ++i) positions[i] = uint32_t(i);
        indices = reinterpret_cast<const std::byte*>(positions.data());
    }
    const int64_t value_stride = int64_t(dtype_bits(dtype) / 8) * kGroup;
    const sort32::SortRows job{values, value_stride, indices, 4 * kGroup, records, kRecordBytes * kGroup, groups, kGroup};
    if (dtype == DType::F32) sort32::sort_f32_rows(job);
    else sort32::sort_f16_rows(job);
    runtime::mark_written(records, record_bytes);
}

uint64_t merge_sorted_lists(DType dtype, const std::byte* const (&lists)[4], const uint16_t (&counts)[4], bool ascending, bool exhausted,
                            std::byte* dst)
{
    static constexpr const char* kNames[] = {"src0", "src1", "src2", "src3"};
    const bool half = dtype == DType::F16;
    thread_local std::vector<uint64_t> records[4];
    thread_local std::vector<uint64_t> merged;
    merge::Lists input;
    int list_of[4] = {};  // the operand each merged list comes from
    std::size_t total = 0;
    for (int k = 0; k < 4; ++k) {
        const std::size_t bytes = std::size_t(counts[k]) * kRecordBytes;
        require_written(lists[k], bytes, kNames[k]);
        if (counts[k] == 0) continue;  // an empty list takes no part
        std::vector<uint64_t>& r = records[k];
        r.resize(counts[k]);
        std::memcpy(r.data(), lists[k], bytes);
        if (ascending)
            for (uint64_t& record : r) record ^= sign_bit(half);
        if (runtime::checked())
            if (const int64_t at = merge::first_out_of_order(r, half); at >= 0)
                runtime::fail({"RUN_VMRGSORT_ORDER", "", kNames[k],
                               "record " + std::to_string(at) + " breaks the list's order: a merged list must be sorted as the merge",
                               ascending ? "ascending values" : "descending values", "out of order at record " + std::to_string(at), ""});
        list_of[input.count] = k;
        input.list[input.count++] = r;
        total += r.size();
    }
    merged.resize(total);
    uint16_t taken[4] = {};
    std::size_t written = total;
    if (exhausted) {
        written = merge::merge_counted(input, half, merged.data(), total, true, taken);
    } else {
        merge::merge_all(input, half, merged.data());
        for (int j = 0; j < input.count; ++j) taken[j] = uint16_t(input.list[j].size());
    }
    if (ascending)
        for (std::size_t i = 0; i < written; ++i) merged[i] ^= sign_bit(half);
    std::memcpy(dst, merged.data(), written * kRecordBytes);  // staged: dst may overlap the lists
    runtime::mark_written(dst, written * kRecordBytes);
    uint64_t status = 0;
    for (int j = 0; j < input.count; ++j) status |= uint64_t(taken[j]) << (16 * list_of[j]);
    return status;
}

}  // namespace pto::engine::vector
