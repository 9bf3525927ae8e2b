// Lowering of the vector operations that read and write UB through pointers (pto.vsort32, pto.vbitsort,
// pto.vmrgsort4, pto.vtranspose) and of pto.get_vms4_sr. Each step checks its control word or repeat
// count (RUN_VECTOR_CONFIG), then every pointer's alignment and whole footprint in UB, before any byte
// moves.
#include <pto/engine/ops/vector.hpp>
#include <pto/profile/rules_vector.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/vector_status.hpp>

#include <string>

#include "asm/interpreter/lowering.hpp"
#include "asm/interpreter/pointer_access.hpp"
#include "asm/interpreter/scalar.hpp"

namespace pto::as::interp {

namespace {

namespace vec = engine::vector;

constexpr int64_t kSortAlignment = 32;  // the vector core's UB unit, as for pto.vlds / pto.vsts
constexpr int64_t kMergeAlignment = 8;  // vmrgsort4's page: 64-bit aligned records
constexpr int64_t kRecordBytes = 8;

[[noreturn]] void bad_config(const char* operand, std::string what, std::string expected, int64_t value)
{
    runtime::fail({"RUN_VECTOR_CONFIG", "", operand, std::move(what), std::move(expected), std::to_string(value), ""});
}

// `bytes` bytes of UB at the pointer in slot `s`, aligned to `alignment`.
std::byte* ub_bytes(Frame& f, const PointerInfo& p, const Slot& s, int64_t bytes, int64_t alignment, const char* operand, const char* why)
{
    require_aligned(s.i, alignment, operand, why);
    return on_chip_address(f, *p.memory, s.i, bytes, operand);
}

}  // namespace

void Lowerer::lower_vector_ub(const Operation& op, const VectorForm& form, const std::vector<int>& in, const std::vector<int>& out, Body& body)
{
    auto add = [&](auto run) { body.steps.push_back({std::move(run), &op}); };
    const engine::DType dtype = form.dtype;
    const int element = form.lane_bytes;
    std::vector<PointerInfo> p;
    for (std::size_t i = 0; i < op.operands.size(); ++i)
        if (operand_type(op, i).is<PtrType>()) p.push_back(pointer_info(operand_type(op, i)));
    constexpr const char* kSortUnits = "the UB sorts address UB in 32-byte units";

    switch (form.def->family) {
        case VectorFamily::Sort32: case VectorFamily::BitSort: {
            const bool bitsort = form.def->family == VectorFamily::BitSort;
            return add([=, dest = in[0], src = in[1], indices = bitsort ? in[2] : -1, config = in.back()](Frame& f) {
                const int64_t groups = f.slots[config].i;
                if (bitsort && !rules::vbitsort_repeat_ok(groups))
                    bad_config("repeat_times", "the repeat count is the number of 32-element groups", "1 to 255", groups);
                if (!bitsort && !rules::vsort32_config_ok(groups))
                    bad_config("config", "the control word holds the repeat count (groups of 32) in bits [7:0], nothing else", "1 to 255", groups);
                const std::byte* values = ub_bytes(f, p[1], f.slots[src], groups * 32 * element, kSortAlignment, "src", kSortUnits);
                const std::byte* index = bitsort ? ub_bytes(f, p[2], f.slots[indices], groups * 32 * 4, kSortAlignment, "indices", kSortUnits) : nullptr;
                std::byte* records = ub_bytes(f, p[0], f.slots[dest], groups * 32 * kRecordBytes, kSortAlignment, "dest", kSortUnits);
                vec::sort32_groups(dtype, values, index, int(groups), records);
            });
        }
        case VectorFamily::MergeSort:
            return add([=, dest = in[0], sources = in, count = in[5], config = in[6]](Frame& f) {
                const int64_t word = f.slots[config].i;
                if (!rules::vmrgsort_config_ok(word))
                    bad_config("config", "the control word holds bit 0 (stop when a list is exhausted) and bit 1 (ascending order), nothing else",
                               "0 to 3", word);
                const uint64_t packed = uint64_t(f.slots[count].i);
                constexpr const char* kNames[] = {"src0", "src1", "src2", "src3"};
                const std::byte* lists[4];
                uint16_t counts[4];
                int64_t total = 0;
                for (int k = 0; k < 4; ++k) {
                    counts[k] = uint16_t(packed >> (16 * k));
                    total += counts[k];
                    lists[k] = ub_bytes(f, p[std::size_t(k) + 1], f.slots[sources[std::size_t(k) + 1]], counts[k] * kRecordBytes, kMergeAlignment,
                                        kNames[k], "merged records are 64-bit aligned");
                }
                std::byte* to = ub_bytes(f, p[0], f.slots[dest], total * kRecordBytes, kMergeAlignment, "dest", "merged records are 64-bit aligned");
                runtime::vms4_status() = vec::merge_sorted_lists(dtype, lists, counts, (word & 2) != 0, (word & 1) != 0, to);
            });
        case VectorFamily::MergeStatus: {
            ScalarKind kinds[4];
            for (std::size_t k = 0; k < 4; ++k) kinds[k] = scalar_kind(result_type(op, k));
            return add([=, results = out](Frame& f) {
                const uint64_t status = runtime::vms4_status();
                for (std::size_t k = 0; k < 4; ++k) f.slots[results[k]].i = kinds[k].wrap(int64_t((status >> (16 * k)) & 0xffff));
            });
        }
        case VectorFamily::Transpose:
            return add([=, dest = in[0], src = in[1], config = in[2]](Frame& f) {
                const int64_t word = f.slots[config].i;
                if (!rules::vtranspose_config_ok(word))
                    bad_config("config", "the control word holds the rows in bits [15:0] and the columns in bits [31:16], each at least 1",
                               "rows | cols << 16", word);
                const int rows = int(word & 0xffff), cols = int((word >> 16) & 0xffff);
                const int64_t bytes = int64_t(rows) * cols * element;
                constexpr const char* kUnits = "pto.vtranspose addresses UB in 32-byte units";
                const std::byte* from = ub_bytes(f, p[1], f.slots[src], bytes, kSortAlignment, "src", kUnits);
                std::byte* to = ub_bytes(f, p[0], f.slots[dest], bytes, kSortAlignment, "dest", kUnits);
                vec::transpose_matrix(element, from, rows, cols, to);
            });
        default: return;
    }
}

}  // namespace pto::as::interp
