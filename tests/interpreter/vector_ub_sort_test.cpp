// The vector core's UB-to-UB operations from PTO-AS against plain reference loops: pto.vsort32 and
// pto.vbitsort (stable sorts of 32-element groups into TSORT32's records), pto.vmrgsort4 with the
// VMS4_SR counts pto.get_vms4_sr reads, and pto.vtranspose; with ties, NaN, infinities and signed
// zeros, and the codes of their illegal forms.
#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include "vector_lane_support.hpp"

namespace pto::as::testing {
namespace {

using namespace vector_lanes;

using Bytes = std::vector<uint8_t>;

const LaneType& lane_type(const std::string& name)
{
    for (const LaneType& t : all_lane_types())
        if (t.name == name) return t;
    throw std::runtime_error("no lane type " + name);
}

// A value's place in the sorts' order: a negative NaN below -inf, a positive one above +inf, -0 = +0.
std::pair<int, double> rank(const LaneType& t, uint64_t bits)
{
    const double v = float_of(t, bits);
    const bool negative = (bits >> (8 * t.bytes - 1)) & 1;
    if (std::isnan(v)) return {negative ? 0 : 2, 0.0};
    return {1, v == 0 ? 0.0 : v};
}

// Values drawn from a few, so that ties are common, among them NaN of both signs and both zeros.
Bytes tie_values(const LaneType& t, int count, uint32_t seed)
{
    std::mt19937 gen(seed);
    const double pool[] = {1.0, 2.5, -3.0, 0.0, -0.0, INFINITY, -INFINITY, 7.0, -0.5, 100.0};
    Bytes v(std::size_t(count * t.bytes));
    for (int i = 0; i < count; ++i) {
        const uint32_t pick = gen() % 12;
        uint64_t bits = pick < 10 ? float_bits(t, pool[pick]) : float_bits(t, std::nan(""));
        if (pick == 11) bits |= uint64_t{1} << (8 * t.bytes - 1);  // a negative NaN
        set_lane_bits(v.data(), t, i, bits);
    }
    return v;
}

struct Record {
    uint64_t value_bits;
    uint32_t index;
};

uint64_t pack(const Record& r) { return (uint64_t{r.index} << 32) | r.value_bits; }

// Sorted largest first; equal values by smaller index, then in source order (TSORT32's order).
void sort_records(const LaneType& t, std::vector<Record>& r)
{
    std::stable_sort(r.begin(), r.end(), [&](const Record& a, const Record& b) {
        const auto ra = rank(t, a.value_bits), rb = rank(t, b.value_bits);
        if (ra != rb) return ra > rb;
        return a.index < b.index;
    });
}

uint64_t record_at(const Bytes& out, std::size_t i)
{
    uint64_t v = 0;
    std::memcpy(&v, out.data() + i * 8, 8);
    return v;
}

std::string index_const(const std::string& name, int64_t v, const char* type = "i64")
{
    return "    %" + name + " = arith.constant " + std::to_string(v) + " : " + type + "\n";
}

// ---- vsort32, vbitsort ---------------------------------------------------------------------------------

TEST(VectorUbSort, Vsort32SortsEachGroupStablyLargestFirst)
{
    for (const char* name : {"f32", "f16"}) {
        const LaneType& t = lane_type(name);
        for (int groups : {1, 3}) {
            const Bytes in = tie_values(t, 32 * groups, 90 + uint32_t(groups));
            const std::string body = index_const("cfg", groups) + "    pto.vsort32 %out_" + t.name + ", %in_" + t.name + ", %cfg : " + t.ptr() + ", " +
                                     t.ptr() + ", i64\n";
            const Bytes out = run_body(body, in);
            for (int g = 0; g < groups; ++g) {
                std::vector<Record> want;
                for (int i = 0; i < 32; ++i) want.push_back({lane_bits(in.data(), t, 32 * g + i), uint32_t(32 * g + i)});
                sort_records(t, want);
                for (int i = 0; i < 32; ++i)
                    ASSERT_EQ(record_at(out, std::size_t(32 * g + i)), pack(want[std::size_t(i)])) << name << " group " << g << " record " << i;
            }
            EXPECT_EQ(out[std::size_t(256 * groups)], 0xAB) << "wrote past its groups";
        }
    }
}

// dest may be src itself: every group is read before its records are written.
TEST(VectorUbSort, Vsort32InPlace)
{
    const LaneType& t = lane_type("f32");
    const Bytes in = tie_values(t, 64, 95);
    const std::string body = "    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
                             "    pto.vsts %v, %out_f32[%c0], %all_b32 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n" +
                             index_const("cfg", 2) + "    pto.vsort32 %out_f32, %out_f32, %cfg : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64\n";
    const Bytes out = run_body(body, in);
    for (int g = 0; g < 2; ++g) {
        std::vector<Record> want;
        for (int i = 0; i < 32; ++i) want.push_back({lane_bits(in.data(), t, 32 * g + i), uint32_t(32 * g + i)});
        sort_records(t, want);
        for (int i = 0; i < 32; ++i) ASSERT_EQ(record_at(out, std::size_t(32 * g + i)), pack(want[std::size_t(i)])) << "group " << g << " record " << i;
    }
}

TEST(VectorUbSort, VbitsortCarriesTheGivenIndicesTiesBySmallerIndex)
{
    for (const char* name : {"f32", "f16"}) {
        const LaneType& t = lane_type(name);
        const int groups = 2;
        Bytes in = tie_values(t, 64, 97);
        in.resize(kBytes);
        std::mt19937 gen(98);
        for (int i = 0; i < 64; ++i) {
            const uint32_t index = gen() % 50;  // repeats: equal values with equal indices keep their order
            std::memcpy(in.data() + 1024 + 4 * i, &index, 4);
        }
        const std::string body = index_const("rep", groups, "index") + "    %idx_at = arith.constant 1024 : i64\n"
                                 "    %idx = pto.castptr %idx_at : i64 -> !pto.ptr<i32, ub>\n"
                                 "    pto.vbitsort %out_" + t.name + ", %in_" + t.name + ", %idx, %rep : " + t.ptr() + ", " + t.ptr() +
                                 ", !pto.ptr<i32, ub>, index\n";
        const Bytes out = run_body(body, in);
        for (int g = 0; g < groups; ++g) {
            std::vector<Record> want;
            for (int i = 0; i < 32; ++i) {
                uint32_t index = 0;
                std::memcpy(&index, in.data() + 1024 + 4 * (32 * g + i), 4);
                want.push_back({lane_bits(in.data(), t, 32 * g + i), index});
            }
            sort_records(t, want);
            for (int i = 0; i < 32; ++i)
                ASSERT_EQ(record_at(out, std::size_t(32 * g + i)), pack(want[std::size_t(i)])) << name << " group " << g << " record " << i;
        }
    }
}

// ---- vmrgsort4, get_vms4_sr -------------------------------------------------------------------------------

// Four lists of records at input offsets 0, 256, 512, 768 (up to 32 records each), each sorted in the
// merge's order; values from a few, so that equal values meet across lists.
struct MergeInput {
    Bytes in = Bytes(kBytes, 0);
    std::vector<Record> lists[4];
};

MergeInput merge_input(const LaneType& t, const int (&counts)[4], bool ascending, uint32_t seed)
{
    MergeInput m;
    for (int k = 0; k < 4; ++k) {
        const Bytes values = tie_values(t, counts[k], seed + uint32_t(k));
        for (int i = 0; i < counts[k]; ++i) m.lists[k].push_back({lane_bits(values.data(), t, i), uint32_t(100 * k + i)});
        sort_records(t, m.lists[k]);
        if (ascending) std::reverse(m.lists[k].begin(), m.lists[k].end());
        for (int i = 0; i < counts[k]; ++i) {
            const uint64_t r = pack(m.lists[k][std::size_t(i)]);
            std::memcpy(m.in.data() + 256 * k + 8 * i, &r, 8);
        }
    }
    return m;
}

// The merge: every list's records in list order, sorted stably by value (largest first, or smallest
// first): equal values keep the lower list first. With `exhausted`, the prefix that ends with the
// record emptying a non-empty list. The records taken from each list go to `taken`.
std::vector<Record> reference_merge(const LaneType& t, const MergeInput& m, bool ascending, bool exhausted, int (&taken)[4])
{
    std::vector<std::pair<Record, int>> all;
    for (int k = 0; k < 4; ++k)
        for (const Record& r : m.lists[k]) all.push_back({r, k});
    std::stable_sort(all.begin(), all.end(), [&](const auto& a, const auto& b) {
        const auto ra = rank(t, a.first.value_bits), rb = rank(t, b.first.value_bits);
        return ascending ? ra < rb : ra > rb;
    });
    std::vector<Record> out;
    for (int& n : taken) n = 0;
    for (const auto& [r, k] : all) {
        out.push_back(r);
        if (++taken[k] == int(m.lists[k].size()) && exhausted) break;
    }
    return out;
}

// `mnemonic`: pto.vmrgsort4, or pto.vmrgsort, the spelling of the op page's title.
std::string merge_body(const LaneType& t, const int (&counts)[4], int64_t config, const std::string& mnemonic)
{
    int64_t packed = 0;
    for (int k = 0; k < 4; ++k) packed |= int64_t(counts[k]) << (16 * k);
    std::string body = index_const("count", packed) + index_const("cfg", config);
    for (int k = 0; k < 4; ++k) {
        body += index_const("l" + std::to_string(k) + "_at", 256 * k);
        body += "    %l" + std::to_string(k) + " = pto.castptr %l" + std::to_string(k) + "_at : i64 -> " + t.ptr() + "\n";
    }
    const std::string p = t.ptr();
    body += "    " + mnemonic + " %out_" + t.name + ", %l0, %l1, %l2, %l3, %count, %cfg : " + p + ", " + p + ", " + p + ", " + p + ", " + p + ", i64, i64\n";
    // The counts after it, as i16 values at output byte 1536 on.
    body += "    %n0, %n1, %n2, %n3 = pto.get_vms4_sr : i16, i16, i16, i16\n";
    for (int k = 0; k < 4; ++k)
        body += index_const("s" + std::to_string(k), 768 + k, "index") + "    pto.store_scalar %n" + std::to_string(k) + ", %out_i16[%s" + std::to_string(k) +
                "] : !pto.ptr<i16, ub>, i16\n";
    return body;
}

TEST(VectorUbSort, Vmrgsort4MergesFourListsAndReportsTheCounts)
{
    struct Case {
        int counts[4];
        int64_t config;  // bit 0: exhausted; bit 1: ascending
    };
    const Case cases[] = {
        {{5, 0, 7, 3}, 0}, {{32, 32, 32, 32}, 0}, {{9, 4, 12, 6}, 1}, {{9, 4, 12, 6}, 2}, {{3, 20, 0, 8}, 3}, {{0, 0, 0, 0}, 0}, {{1, 0, 0, 0}, 1},
    };
    for (const char* name : {"f32", "f16"})
        for (const Case& c : cases) {
            const LaneType& t = lane_type(name);
            const bool ascending = c.config & 2, exhausted = c.config & 1;
            const MergeInput m = merge_input(t, c.counts, ascending, 200 + uint32_t(c.counts[0]));
            const Bytes out = run_body(merge_body(t, c.counts, c.config, t.bytes == 4 ? "pto.vmrgsort4" : "pto.vmrgsort"), m.in);
            int taken[4];
            const std::vector<Record> want = reference_merge(t, m, ascending, exhausted, taken);
            const std::string what = std::string(name) + " counts " + std::to_string(c.counts[0]) + "," + std::to_string(c.counts[1]) + "," +
                                     std::to_string(c.counts[2]) + "," + std::to_string(c.counts[3]) + " config " + std::to_string(c.config);
            for (std::size_t i = 0; i < want.size(); ++i) ASSERT_EQ(record_at(out, i), pack(want[i])) << what << " record " << i;
            EXPECT_EQ(out[want.size() * 8], 0xAB) << what << ": wrote past the merge";
            for (int k = 0; k < 4; ++k) {
                uint16_t n = 0;
                std::memcpy(&n, out.data() + 1536 + 2 * k, 2);
                EXPECT_EQ(n, taken[k]) << what << " list " << k;
            }
        }
}

// VMS4_SR holds 0 before any merge, and the counts of the last one after it, also past 32767 (an i16
// reads it as a negative number, as the page's unsigned 16-bit field).
TEST(VectorUbSort, GetVms4SrReadsZeroBeforeAnyMerge)
{
    std::string body = "    %n0, %n1, %n2, %n3 = pto.get_vms4_sr : i16, i16, i16, i16\n";
    for (int k = 0; k < 4; ++k)
        body += index_const("s" + std::to_string(k), k, "index") + "    pto.store_scalar %n" + std::to_string(k) + ", %out_i16[%s" + std::to_string(k) +
                "] : !pto.ptr<i16, ub>, i16\n";
    const Bytes out = run_body(body, random_bytes(kBytes, 3));
    for (int b = 0; b < 8; ++b) EXPECT_EQ(out[std::size_t(b)], 0) << "byte " << b;
}

// The pages' pipeline: vsort32 sorts four groups, vmrgsort4 merges them into one sorted run. The indices
// are positions and a lower list holds lower ones, so the result is the whole input sorted largest first,
// equal values by position.
TEST(VectorUbSort, Vsort32ThenVmrgsort4SortsAllValues)
{
    const LaneType& t = lane_type("f32");
    Bytes in = tie_values(t, 128, 120);
    in.resize(kBytes);
    const std::string p = t.ptr();
    std::string body = index_const("groups", 4) + index_const("runs_at", 1024) + "    %runs = pto.castptr %runs_at : i64 -> " + p + "\n" +
                       "    pto.vsort32 %runs, %in_f32, %groups : " + p + ", " + p + ", i64\n";
    for (int k = 0; k < 4; ++k)
        body += index_const("l" + std::to_string(k) + "_at", 1024 + 256 * k) + "    %l" + std::to_string(k) + " = pto.castptr %l" + std::to_string(k) +
                "_at : i64 -> " + p + "\n";
    body += index_const("count", 32 | (32 << 16) | (int64_t{32} << 32) | (int64_t{32} << 48)) + index_const("cfg", 0) +
            "    pto.vmrgsort4 %out_f32, %l0, %l1, %l2, %l3, %count, %cfg : " + p + ", " + p + ", " + p + ", " + p + ", " + p + ", i64, i64\n";
    const Bytes out = run_body(body, in);
    std::vector<Record> want;
    for (int i = 0; i < 128; ++i) want.push_back({lane_bits(in.data(), t, i), uint32_t(i)});
    sort_records(t, want);
    for (std::size_t i = 0; i < 128; ++i) ASSERT_EQ(record_at(out, i), pack(want[i])) << "record " << i;
}

// ---- vtranspose ---------------------------------------------------------------------------------------

TEST(VectorUbSort, VtransposeTransposesRowMajorMatricesOfEveryElementSize)
{
    struct Case {
        const char* type;
        int rows, cols;
    };
    const Case cases[] = {{"i8", 5, 40}, {"ui8", 32, 32}, {"f16", 7, 9}, {"bf16", 16, 16}, {"i16", 1, 300}, {"f32", 13, 11}, {"ui32", 16, 8}, {"i32", 1, 1}};
    for (const Case& c : cases) {
        const LaneType& t = lane_type(c.type);
        const Bytes in = random_bytes(kBytes, 300 + uint32_t(c.rows));
        const std::string body = index_const("cfg", c.rows | (int64_t(c.cols) << 16)) + "    pto.vtranspose %out_" + t.name + ", %in_" + t.name +
                                 ", %cfg : " + t.ptr() + ", " + t.ptr() + ", i64\n";
        const Bytes out = run_body(body, in);
        for (int r = 0; r < c.rows; ++r)
            for (int col = 0; col < c.cols; ++col)
                ASSERT_EQ(lane_bits(out.data(), t, col * c.rows + r), lane_bits(in.data(), t, r * c.cols + col))
                    << c.type << " " << c.rows << "x" << c.cols << " at " << r << ", " << col;
        EXPECT_EQ(out[std::size_t(c.rows * c.cols * t.bytes)], 0xAB) << c.type << ": wrote past the matrix";
    }
}

// dest may be src itself (the result overlaps the matrix it is read from).
TEST(VectorUbSort, VtransposeInPlace)
{
    const Bytes in = random_bytes(kBytes, 310);
    const std::string body = "    %v = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> !pto.vreg<256xui8>\n"
                             "    pto.vsts %v, %out_ui8[%c0], %all_b8 : !pto.vreg<256xui8>, !pto.ptr<ui8, ub>, !pto.mask<b8>\n" +
                             index_const("cfg", 6 | (10 << 16)) + "    pto.vtranspose %out_ui8, %out_ui8, %cfg : !pto.ptr<ui8, ub>, !pto.ptr<ui8, ub>, i64\n";
    const Bytes out = run_body(body, in);
    for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 10; ++c) ASSERT_EQ(out[std::size_t(c * 6 + r)], in[std::size_t(r * 10 + c)]) << r << ", " << c;
}

// ---- illegal forms -------------------------------------------------------------------------------------

TEST(VectorUbSort, IllegalFormsAreReportedStatically)
{
    const std::string consts = index_const("cfg", 1) + "    %l1 = pto.castptr %in_at : i64 -> !pto.ptr<f32, l1>\n";
    const std::string f = "!pto.ptr<f32, ub>";
    const std::pair<std::string, std::string> cases[] = {
        {"    pto.vsort32 %out_i32, %in_i32, %cfg : !pto.ptr<i32, ub>, !pto.ptr<i32, ub>, i64\n", "LEGAL_VECTOR_DTYPE"},
        {"    pto.vsort32 %out_f16, %in_f32, %cfg : !pto.ptr<f16, ub>, !pto.ptr<f32, ub>, i64\n", "LEGAL_VECTOR_POINTER_TYPE"},
        {"    pto.vsort32 %out_f32, %l1, %cfg : !pto.ptr<f32, ub>, !pto.ptr<f32, l1>, i64\n", "LEGAL_VECTOR_SPACE"},
        {"    pto.vbitsort %out_f32, %in_f32, %in_f32, %c1 : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, index\n", "LEGAL_VECTOR_POINTER_TYPE"},
        {"    pto.vbitsort %out_f32, %in_f32, %in_i16, %c1 : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<i16, ub>, index\n", "LEGAL_VECTOR_POINTER_TYPE"},
        {"    pto.vbitsort %out_bf16, %in_bf16, %in_i32, %c1 : !pto.ptr<bf16, ub>, !pto.ptr<bf16, ub>, !pto.ptr<i32, ub>, index\n", "LEGAL_VECTOR_DTYPE"},
        {"    pto.vmrgsort4 %out_f32, %in_f32, %in_f32, %in_f16, %in_f32, %cfg, %cfg : " + f + ", " + f + ", " + f + ", !pto.ptr<f16, ub>, " + f + ", i64, i64\n",
         "LEGAL_VECTOR_POINTER_TYPE"},
        {"    pto.vmrgsort4 %out_f32, %in_f32, %in_f32, %in_f32, %cfg, %cfg : " + f + ", " + f + ", " + f + ", " + f + ", i64, i64\n", "STRUCT_OPERAND_COUNT"},
        {"    %a, %b, %c, %d = pto.get_vms4_sr : i16, i16, i32, i16\n", "LEGAL_VECTOR_SCALAR_TYPE"},
        {"    %a, %b = pto.get_vms4_sr : i16, i16\n", "STRUCT_RESULT_COUNT"},
        {"    pto.vtranspose %out_i64, %in_i64, %cfg : !pto.ptr<i64, ub>, !pto.ptr<i64, ub>, i64\n", "LEGAL_VECTOR_DTYPE"},
        {"    pto.vtranspose %out_i8, %in_i16, %cfg : !pto.ptr<i8, ub>, !pto.ptr<i16, ub>, i64\n", "LEGAL_VECTOR_POINTER_TYPE"},
    };
    for (const auto& [body, code] : cases) {
        const std::vector<std::string> codes = static_codes(consts + body);
        EXPECT_TRUE(has_code(codes, code)) << "expected " << code << " for\n" << body;
    }
}

// The run-time checks, before any byte moves: control words, repeat counts, alignment, range, unsorted
// lists (checked mode) and never-written sources.
TEST(VectorUbSort, RunTimeChecksStopTheRunWithTheirCodes)
{
    const std::string f = "!pto.ptr<f32, ub>";
    auto merge = [&](int64_t count, int64_t config, int src0_at) {
        return index_const("count", count) + index_const("cfg", config) + index_const("at", src0_at) + "    %s0 = pto.castptr %at : i64 -> " + f + "\n" +
               "    pto.vmrgsort4 %out_f32, %s0, %in_f32, %in_f32, %in_f32, %count, %cfg : " + f + ", " + f + ", " + f + ", " + f + ", " + f + ", i64, i64\n";
    };
    auto transpose = [](int64_t config, int src_at) {
        return index_const("cfg", config) + index_const("at", src_at) + "    %s = pto.castptr %at : i64 -> !pto.ptr<f16, ub>\n" +
               "    pto.vtranspose %out_f16, %s, %cfg : !pto.ptr<f16, ub>, !pto.ptr<f16, ub>, i64\n";
    };
    auto sort32 = [](int64_t config, int src_at) {
        return index_const("cfg", config) + index_const("at", src_at) + "    %s = pto.castptr %at : i64 -> !pto.ptr<f32, ub>\n" +
               "    pto.vsort32 %out_f32, %s, %cfg : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64\n";
    };
    // Records 0 and 1 of the input: values 1 then 2, a rise in a descending list; records 2 and 3: 2
    // then 1, a fall in an ascending one.
    Bytes in = random_bytes(kBytes, 7);
    const uint64_t values[] = {std::bit_cast<uint32_t>(1.0f), std::bit_cast<uint32_t>(2.0f), std::bit_cast<uint32_t>(2.0f), std::bit_cast<uint32_t>(1.0f)};
    std::memcpy(in.data(), values, 32);
    const std::pair<std::string, std::string> cases[] = {
        {sort32(0, 0), "RUN_VECTOR_CONFIG"},
        {sort32(256, 0), "RUN_VECTOR_CONFIG"},
        {sort32(1, 16), "RUN_POINTER_ALIGN"},
        {sort32(1, 1 << 30), "RUN_POINTER_RANGE"},
        {sort32(1, 8192), "RUN_UNINIT_READ"},    // UB nothing wrote
        {"    %c300 = arith.constant 300 : index\n    pto.vbitsort %out_f32, %in_f32, %in_i32, %c300 : " + f + ", " + f + ", !pto.ptr<i32, ub>, index\n",
         "RUN_VECTOR_CONFIG"},
        {merge(2, 4, 0), "RUN_VECTOR_CONFIG"},
        {merge(2, 0, 4), "RUN_POINTER_ALIGN"},
        {merge(2, 0, 0), "RUN_VMRGSORT_ORDER"},
        {merge(2, 2, 16), "RUN_VMRGSORT_ORDER"},
        {merge(-1, 0, 0), "RUN_POINTER_RANGE"},  // four lists of 65535 records
        {merge(1, 0, 8192), "RUN_UNINIT_READ"},
        {transpose(0, 0), "RUN_VECTOR_CONFIG"},
        {transpose(int64_t{1} << 32 | 0x10001, 0), "RUN_VECTOR_CONFIG"},
        {transpose(5 | (3 << 16), 2), "RUN_POINTER_ALIGN"},
        {transpose(0xffff | (int64_t{0xffff} << 16), 0), "RUN_POINTER_RANGE"},
        {transpose(4 | (4 << 16), 8192), "RUN_UNINIT_READ"},
    };
    for (const auto& [body, code] : cases) {
        const std::vector<std::string> codes = run_codes(body, in);
        ASSERT_FALSE(codes.empty()) << "expected " << code << " for\n" << body;
        EXPECT_EQ(codes.front(), code) << body;
    }
}

// The messages name the operand and the field that is wrong.
TEST(VectorUbSort, RunTimeMessagesNameTheProblem)
{
    const std::pair<std::string, std::vector<std::string>> cases[] = {
        {index_const("cfg", 5) + "    pto.vmrgsort4 %out_f32, %in_f32, %in_f32, %in_f32, %in_f32, %cfg, %cfg : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, "
                                 "!pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64\n",
         {"RUN_VECTOR_CONFIG", "config", "control word", "ascending", "5"}},
        {index_const("cfg", 0) + "    pto.vtranspose %out_f32, %in_f32, %cfg : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64\n",
         {"RUN_VECTOR_CONFIG", "config", "rows", "columns"}},
    };
    for (const auto& [body, words] : cases) {
        const ParseResult parsed = parse_ok(program(body));
        std::vector<uint8_t> input = random_bytes(kBytes, 9), out(kBytes, 0);
        const RunResult r = run(parsed.module, {array_arg("in", input), array_arg("out", out)}, checked_run());
        ASSERT_FALSE(r.ok()) << body;
        const std::string text = format_all(r);
        for (const std::string& w : words) EXPECT_NE(text.find(w), std::string::npos) << "no '" << w << "' in " << text;
    }
}

}  // namespace
}  // namespace pto::as::testing
