// TMRGSORT: operand checks, the list and block merges (merge_kernel.hpp), and the definition.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/sort.hpp>
#include <pto/profile/rules_sort.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"
#include "engine/sort/merge_kernel.hpp"

namespace pto::engine {

namespace {

constexpr int kPairBytes = 8;
constexpr int64_t kUnknownBlock = -1;  // a block length the verifier cannot know

int pair_elements(const TileDesc& t) { return kPairBytes * 8 / t.element_bits(); }

std::span<const uint64_t> pairs_of(const TileDesc& t)
{
    return {reinterpret_cast<const uint64_t*>(t.data), size_t(t.valid_cols / pair_elements(t))};
}

const char* list_name(std::size_t i)
{
    constexpr const char* kNames[] = {"src0", "src1", "src2", "src3"};
    return kNames[i];
}

void check_tile(const TileDesc& t, const TileDesc& first, const char* name, LegalitySink& sink)
{
    if (!rules::tmrgsort_tile_ok(t.loc, t.blayout, t.slayout, t.rows))
        report(sink, "LEGAL_TMRGSORT_LAYOUT", name, "TMRGSORT takes one-row, row-major Vec tiles", "a 1 x N row-major Vec tile",
               std::string(profile::location_name(t.loc)) + " " + extent_text(t.rows, t.cols));
    if (!rules::tmrgsort_dtype_ok(t.dtype) || t.dtype != first.dtype)
        report(sink, "LEGAL_TMRGSORT_DTYPE", name, "pairs of half or float values, one type in every tile", std::string(dtype_name(first.dtype)),
               std::string(dtype_name(t.dtype)));
    if (known(t.valid_cols) && rules::tmrgsort_dtype_ok(t.dtype) && t.valid_cols % pair_elements(t) != 0)
        report(sink, "RUN_VALID_SHAPE", name, "the valid columns are whole (value, index) pairs",
               "a multiple of " + std::to_string(pair_elements(t)), std::to_string(t.valid_cols));
}

// Checked mode: a list out of descending order, which the device would merge into an unsorted result.
void require_sorted(std::span<const uint64_t> list, bool half, const char* name)
{
    if (!runtime::checked()) return;
    const int64_t at = merge::first_out_of_order(list, half);
    if (at >= 0)
        runtime::fail({"RUN_TMRGSORT_ORDER", "TMRGSORT", name,
                       "pair " + std::to_string(at) + " is larger than the one before it: a merged list must be sorted, largest first",
                       "descending values", "a rise at pair " + std::to_string(at), ""});
}

// Merges into dst's first columns (at most `room` pairs; `merge_into(out)` returns how many it wrote):
// straight when dst shares no byte with the lists, else staged, so that no list is overwritten before
// it is read.
template <typename Merge>
std::size_t write_merged(const TileDesc& dst, std::span<const TileDesc* const> lists, std::size_t room, Merge&& merge_into)
{
    const auto* begin = reinterpret_cast<const std::byte*>(dst.data);
    const auto* end = begin + room * kPairBytes;
    bool shared = false;
    for (const TileDesc* l : lists) shared |= l->data < end && begin < l->data + int64_t(l->valid_cols) * l->element_bits() / 8;
    if (!shared) return merge_into(reinterpret_cast<uint64_t*>(dst.data));
    thread_local std::vector<uint64_t> staged;
    staged.resize(room);
    const std::size_t written = merge_into(staged.data());
    std::memcpy(dst.data, staged.data(), written * kPairBytes);
    return written;
}

}  // namespace

void check_tmrgsort(const profile::Profile& p, const TileDesc& dst, const TileDesc* tmp, std::span<const TileDesc* const> lists,
                    LegalitySink& sink)
{
    check_tile(dst, dst, "dst", sink);
    int64_t source_cols = 0, source_bytes = 0;
    bool cols_known = true;
    for (std::size_t i = 0; i < lists.size(); ++i) {
        check_tile(*lists[i], dst, list_name(i), sink);
        cols_known &= known(lists[i]->valid_cols);
        source_cols += lists[i]->valid_cols;
        source_bytes += lists[i]->bytes();
    }
    if (tmp) {
        check_tile(*tmp, dst, "tmp", sink);
        if (cols_known && !rules::tmrgsort_tmp_ok(tmp->cols, source_cols))
            report(sink, "LEGAL_TMRGSORT_TMP", "tmp", "tmp holds every source's valid columns", "at least " + std::to_string(source_cols) + " columns",
                   std::to_string(tmp->cols));
        source_bytes += tmp->bytes();
    }
    if (!rules::tmrgsort_ub_ok(p, source_bytes))
        report(sink, "LEGAL_TMRGSORT_UB", "src0", "the sources and tmp fit in UB together",
               "under " + std::to_string(profile::capacity_of(p, TileType::Vec)) + " bytes", std::to_string(source_bytes) + " bytes");
}

void tmrgsort(const TileDesc& dst, const TileDesc* tmp, std::span<const TileDesc* const> lists, bool exhausted, uint16_t (&executed)[4])
{
    runtime::InstructionScope scope("TMRGSORT");
    StopAtFirstFinding stop;
    check_tmrgsort(runtime::active_profile(), dst, tmp, lists, stop);
    const bool half = dst.dtype == DType::F16;
    merge::Lists input;
    std::size_t total = 0;
    for (std::size_t i = 0; i < lists.size(); ++i) {
        require_written(*lists[i], list_name(i));
        input.list[i] = pairs_of(*lists[i]);
        require_sorted(input.list[i], half, list_name(i));
        total += input.list[i].size();
    }
    input.count = int(lists.size());
    const std::size_t room = size_t(dst.valid_cols / pair_elements(dst));
    std::size_t written = 0;
    for (uint16_t& e : executed) e = 0;
    if (!exhausted && room >= total) {
        // The whole merge, on the fast path.
        written = write_merged(dst, lists, total, [&](uint64_t* out) {
            merge::merge_all(input, half, out);
            return total;
        });
        for (std::size_t i = 0; i < lists.size(); ++i) executed[i] = uint16_t(input.list[i].size());
    } else {
        written = write_merged(dst, lists, std::min(room, total),
                               [&](uint64_t* out) { return merge::merge_counted(input, half, out, room, exhausted, executed); });
    }
    mark_written(dst, 1, int(written) * pair_elements(dst));
}

void check_tmrgsort_blocks(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, int64_t block_len, LegalitySink& sink)
{
    check_tile(dst, dst, "dst", sink);
    check_tile(src, dst, "src", sink);
    if (!rules::tmrgsort_ub_ok(p, dst.bytes() + src.bytes()))
        report(sink, "LEGAL_TMRGSORT_UB", "src", "src and dst fit in UB together",
               "under " + std::to_string(profile::capacity_of(p, TileType::Vec)) + " bytes", std::to_string(dst.bytes() + src.bytes()) + " bytes");
    if (!known(src.valid_cols)) return;
    if (block_len != kUnknownBlock && !rules::tmrgsort_block_ok(block_len, src.valid_cols))
        report(sink, "RUN_TMRGSORT_BLOCK", "src", "blocks of a multiple of 64 elements, the row 1 to 255 groups of four of them",
               "a block length dividing " + std::to_string(src.valid_cols) + " / 4", std::to_string(block_len));
    if (known(dst.valid_cols) && dst.valid_cols < src.valid_cols)
        report(sink, "RUN_VALID_SHAPE", "dst", "dst receives every merged group", "at least " + std::to_string(src.valid_cols) + " valid columns",
               std::to_string(dst.valid_cols));
}

void tmrgsort_blocks(const TileDesc& dst, const TileDesc& src, int64_t block_len)
{
    PTO_HOLD_BACK("TMRGSORT", tmrgsort_blocks, dst, src, block_len);
    runtime::InstructionScope scope("TMRGSORT");
    StopAtFirstFinding stop;
    check_tmrgsort_blocks(runtime::active_profile(), dst, src, block_len, stop);
    require_written(src, "src");
    const bool half = dst.dtype == DType::F16;
    const std::size_t block_pairs = size_t(block_len / pair_elements(src));
    const std::span<const uint64_t> all = pairs_of(src);
    const TileDesc* sources[] = {&src};
    for (std::size_t group = 0; group + 4 * block_pairs <= all.size(); group += 4 * block_pairs) {
        merge::Lists input;
        input.count = 4;
        for (std::size_t b = 0; b < 4; ++b) {
            input.list[b] = all.subspan(group + b * block_pairs, block_pairs);
            require_sorted(input.list[b], half, "src");
        }
        TileDesc out = dst;
        out.data = dst.data + group * kPairBytes;
        write_merged(out, sources, 4 * block_pairs, [&](uint64_t* to) {
            merge::merge_all(input, half, to);
            return 4 * block_pairs;
        });
    }
    mark_written(dst, 1, src.valid_cols);
}

// ---- definition ---------------------------------------------------------------------------------------

namespace {

enum TmrgsortForm : std::size_t { kLists, kListsWithCounts, kBlocks };

constexpr OperandSpec kListSources[] = {
    {"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}, {"src2", OperandKind::Tile, true}, {"src3", OperandKind::Tile, true}};
constexpr OperandSpec kMergedAndCounts[] = {{"dst", OperandKind::Tile}, {"executed", OperandKind::Tile}};
constexpr OperandSpec kBlockSources[] = {{"src", OperandKind::Tile}, {"blockLen", OperandKind::Scalar}};
constexpr Form kForms[] = {{kListSources, kTileDst}, {kListSources, kMergedAndCounts}, {kBlockSources, kTileDst}};
constexpr std::string_view kExhaustedKeys[] = {"exhausted"};
constexpr AttributeSpec kAttributes[] = {{kExhaustedKeys, kBooleanValues, 0}};

std::vector<const TileDesc*> lists_of(const Call& c)
{
    std::vector<const TileDesc*> lists;
    for (const CallOperand& source : c.sources)
        if (source.tile) lists.push_back(source.tile);  // src2 and src3 may be left out
    return lists;
}

// In text the executed counts go to a tile of 16-bit integers: its first four elements.
void store_counts(const TileDesc& t, const uint16_t (&executed)[4])
{
    if (dtype_bits(t.dtype) != 16 || t.elements() < 4)
        runtime::fail({"RUN_TMRGSORT_EXECUTED", "TMRGSORT", "executed", "the executed counts go to four 16-bit elements",
                       "a tile of at least four i16/u16 elements", std::to_string(t.elements()) + " " + std::string(dtype_name(t.dtype)) + " elements",
                       ""});
    std::memcpy(t.data, executed, sizeof executed);
    mark_storage_prefix_written(t, 4);
}

}  // namespace

constexpr InstrDef definitions::TMRGSORT{
    .id = Instr::TMRGSORT,
    .mnemonic = "TMRGSORT",
    .forms = kForms,
    .attributes = kAttributes,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
        if (c.form == kBlocks) {
            const ScalarValue& block_len = *c.sources[1].scalar;
            check_tmrgsort_blocks(p, c.dst(), c.src(0), block_len.known ? block_len.i : kUnknownBlock, sink);
            return;
        }
        const auto lists = lists_of(c);
        check_tmrgsort(p, c.dst(), nullptr, lists, sink);
    },
    .run = [](const Call& c) {
        if (c.form == kBlocks) return tmrgsort_blocks(c.dst(), c.src(0), c.sources[1].scalar->i);
        const auto lists = lists_of(c);
        uint16_t executed[4];
        tmrgsort(c.dst(), nullptr, lists, c.attributes[0] != 0, executed);
        if (c.form == kListsWithCounts) store_counts(c.dst(1), executed);
    },
};

}  // namespace pto::engine
