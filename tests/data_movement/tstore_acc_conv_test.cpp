// TSTORE of an accumulator into the convolution layouts (a2a3: NC1HWC0, NDC1HWC0; a5: NHWC, NCHW, NCDHW;
// cpu: all five): every layout, output type and conversion (plain, ReLU, pre-quant scalar, fp table,
// atomic add) on every profile, against a reference loop over the tensor's own indices, with random
// legal shapes, padded strides and partial valid regions; each illegal case with its code; the
// intrinsics (their compile-time rules: compile_fail/) and the PTO-AS door.
#include "acc_quant_reference.hpp"
#include "reference.hpp"

#include <pto/numeric/convert.hpp>

#include <acl/acl.h>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"
#include "support/asm_arguments.hpp"
#include "support/compile_check.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <set>
#include <string>

using namespace pto;
using namespace dmtest;
using engine::GlobalDesc;
using engine::TileDesc;
using profile::Target;

namespace {

constexpr Layout kLayouts[] = {Layout::NC1HWC0, Layout::NDC1HWC0, Layout::NHWC, Layout::NCHW, Layout::NCDHW};
constexpr Target kTargets[] = {Target::A2A3, Target::A5, Target::Cpu};

const char* target_name(Target t) { return t == Target::A2A3 ? "a2a3" : t == Target::A5 ? "a5" : "cpu"; }

std::string layout_text(Layout l)
{
    switch (l) {
        case Layout::NC1HWC0: return "NC1HWC0";
        case Layout::NDC1HWC0: return "NDC1HWC0";
        case Layout::NHWC: return "NHWC";
        case Layout::NCHW: return "NCHW";
        default: return "NCDHW";
    }
}

// --- the reference --------------------------------------------------------------------------------------

// The outputs of an accumulator store are whole bytes.
int element_bytes(DType t) { return bits_of(t) / 8; }

// C0 of an output type, as the devices' tests write it: 32 bytes of elements, 16 for int32.
int64_t c0_of(DType out) { return out == DType::I32 ? 16 : 32 / element_bytes(out); }

// A convolution tensor in a host buffer: its logical extents, its 5-D shape and strides as the
// GlobalTensor holds them, and where the view starts in the buffer (NCDHW: a depth slice of a deeper
// tensor).
struct ConvTensor {
    Layout layout = Layout::NC1HWC0;
    DType dtype = DType::F32;
    int64_t n = 1, d = 1, c1 = 1, h = 1, w = 1, c0 = 1, c = 1;  // c: the channels of NHWC/NCHW/NCDHW
    int64_t shape[5] = {1, 1, 1, 1, 1};
    int64_t stride[5] = {1, 1, 1, 1, 1};
    int64_t first = 0;  // element offset of the view in the buffer
    int64_t elements = 0;  // the buffer's

    // A tensor of `layout` with the 5-D `dims`, packed (NDC1HWC0: C0 elements per W position).
    ConvTensor(Layout l, DType out, const int64_t (&dims)[5]) : layout(l), dtype(out)
    {
        std::copy(dims, dims + 5, shape);
        switch (layout) {
            case Layout::NC1HWC0: n = dims[0], c1 = dims[1], h = dims[2], w = dims[3], c0 = dims[4]; break;
            case Layout::NDC1HWC0: n = dims[0], d = dims[1], c1 = dims[2], h = dims[3], w = dims[4], c0 = c0_of(out); break;
            case Layout::NHWC: n = dims[1], h = dims[2], w = dims[3], c = dims[4]; break;
            case Layout::NCHW: n = dims[1], c = dims[2], h = dims[3], w = dims[4]; break;
            default: n = dims[0], c = dims[1], h = dims[3], w = dims[4];  // NCDHW at D index 0
        }
        stride[4] = layout == Layout::NDC1HWC0 ? c0 : 1;
        for (int k = 3; k >= 0; --k) stride[k] = stride[k + 1] * shape[k + 1];
        elements = stride[0] * shape[0];
    }

    int64_t pixels() const { return n * h * w; }
    int64_t channels() const
    {
        switch (layout) {
            case Layout::NC1HWC0: return c1 * c0;
            case Layout::NDC1HWC0: return d * c1 * c0;
            default: return c;
        }
    }

    // at[r * channels() + ch]: the element offset (from `first`) of accumulator element (r, ch), by
    // visiting every index of the layout: a pixel r = (n, h, w) in that order, a channel of the blocks
    // C1 x C0 (NDC1HWC0: D x C1 x C0).
    std::vector<int64_t> offsets() const
    {
        std::vector<int64_t> at(size_t(pixels() * channels()), -1);
        const auto set = [&](int64_t in, int64_t ih, int64_t iw, int64_t ch, int64_t offset) {
            at[size_t(((in * h + ih) * w + iw) * channels() + ch)] = offset;
        };
        for (int64_t in = 0; in < n; ++in)
            for (int64_t ih = 0; ih < h; ++ih)
                for (int64_t iw = 0; iw < w; ++iw) {
                    if (layout == Layout::NC1HWC0) {
                        for (int64_t i1 = 0; i1 < c1; ++i1)
                            for (int64_t i0 = 0; i0 < c0; ++i0)
                                set(in, ih, iw, i1 * c0 + i0,
                                    in * stride[0] + i1 * stride[1] + ih * stride[2] + iw * stride[3] + i0 * stride[4]);
                    } else if (layout == Layout::NDC1HWC0) {
                        for (int64_t id = 0; id < d; ++id)
                            for (int64_t i1 = 0; i1 < c1; ++i1)
                                for (int64_t i0 = 0; i0 < c0; ++i0)  // C0 consecutive after each W position
                                    set(in, ih, iw, (id * c1 + i1) * c0 + i0,
                                        in * stride[0] + id * stride[1] + i1 * stride[2] + ih * stride[3] +
                                            iw * stride[4] + i0);
                    } else {
                        for (int64_t ch = 0; ch < c; ++ch) {
                            int64_t offset = 0;
                            if (layout == Layout::NHWC)  // (1, N, H, W, C)
                                offset = in * stride[1] + ih * stride[2] + iw * stride[3] + ch * stride[4];
                            else if (layout == Layout::NCHW)  // (1, N, C, H, W)
                                offset = in * stride[1] + ch * stride[2] + ih * stride[3] + iw * stride[4];
                            else  // NCDHW (N, C, 1, H, W)
                                offset = in * stride[0] + ch * stride[1] + ih * stride[3] + iw * stride[4];
                            set(in, ih, iw, ch, offset);
                        }
                    }
                }
        return at;
    }

    GlobalDesc desc(std::byte* buffer) const
    {
        GlobalDesc g;
        g.data = buffer + first * element_bytes(dtype);
        g.dtype = dtype;
        g.layout = layout;
        std::copy(shape, shape + 5, g.shape);
        std::copy(stride, stride + 5, g.stride);
        return g;
    }
};

// A random tensor of `layout` and `out` elements with at most about 64 pixels and 64 channels, strides
// padded with random gaps.
ConvTensor random_tensor(std::mt19937& rng, Layout layout, DType out)
{
    const int64_t n = pick(rng, 1, 2), h = pick(rng, 1, 4), w = pick(rng, 1, 8), c = pick(rng, 1, 48);
    const bool unsplit = layout == Layout::NC1HWC0 && out == DType::F32 && pick(rng, 0, 1);  // f32 without channel split
    const int64_t c0 = unsplit ? 16 : c0_of(out);
    const int64_t c1 = pick(rng, 1, std::max<int>(1, int(64 / c0))), d = pick(rng, 1, 2);
    ConvTensor t = layout == Layout::NC1HWC0    ? ConvTensor(layout, out, {n, c1, h, w, c0})
                   : layout == Layout::NDC1HWC0 ? ConvTensor(layout, out, {n, d, c1, h, w})
                   : layout == Layout::NHWC     ? ConvTensor(layout, out, {1, n, h, w, c})
                   : layout == Layout::NCHW     ? ConvTensor(layout, out, {1, n, c, h, w})
                                                : ConvTensor(layout, out, {n, c, 1, h, w});
    const int64_t whole_d = layout == Layout::NCDHW ? pick(rng, 1, 3) : 1;  // NCDHW: a depth slice of a deeper tensor
    // Strides from the innermost dimension out (NDC1HWC0's pixels hold C0 elements), with gaps.
    int64_t next = layout == Layout::NDC1HWC0 ? t.c0 : 1;
    for (int k = 4; k >= 0; --k) {
        t.stride[k] = next + (k < 4 || layout == Layout::NDC1HWC0 ? pick(rng, 0, 2) : 0);
        next = t.stride[k] * (k == 2 && layout == Layout::NCDHW ? whole_d : t.shape[k]) + pick(rng, 0, 3);
    }
    t.first = pick(rng, 0, int(whole_d) - 1) * t.stride[2] + pick(rng, 0, 5);
    t.elements = t.first + next + t.c0;
    return t;
}

enum class Conversion { Plain, Scalar, Table };

struct Variant {
    DType acc, out;
    Conversion conversion;
    bool relu, atomic;
};

std::string text_of(const Variant& v)
{
    const char* conversions[] = {"plain", "pre-quant scalar", "fp table"};
    return std::string(engine::dtype_name(v.acc)) + " -> " + std::string(engine::dtype_name(v.out)) + ", " +
           conversions[int(v.conversion)] + (v.relu ? ", relu" : "") + (v.atomic ? ", atomic add" : "");
}

// The TSTORE page's tables, per target (the cpu profile takes their union).
bool plain_pair(DType acc, DType out)
{
    return acc == DType::F32 ? out == DType::F32 || out == DType::F16 || out == DType::BF16 : out == DType::I32;
}
bool quant_pair(Target t, DType acc, DType out)
{
    const bool byte = out == DType::I8 || out == DType::U8;
    if (acc == DType::I32) return byte || out == DType::F16 || (t != Target::A2A3 && out == DType::BF16);
    return byte || (t != Target::A2A3 && (out == DType::F16 || out == DType::BF16 || out == DType::HiF8 ||
                                          out == DType::F8E4M3 || out == DType::F32));
}
bool layout_on(Target t, Layout l)
{
    const bool a2a3 = l == Layout::NC1HWC0 || l == Layout::NDC1HWC0;
    return t == Target::Cpu || (t == Target::A2A3) == a2a3;
}
bool atomic_into(Target t, DType out)
{
    const bool eight_bit_float = out == DType::HiF8 || out == DType::F8E4M3 || out == DType::F8E5M2;
    return out == DType::I32 || (out == DType::F32 && t != Target::A5) || (t == Target::Cpu && !eight_bit_float);
}

// The code a target stops `v` into `layout` with, empty when it stores it (check_tstore's order).
std::string expected_code(Target t, Layout layout, const Variant& v)
{
    if (v.conversion == Conversion::Plain && !plain_pair(v.acc, v.out)) return "LEGAL_ACC_OUTPUT_DTYPE";
    if (v.conversion != Conversion::Plain && !quant_pair(t, v.acc, v.out)) return "LEGAL_TSTORE_QUANT_DTYPE";
    if (!layout_on(t, layout)) return "LEGAL_GM_LAYOUT";
    if (v.atomic && !atomic_into(t, v.out)) return "LEGAL_TSTORE_ATOMIC";
    return "";
}

// Every variant with the element types a store out of an accumulator could name.
std::vector<Variant> all_variants()
{
    std::vector<Variant> out;
    for (DType acc : {DType::F32, DType::I32})
        for (DType o : {DType::F32, DType::F16, DType::BF16, DType::I32, DType::I8, DType::U8, DType::HiF8, DType::F8E4M3})
            for (Conversion conv : {Conversion::Plain, Conversion::Scalar, Conversion::Table})
                for (bool relu : {false, true})
                    for (bool atomic : {false, true}) out.push_back({acc, o, conv, relu, atomic});
    return out;
}

// One element of the output: q rounded into `out` (a finite q saturating), or an int32 as it is.
void put(DType out, float q, int32_t integer, std::byte* at)
{
    switch (out) {
        case DType::F32: std::memcpy(at, &q, 4); return;
        case DType::I32: std::memcpy(at, &integer, 4); return;
        case DType::F16: {
            const uint16_t b = quantized_half(q);
            std::memcpy(at, &b, 2);
            return;
        }
        case DType::BF16: {
            const uint16_t b = quantized_bfloat16(q);
            std::memcpy(at, &b, 2);
            return;
        }
        case DType::I8: *reinterpret_cast<int8_t*>(at) = quantized_integer<int8_t>(q); return;
        case DType::U8: *reinterpret_cast<uint8_t*>(at) = quantized_integer<uint8_t>(q); return;
        case DType::HiF8: *reinterpret_cast<uint8_t*>(at) = hifloat8_t(q).bits; return;
        default: *reinterpret_cast<uint8_t*>(at) = float8_e4m3_t(std::clamp(q, -448.0f, 448.0f)).bits; return;
    }
}

// An accumulator of `acc` elements holding a rows x cols valid region in a capacity of whole 16 x 16
// fractals, maybe a fractal larger each way; random values (never all zero).
struct Accumulator {
    TileDesc tile;
    std::vector<std::byte> storage;

    Accumulator(std::mt19937& rng, DType acc, int rows, int cols)
    {
        tile.dtype = acc;
        tile.loc = TileType::Acc;
        tile.blayout = BLayout::ColMajor;
        tile.slayout = SLayout::RowMajor;
        tile.fractal_bytes = TileConfig::fractalCSize;
        tile.rows = (rows + 15) / 16 * 16 + 16 * pick(rng, 0, 1);
        tile.cols = (cols + 15) / 16 * 16 + 16 * pick(rng, 0, 1);
        tile.valid_rows = rows;
        tile.valid_cols = cols;
        storage.resize(size_t(tile.rows) * tile.cols * 4);
        std::uniform_real_distribution<float> value(-300.0f, 300.0f);
        for (size_t i = 0; i < storage.size() / 4; ++i) {
            const float f = value(rng);
            const int32_t k = int32_t(f * 1000.0f) | 1;
            std::memcpy(storage.data() + 4 * i, acc == DType::F32 ? static_cast<const void*>(&f) : &k, 4);
        }
        tile.data = storage.data();
    }

    uint32_t bits(int64_t element) const
    {
        uint32_t v;
        std::memcpy(&v, storage.data() + 4 * element, 4);
        return v;
    }
};

float quant_scale(uint64_t word) { return std::bit_cast<float>(uint32_t(word)); }

// A pre-quant word per column: scales of a few bits (some negative, some zero), high bits that do not count.
std::vector<uint64_t> random_words(std::mt19937& rng, int columns)
{
    std::vector<uint64_t> words(static_cast<size_t>(columns));
    for (auto& w : words) w = pre_quant(float(pick(rng, -40, 40)) / 64.0f, uint64_t(rng()));
    return words;
}

// The reference: `gm` with accumulator element (r, ch) (the 32 bits `element(r, ch)`) converted as `v`
// says, scaled by `scale(ch)` when it quantizes, where t's offsets put it.
std::vector<std::byte> reference_store(const ConvTensor& t, std::vector<std::byte> gm, const Variant& v,
                                       const std::function<uint32_t(int64_t, int64_t)>& element,
                                       const std::function<float(int64_t)>& scale)
{
    const int bytes = element_bytes(v.out);
    const std::vector<int64_t> at = t.offsets();
    for (int64_t r = 0; r < t.pixels(); ++r)
        for (int64_t ch = 0; ch < t.channels(); ++ch) {
            std::byte* out = gm.data() + (t.first + at[size_t(r * t.channels() + ch)]) * bytes;
            const uint32_t b = element(r, ch);
            int32_t integer = v.acc == DType::I32 ? std::bit_cast<int32_t>(b) : 0;
            float q = v.acc == DType::I32 ? float(integer) : std::bit_cast<float>(b);
            if (v.conversion != Conversion::Plain) q *= scale(ch);
            if (v.relu) q = std::max(q, 0.0f), integer = std::max(integer, 0);
            if (v.atomic && v.out == DType::F32) {
                float held;
                std::memcpy(&held, out, 4);
                q = held + q;
            } else if (v.atomic && v.out != DType::I32) {  // the cpu profile's other sums, in the tensor's type
                std::byte value[4];
                put(v.out, q, integer, value);
                if (v.out == DType::F16 || v.out == DType::BF16) {
                    const double sum = numeric::to_double(v.out, out, 0) + numeric::to_double(v.out, value, 0);
                    numeric::from_double(v.out, out, 0, sum, RoundMode::CAST_RINT, SaturationMode::OFF);
                } else {
                    *out = std::byte(uint8_t(uint8_t(*out) + uint8_t(value[0])));
                }
                continue;
            } else if (v.atomic) {
                int32_t held;
                std::memcpy(&held, out, 4);
                integer = int32_t(uint32_t(held) + uint32_t(integer));
            }
            put(v.out, q, integer, out);
        }
    return gm;
}

// Random bytes for a tensor of `out` elements; finite values when an atomic add reads them.
std::vector<std::byte> random_tensor_bytes(std::mt19937& rng, size_t elements, DType out, bool atomic)
{
    std::vector<std::byte> gm = random_bytes(elements * size_t(element_bytes(out)), rng);
    if (atomic && out == DType::F32)
        for (size_t i = 0; i < elements; ++i) {
            const float f = float(pick(rng, -1000, 1000)) / 8.0f;
            std::memcpy(gm.data() + 4 * i, &f, 4);
        }
    if (atomic && (out == DType::F16 || out == DType::BF16))
        for (size_t i = 0; i < elements; ++i)
            numeric::from_double(out, gm.data(), i, double(pick(rng, -1000, 1000)) / 8.0, RoundMode::CAST_RINT,
                                 SaturationMode::OFF);
    return gm;
}

// Stores a random accumulator of `v` into a random `layout` tensor with the engine and compares the whole
// buffer with the reference: the converted values where the offsets put them, every other byte kept.
// With a `code`, the store must stop with it and write nothing.
void check_store(std::mt19937& rng, Layout layout, const Variant& v, const std::string& code = {})
{
    const ConvTensor t = random_tensor(rng, layout, v.out);
    Accumulator acc(rng, v.acc, int(t.pixels()), int(t.channels()));
    std::vector<std::byte> gm = random_tensor_bytes(rng, size_t(t.elements), v.out, v.atomic);

    std::vector<uint64_t> words = random_words(rng, acc.tile.cols);
    TileDesc table;
    table.loc = TileType::Scaling;
    table.dtype = DType::U64;
    table.rows = table.valid_rows = 1;
    table.cols = table.valid_cols = acc.tile.cols;
    table.data = reinterpret_cast<std::byte*>(words.data());

    const std::vector<int64_t> tile_at = tile_offsets(acc.tile);
    const std::vector<std::byte> expected =
        !code.empty() ? gm
                      : reference_store(
                            t, gm, v, [&](int64_t r, int64_t ch) { return acc.bits(tile_at[size_t(r * acc.tile.cols + ch)]); },
                            [&](int64_t ch) {
                                return quant_scale(words[v.conversion == Conversion::Table ? size_t(ch) : 0]);
                            });
    const GlobalDesc g = t.desc(gm.data());
    const AtomicType atomic = v.atomic ? AtomicType::AtomicAdd : AtomicType::AtomicNone;
    const ReluPreMode relu = v.relu ? ReluPreMode::NormalRelu : ReluPreMode::NoRelu;
    const auto d = diagnostic_of([&] {
        if (v.conversion == Conversion::Plain) engine::tstore(g, acc.tile, atomic, relu);
        else if (v.conversion == Conversion::Scalar) engine::tstore(g, acc.tile, {.scalar = words[0]}, relu, atomic);
        else engine::tstore(g, acc.tile, {.per_column = &table}, relu, atomic);
    });
    ASSERT_EQ(d.code, code.empty() ? "no error" : code) << d.message;
    for (size_t i = 0; i < gm.size(); ++i)
        ASSERT_EQ(gm[i], expected[i]) << "byte " << i << " (element " << i / size_t(element_bytes(v.out)) << ") of shape ("
                                      << t.shape[0] << ", " << t.shape[1] << ", " << t.shape[2] << ", " << t.shape[3]
                                      << ", " << t.shape[4] << "), accumulator " << acc.tile.valid_rows << "x"
                                      << acc.tile.valid_cols << " of " << acc.tile.rows << "x" << acc.tile.cols;
}

}  // namespace

// Every layout x variant on every profile: a legal store against the reference (three random shapes
// each), an illegal one stopped with its code before it writes.
TEST(TstoreAccConv, EveryLayoutTypeAndConversionPerProfile)
{
    std::mt19937 rng(2024);
    int stored = 0;
    for (Target target : kTargets) {
        ScopedTarget scope(target);
        for (Layout layout : kLayouts)
            for (const Variant& v : all_variants()) {
                SCOPED_TRACE(std::string(target_name(target)) + ", " + layout_text(layout) + ", " +
                             text_of(v));
                const std::string code = expected_code(target, layout, v);
                for (int i = 0; i < (code.empty() ? 3 : 1); ++i) check_store(rng, layout, v, code);
                stored += code.empty();
            }
    }
    // Per layout, plain: 4 pairs x ReLU, and atomically into f32 and i32 (a5: i32); quantizing: the pairs
    // (a2a3 5, a5 and cpu 11) x scalar or table x ReLU, and on cpu atomically into f32; on cpu also plain
    // atomically into f16/bf16 (4) and quantizing atomically into the 8 non-f32, non-8-bit-float outputs (32).
    const int a2a3 = 2 * (8 + 4 + 5 * 4), a5 = 3 * (8 + 2 + 11 * 4), cpu = 5 * (8 + 4 + 11 * 4 + 4 + 4 + 32);
    EXPECT_EQ(stored, a2a3 + a5 + cpu);
}

// --- illegal shapes ---------------------------------------------------------------------------------------

namespace {

// The finding of storing a rows x cols accumulator of `acc` into a packed `layout` tensor of `out`
// with the 5-D `shape` (plainly, or with a pre-quant scalar where no plain store makes `out`), and
// "no error" when it stores. A stopped store writes nothing.
Diagnostic store_finding(Layout layout, DType acc, DType out, const int64_t (&shape)[5], int rows, int cols)
{
    std::mt19937 rng(uint32_t(rows * 1000 + cols));
    const ConvTensor t(layout, out, shape);
    Accumulator tile(rng, acc, rows, cols);
    std::vector<std::byte> gm = random_bytes(size_t(t.elements * element_bytes(out)), rng);
    const std::vector<std::byte> before = gm;
    const Diagnostic d = diagnostic_of([&] {
        if (plain_pair(acc, out)) engine::tstore(t.desc(gm.data()), tile.tile);
        else engine::tstore(t.desc(gm.data()), tile.tile, {.scalar = pre_quant(0.5f)}, ReluPreMode::NoRelu);
    });
    if (d.code != "no error") {
        EXPECT_TRUE(gm == before) << d.code << " after writing";
    }
    return d;
}

std::string store_code(Layout layout, DType acc, DType out, const int64_t (&shape)[5], int rows, int cols)
{
    return store_finding(layout, acc, out, shape, rows, cols).code;
}

}  // namespace

// NC1HWC0's C0 is its type's 32 bytes (i32: 16 elements; f32: 8, or 16 without the channel split);
// NHWC's and NCHW's dimension 0 and NCDHW's D have extent 1 (LEGAL_GM_CONV_SHAPE), on every profile.
TEST(TstoreAccConvIllegal, C0AndTheDimensionsTheStoreDoesNotAddress)
{
    const auto nc1hwc0 = [](DType acc, DType out, int64_t c0) {
        return store_code(Layout::NC1HWC0, acc, out, {1, 2, 2, 3, c0}, 6, int(2 * c0));
    };
    for (Target target : {Target::A2A3, Target::Cpu}) {
        ScopedTarget scope(target);
        EXPECT_EQ(nc1hwc0(DType::F32, DType::F32, 8), "no error");
        EXPECT_EQ(nc1hwc0(DType::F32, DType::F32, 16), "no error");
        EXPECT_EQ(nc1hwc0(DType::F32, DType::F32, 4), "LEGAL_GM_CONV_SHAPE");
        EXPECT_EQ(nc1hwc0(DType::F32, DType::F32, 32), "LEGAL_GM_CONV_SHAPE");
        EXPECT_EQ(nc1hwc0(DType::F32, DType::F16, 16), "no error");
        EXPECT_EQ(nc1hwc0(DType::F32, DType::F16, 8), "LEGAL_GM_CONV_SHAPE");
        EXPECT_EQ(nc1hwc0(DType::F32, DType::BF16, 32), "LEGAL_GM_CONV_SHAPE");
        EXPECT_EQ(nc1hwc0(DType::I32, DType::I32, 16), "no error");
        EXPECT_EQ(nc1hwc0(DType::I32, DType::I32, 8), "LEGAL_GM_CONV_SHAPE");  // 32 bytes, but i32 blocks are 64
        EXPECT_EQ(nc1hwc0(DType::I32, DType::I8, 32), "no error");
        EXPECT_EQ(nc1hwc0(DType::I32, DType::I8, 16), "LEGAL_GM_CONV_SHAPE");
        EXPECT_EQ(nc1hwc0(DType::I32, DType::F16, 16), "no error");
    }
    const Diagnostic d = store_finding(Layout::NC1HWC0, DType::F32, DType::F16, {1, 2, 2, 3, 8}, 6, 16);
    EXPECT_TRUE(mentions(d, "C0 (dimension 4) of 16 f16s") && mentions(d, "(1, 2, 2, 3, 8)")) << d.format();

    for (Target target : {Target::A5, Target::Cpu}) {
        ScopedTarget scope(target);
        EXPECT_EQ(store_code(Layout::NHWC, DType::F32, DType::F32, {1, 2, 3, 4, 16}, 24, 16), "no error");
        EXPECT_EQ(store_code(Layout::NHWC, DType::F32, DType::F32, {2, 1, 3, 4, 16}, 12, 16), "LEGAL_GM_CONV_SHAPE");
        EXPECT_EQ(store_code(Layout::NCHW, DType::I32, DType::I32, {2, 1, 16, 3, 4}, 12, 16), "LEGAL_GM_CONV_SHAPE");
        EXPECT_EQ(store_code(Layout::NCHW, DType::I32, DType::I32, {1, 2, 16, 3, 4}, 24, 16), "no error");
        EXPECT_EQ(store_code(Layout::NCDHW, DType::F32, DType::BF16, {2, 16, 2, 3, 4}, 24, 16), "LEGAL_GM_CONV_SHAPE");
        EXPECT_EQ(store_code(Layout::NCDHW, DType::F32, DType::BF16, {2, 16, 1, 3, 4}, 24, 16), "no error");
    }
    EXPECT_TRUE(mentions(store_finding(Layout::NCDHW, DType::F32, DType::F32, {1, 16, 3, 2, 2}, 4, 16), "D (dimension 2)"));

    static_assert(rules::acc_conv_shape_ok(Layout::NC1HWC0, DType::F32, {1, 1, 1, 1, DYNAMIC}));
    static_assert(!rules::acc_conv_shape_ok(Layout::NC1HWC0, DType::U8, {1, 1, 1, 1, 16}));
    static_assert(rules::acc_conv_shape_ok(Layout::NCDHW, DType::F32, {4, 4, DYNAMIC, 4, 4}));
    static_assert(rules::acc_conv_c0(DType::I32) == 16 && rules::acc_conv_c0(DType::F32) == 8 &&
                  rules::acc_conv_c0(DType::BF16) == 16 && rules::acc_conv_c0(DType::HiF8) == 32);
}

// The valid region is the whole view, as the devices assert: a row per pixel, a column per channel;
// fewer rows or columns are as wrong as more (RUN_GLOBAL_SHAPE).
TEST(TstoreAccConvIllegal, TheValidRegionIsTheWholeView)
{
    struct Case {
        Layout layout;
        int64_t shape[5];
        int pixels, channels;
    };
    const Case cases[] = {{Layout::NC1HWC0, {2, 2, 3, 4, 8}, 24, 16},
                          {Layout::NDC1HWC0, {2, 2, 3, 3, 4}, 24, 48},
                          {Layout::NHWC, {1, 2, 3, 4, 20}, 24, 20},
                          {Layout::NCHW, {1, 2, 20, 3, 4}, 24, 20},
                          {Layout::NCDHW, {2, 20, 1, 3, 4}, 24, 20}};
    for (const Case& c : cases) {
        SCOPED_TRACE(layout_text(c.layout));
        EXPECT_EQ(store_code(c.layout, DType::F32, DType::F32, c.shape, c.pixels, c.channels), "no error");
        for (const auto& [rows, cols] : {std::pair{c.pixels - 1, c.channels}, std::pair{c.pixels + 1, c.channels},
                                         std::pair{c.pixels, c.channels - 1}, std::pair{c.pixels, c.channels + 1}})
            EXPECT_EQ(store_code(c.layout, DType::F32, DType::F32, c.shape, rows, cols), "RUN_GLOBAL_SHAPE")
                << rows << " x " << cols;
    }
    const Diagnostic d = store_finding(Layout::NDC1HWC0, DType::F32, DType::F32, {2, 2, 3, 3, 4}, 24, 40);
    EXPECT_TRUE(mentions(d, "24 x 48") && mentions(d, "24 x 40")) << d.format();
    // Each profile's own layouts, and their accumulator shapes: Cols a multiple of 16, Rows up to 65535.
    {
        ScopedTarget a5(Target::A5);
        EXPECT_EQ(store_code(Layout::NCHW, DType::F32, DType::F32, {1, 2, 20, 3, 4}, 24, 19), "RUN_GLOBAL_SHAPE");
    }
    static_assert(rules::acc_store_shape_ok(Layout::NDC1HWC0, 65535, 4080));
    static_assert(!rules::acc_store_shape_ok(Layout::NHWC, 65536, 16) && !rules::acc_store_shape_ok(Layout::NCDHW, 16, 24));
    static_assert(rules::acc_conv_extent_ok(Layout::NHWC, DType::F32, {1, DYNAMIC, 4, 4, 16}, 100, 16));
    static_assert(!rules::acc_conv_extent_ok(Layout::NHWC, DType::F32, {1, DYNAMIC, 4, 4, 16}, 100, 15));
}

// NDC1HWC0 writes C0 consecutive elements after its last W position: inside the allocation
// (RUN_GLOBAL_OOB before any byte is written otherwise).
TEST(TstoreAccConvIllegal, TheLastC0RunStaysInTheAllocation)
{
    constexpr int64_t kElements = 2 * 3 * 8;  // (1, 1, 1, 2, 3) pixels x C0 = 8 floats
    void* p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, kElements * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::memset(p, 0, kElements * 4);
    std::mt19937 rng(5);
    Accumulator acc(rng, DType::F32, 6, 8);
    ConvTensor t(Layout::NDC1HWC0, DType::F32, {1, 1, 1, 2, 3});
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(t.desc(static_cast<std::byte*>(p)), acc.tile); }).code, "no error");
    std::memset(p, 0, kElements * 4);
    const Diagnostic d = diagnostic_of([&] { engine::tstore(t.desc(static_cast<std::byte*>(p) + 4), acc.tile); });
    EXPECT_EQ(d.code, "RUN_GLOBAL_OOB");
    EXPECT_TRUE(mentions(d, "191") && mentions(d, "188")) << d.format();  // 47 * 4 + 3, past 188 bytes
    for (int64_t i = 0; i < kElements; ++i) ASSERT_EQ(static_cast<float*>(p)[i], 0.0f) << i;
    aclrtFree(p);
}

// Checked mode on the cpu profile: a store no real target makes warns, naming a5's rule; one a2a3 or
// a5 makes does not.
TEST(TstoreAccConvChecked, CpuOnlyCombinationsWarn)
{
    ScopedChecked checked;
    const auto warning = [](Layout layout, DType out, const int64_t (&shape)[5], int rows, int cols,
                            AtomicType atomic) -> std::string {
        std::mt19937 rng(9);
        const ConvTensor t(layout, out, shape);
        Accumulator acc(rng, DType::F32, rows, cols);
        std::vector<std::byte> gm(size_t(t.elements * element_bytes(out)));
        runtime::clear_warnings();
        if (out == DType::F32 || out == DType::F16) engine::tstore(t.desc(gm.data()), acc.tile, atomic);
        else engine::tstore(t.desc(gm.data()), acc.tile, {.scalar = pre_quant(0.25f)}, ReluPreMode::NoRelu, atomic);
        const std::string found = runtime::warnings().empty() ? "none" : runtime::warnings()[0].message;
        runtime::clear_warnings();
        return found;
    };
    EXPECT_EQ(warning(Layout::NC1HWC0, DType::F16, {1, 1, 2, 2, 16}, 4, 16, AtomicType::AtomicNone), "none");
    EXPECT_EQ(warning(Layout::NHWC, DType::F32, {1, 1, 2, 2, 16}, 4, 16, AtomicType::AtomicNone), "none");
    // e4m3 is a5's, NC1HWC0 a2a3's; an f32 atomic add a2a3's, NHWC a5's.
    EXPECT_NE(warning(Layout::NC1HWC0, DType::F8E4M3, {1, 1, 2, 2, 32}, 4, 32, AtomicType::AtomicNone).find("LEGAL_GM_LAYOUT"),
              std::string::npos);
    EXPECT_NE(warning(Layout::NHWC, DType::F32, {1, 1, 2, 2, 16}, 4, 16, AtomicType::AtomicAdd).find("LEGAL_TSTORE_ATOMIC"),
              std::string::npos);
}

// --- the intrinsics ---------------------------------------------------------------------------------------

namespace {

template <typename T, Layout L, int64_t... Dims>
using ConvGlobal = GlobalTensor<T, Shape<Dims...>, Stride<>, L>;

// The GlobalTensor `G` over t's view of `gm`, with t's strides.
template <typename G>
G global_over(std::vector<std::byte>& gm, const ConvTensor& t)
{
    return G(reinterpret_cast<typename G::DType*>(gm.data()) + t.first, {},
             Stride<>(t.stride[0], t.stride[1], t.stride[2], t.stride[3], t.stride[4]));
}

}  // namespace

// Each TSTORE form of an accumulator (plain, STPhase, ReLU, pre-quant scalar, TSTORE_FP, atomic add as a
// template and as a run-time argument) into a tensor of each convolution layout, on the cpu profile.
TEST(TstoreAccConvIntrinsics, EveryFormIntoEachLayout)
{
    std::mt19937 rng(31);
    using AccF = TileAcc<float, 32, 48, DYNAMIC, DYNAMIC>;
    using AccI = TileAcc<int32_t, 32, 48, DYNAMIC, DYNAMIC>;
    AccF facc(24, 32);
    AccI iacc(24, 20);
    fill_accumulator(facc, rng);
    fill_accumulator(iacc, rng);
    const auto of_f = [&](int64_t r, int64_t c) { return std::bit_cast<uint32_t>(acc_at(facc, int(r), int(c))); };
    const auto of_i = [&](int64_t r, int64_t c) { return std::bit_cast<uint32_t>(acc_at(iacc, int(r), int(c))); };
    using Table = Tile<TileType::Scaling, uint64_t, 1, 48>;
    Table fp;
    const std::vector<uint64_t> words = random_words(rng, 48);
    for (int c = 0; c < 48; ++c) fp.SetValue(uint32_t(c), words[size_t(c)]);
    const auto by_column = [&](int64_t c) { return quant_scale(words[size_t(c)]); };
    const auto quarter = [](int64_t) { return 0.25f; };

    // The buffer after store(gm) against the reference of v.
    const auto check = [&](const ConvTensor& t, const Variant& v, const std::function<uint32_t(int64_t, int64_t)>& element,
                           const std::function<float(int64_t)>& scale, const auto& store) {
        std::vector<std::byte> gm = random_tensor_bytes(rng, size_t(t.elements), v.out, v.atomic);
        const std::vector<std::byte> expected = reference_store(t, gm, v, element, scale);
        store(gm);
        EXPECT_TRUE(gm == expected) << layout_text(t.layout) << ", " << text_of(v);
    };

    const ConvTensor nc1hwc0(Layout::NC1HWC0, DType::F32, {2, 2, 3, 4, 16});  // no channel split
    using G1 = ConvGlobal<float, Layout::NC1HWC0, 2, 2, 3, 4, 16>;
    check(nc1hwc0, {DType::F32, DType::F32, Conversion::Plain, false, false}, of_f, quarter, [&](auto& gm) {
        G1 g = global_over<G1>(gm, nc1hwc0);
        TSTORE(g, facc);
    });
    check(nc1hwc0, {DType::F32, DType::F32, Conversion::Plain, false, false}, of_f, quarter, [&](auto& gm) {
        G1 g = global_over<G1>(gm, nc1hwc0);
        TSTORE<STPhase::Final>(g, facc);
    });

    const ConvTensor ndc1hwc0(Layout::NDC1HWC0, DType::F16, {1, 2, 1, 4, 6});  // C0 16 halves
    using G2 = ConvGlobal<half, Layout::NDC1HWC0, 1, 2, 1, 4, 6>;
    check(ndc1hwc0, {DType::F32, DType::F16, Conversion::Plain, true, false}, of_f, quarter, [&](auto& gm) {
        G2 g = global_over<G2>(gm, ndc1hwc0);
        TSTORE<AccF, G2, AtomicType::AtomicNone, ReluPreMode::NormalRelu>(g, facc);
    });

    const ConvTensor nhwc(Layout::NHWC, DType::I8, {1, 2, 3, 4, 32});
    using G3 = ConvGlobal<int8_t, Layout::NHWC, 1, 2, 3, 4, 32>;
    check(nhwc, {DType::F32, DType::I8, Conversion::Scalar, false, false}, of_f, quarter, [&](auto& gm) {
        G3 g = global_over<G3>(gm, nhwc);
        TSTORE(g, facc, pre_quant(0.25f, 0xABC));
    });

    const ConvTensor nchw(Layout::NCHW, DType::U8, {1, 1, 32, 4, 6});
    using G4 = ConvGlobal<uint8_t, Layout::NCHW, 1, 1, 32, 4, 6>;
    check(nchw, {DType::F32, DType::U8, Conversion::Table, true, false}, of_f, by_column, [&](auto& gm) {
        G4 g = global_over<G4>(gm, nchw);
        TSTORE_FP<AccF, G4, Table, AtomicType::AtomicNone, ReluPreMode::NormalRelu>(g, facc, fp);
    });

    ConvTensor ncdhw(Layout::NCDHW, DType::I32, {2, 20, 1, 3, 4});
    ncdhw.stride[1] = 2 * ncdhw.stride[2], ncdhw.stride[0] = 20 * ncdhw.stride[1];  // depth slice 1 of 2
    ncdhw.first = ncdhw.stride[2];
    ncdhw.elements = 2 * ncdhw.stride[0];
    using G5 = ConvGlobal<int32_t, Layout::NCDHW, 2, 20, 1, 3, 4>;
    const Variant atomic{DType::I32, DType::I32, Conversion::Plain, false, true};
    check(ncdhw, atomic, of_i, quarter, [&](auto& gm) {
        G5 g = global_over<G5>(gm, ncdhw);
        TSTORE<AccI, G5, AtomicType::AtomicAdd>(g, iacc);
    });
    check(ncdhw, atomic, of_i, quarter, [&](auto& gm) {
        G5 g = global_over<G5>(gm, ncdhw);
        TSTORE(g, iacc, AtomicType::AtomicAdd);
    });
}

// The intrinsics stop illegal stores at compile time, each at the static_assert naming its rule: the
// compiler (CXX, or c++) compiles compile_fail/illegal_<target>.cpp for its target and must report
// exactly the broken rules, one per illegal function, and nothing about the legal calls.
TEST(TstoreAccConvStaticRules, OnA2A3NhwcABadC0AValidRegionThatIsNotTheViewAndTheCpuOnlyQuantizingStores)
{
    pto::test::expect_static_rules("data_movement", "a2a3",
                                   {{"LEGAL_GM_LAYOUT", 1}, {"LEGAL_GM_CONV_SHAPE", 2}, {"RUN_GLOBAL_SHAPE", 2},
                                    {"LEGAL_TSTORE_LOCATION", 1}, {"LEGAL_TSTORE_QUANT_DTYPE", 1}});
}

TEST(TstoreAccConvStaticRules, OnA5Nc1hwc0AnOuterBlockTwoDepthsTooFewChannelsAFloatAtomicAddAndTheCpuOnlyQuantizingStores)
{
    pto::test::expect_static_rules("data_movement", "a5",
                                   {{"LEGAL_GM_LAYOUT", 1}, {"LEGAL_GM_CONV_SHAPE", 2}, {"RUN_GLOBAL_SHAPE", 1},
                                    {"LEGAL_TSTORE_ATOMIC", 1}, {"LEGAL_TSTORE_LOCATION", 1},
                                    {"LEGAL_TSTORE_QUANT_DTYPE", 1}});
}

// --- PTO-AS ------------------------------------------------------------------------------------------------

namespace {

// `%name = pto.make_tensor_view %ptr` over t (its last `rank` dimensions), of type `type`; the index
// constants it names (%k<N>) go into `constants`.
std::string make_view(const std::string& name, const std::string& ptr, const ConvTensor& t, int rank,
                      const std::string& type, std::set<int64_t>& constants)
{
    std::string shape, strides;
    for (int k = 5 - rank; k < 5; ++k) {
        constants.insert(t.shape[k]);
        constants.insert(t.stride[k]);
        shape += (shape.empty() ? "%k" : ", %k") + std::to_string(t.shape[k]);
        strides += (strides.empty() ? "%k" : ", %k") + std::to_string(t.stride[k]);
    }
    return "  %" + name + " = pto.make_tensor_view %" + ptr + ", shape = [" + shape + "], strides = [" + strides + "] : " +
           type + "\n";
}

std::string constant_lines(const std::set<int64_t>& constants)
{
    std::string text;
    for (int64_t v : constants) text += "  %k" + std::to_string(v) + " = arith.constant " + std::to_string(v) + " : index\n";
    return text;
}

const std::string kAcc = "!pto.tile_buf<acc, 32x32xf32, valid=24x32, blayout=col_major, slayout=row_major, fractal=1024>";

}  // namespace

// An accumulator (loaded, as the cpu profile allows) stored into each convolution layout, the layout
// named by `#pto.layout<...>` in either case, a 4-D view for NHWC and NCHW, a depth slice of NCDHW
// through pto.partition_view; plain, relu, the pre-quant scalar, pto.tstore.fp and atomic add.
TEST(TstoreAccConvText, EveryLayoutAndFormRuns)
{
    std::mt19937 rng(77);
    const ConvTensor a(Layout::NC1HWC0, DType::F32, {2, 2, 3, 4, 16});
    const ConvTensor b(Layout::NDC1HWC0, DType::F16, {1, 2, 1, 4, 6});
    const ConvTensor c(Layout::NHWC, DType::I8, {1, 2, 3, 4, 32});
    const ConvTensor d(Layout::NCHW, DType::U8, {1, 1, 32, 4, 6});
    ConvTensor e(Layout::NCDHW, DType::F32, {2, 32, 2, 3, 4}), slice(Layout::NCDHW, DType::F32, {2, 32, 1, 3, 4});
    std::copy(e.stride, e.stride + 5, slice.stride);
    slice.first = e.stride[2];
    slice.elements = e.elements;

    std::set<int64_t> constants = {0, 1, 2, 16, 32, 256, 512, 1024};
    std::string views = make_view("av", "a", a, 5, "!pto.tensor_view<?x?x?x?x?xf32, #pto.layout<nc1hwc0>>", constants) +
                        make_view("bv", "b", b, 5, "!pto.tensor_view<?x?x?x?x?xf16, #pto.layout<ndc1hwc0>>", constants) +
                        make_view("cv", "c", c, 4, "!pto.tensor_view<?x?x?x?xi8, #pto.layout<nhwc>>", constants) +
                        make_view("dv", "d", d, 4, "!pto.tensor_view<?x?x?x?xui8, #pto.layout<NCHW>>", constants) +
                        make_view("ev", "e", e, 5, "!pto.tensor_view<?x?x?x?x?xf32, #pto.layout<ncdhw>>", constants);
    const std::string program =
        "func.func @f(%x: !pto.ptr<f32>, %fp: !pto.ptr<ui64>, %a: !pto.ptr<f32>, %b: !pto.ptr<f16>, %c: !pto.ptr<i8>, "
        "%d: !pto.ptr<ui8>, %e: !pto.ptr<f32>) {\n" +
        constant_lines(constants) + "  %scale = arith.constant 0.25 : f32\n" +
        "  %xv = pto.make_tensor_view %x, shape = [%k1, %k2, %k2, %k16, %k16], strides = [%k1024, %k512, %k256, %k16, %k1] "
        ": !pto.tensor_view<?x?x?x?x?xf32, #pto.layout<nz>>\n"
        "  %fv = pto.make_tensor_view %fp, shape = [%k1, %k32], strides = [%k32, %k1] : !pto.tensor_view<?x?xui64>\n" +
        views +
        "  %ep = pto.partition_view %ev, offsets = [%k0, %k0, %k1, %k0, %k0], sizes = [%k2, %k32, %k1, %k3, %k4] : "
        "!pto.tensor_view<?x?x?x?x?xf32, #pto.layout<ncdhw>> -> !pto.partition_tensor_view<2x32x1x3x4xf32>\n"
        "  %acc = pto.alloc_tile : " + kAcc + "\n"
        "  %fmat = pto.alloc_tile : !pto.tile_buf<mat, 1x32xui64>\n"
        "  %tab = pto.alloc_tile : !pto.tile_buf<scaling, 1x32xui64>\n"
        "  pto.tload ins(%xv : !pto.tensor_view<?x?x?x?x?xf32, #pto.layout<nz>>) outs(%acc : " + kAcc + ")\n"
        "  pto.tload ins(%fv : !pto.tensor_view<?x?xui64>) outs(%fmat : !pto.tile_buf<mat, 1x32xui64>)\n"
        "  pto.tmov ins(%fmat : !pto.tile_buf<mat, 1x32xui64>) outs(%tab : !pto.tile_buf<scaling, 1x32xui64>)\n"
        "  pto.tstore ins(%acc : " + kAcc + ") outs(%av : !pto.tensor_view<?x?x?x?x?xf32, #pto.layout<nc1hwc0>>)\n"
        "  pto.tstore ins(%acc : " + kAcc + ") outs(%bv : !pto.tensor_view<?x?x?x?x?xf16, #pto.layout<ndc1hwc0>>) "
        "{relu = #pto<relu_mode NormalRelu>}\n"
        "  pto.tstore ins(%acc, %scale : " + kAcc + ", f32) outs(%cv : !pto.tensor_view<?x?x?x?xi8, #pto.layout<nhwc>>)\n"
        "  pto.tstore.fp ins(%acc, %tab : " + kAcc + ", !pto.tile_buf<scaling, 1x32xui64>) outs(%dv : "
        "!pto.tensor_view<?x?x?x?xui8, #pto.layout<NCHW>>) {relu = #pto<relu_mode NormalRelu>}\n"
        "  pto.tstore ins(%acc : " + kAcc + ") outs(%ep : !pto.partition_tensor_view<2x32x1x3x4xf32>) "
        "{atomic = #pto<atomic_type AtomicAdd>}\n"
        "  return\n}\n";
    const as::ParseResult parsed = as::parse(program, "conv.pto");
    ASSERT_TRUE(parsed.ok()) << parsed.diagnostics[0].format() << "\n" << program;
    const auto found = as::verify(parsed.module, Target::Cpu);
    ASSERT_TRUE(found.empty()) << found[0].format();

    std::vector<float> x(32 * 32);  // an NZ matrix: 16 x 16 boxes, the two box columns outermost
    for (auto& v : x) v = std::uniform_real_distribution<float>(-300.0f, 300.0f)(rng);
    std::vector<uint64_t> fp = random_words(rng, 32);
    std::vector<std::byte> ga = random_tensor_bytes(rng, size_t(a.elements), DType::F32, false),
                           gb = random_tensor_bytes(rng, size_t(b.elements), DType::F16, false),
                           gc = random_tensor_bytes(rng, size_t(c.elements), DType::I8, false),
                           gd = random_tensor_bytes(rng, size_t(d.elements), DType::U8, false),
                           ge = random_tensor_bytes(rng, size_t(e.elements), DType::F32, true);
    const auto element = [&](int64_t r, int64_t ch) {
        return std::bit_cast<uint32_t>(x[size_t(ch / 16 * 512 + r / 16 * 256 + r % 16 * 16 + ch % 16)]);
    };
    const auto quarter = [](int64_t) { return 0.25f; };
    const auto by_column = [&](int64_t ch) { return quant_scale(fp[size_t(ch)]); };
    const auto want = [&](const ConvTensor& t, const std::vector<std::byte>& gm, DType out, Conversion conversion,
                          bool relu, bool atomic) {
        return reference_store(t, gm, {DType::F32, out, conversion, relu, atomic}, element,
                               conversion == Conversion::Table ? std::function<float(int64_t)>(by_column) : quarter);
    };
    const std::vector<std::byte> want_a = want(a, ga, DType::F32, Conversion::Plain, false, false),
                                 want_b = want(b, gb, DType::F16, Conversion::Plain, true, false),
                                 want_c = want(c, gc, DType::I8, Conversion::Scalar, false, false),
                                 want_d = want(d, gd, DType::U8, Conversion::Table, true, false),
                                 want_e = want(slice, ge, DType::F32, Conversion::Plain, false, true);

    using pto::test::argument;
    const as::RunResult r = as::run(parsed.module,
                                    {argument("x", x), argument("fp", fp), argument("a", ga), argument("b", gb),
                                     argument("c", gc), argument("d", gd), argument("e", ge)},
                                    {});
    ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();
    EXPECT_TRUE(ga == want_a) << "NC1HWC0";
    EXPECT_TRUE(gb == want_b) << "NDC1HWC0, relu";
    EXPECT_TRUE(gc == want_c) << "NHWC, pre-quant scalar";
    EXPECT_TRUE(gd == want_d) << "NCHW, pto.tstore.fp, relu";
    EXPECT_TRUE(ge == want_e) << "NCDHW depth slice 1, atomic add";
}

namespace {

// One pto.tstore of a 32x32 f32 accumulator with `valid` rows x cols into a view `%v` of type `view`
// (made with the `shape` constants): what the verifier reports for `target`, and what the run stops with.
struct TextVerdict {
    std::vector<std::string> verified;
    std::string ran;
};

TextVerdict text_verdict(Target target, const std::string& view, const std::vector<int64_t>& shape, const std::string& valid)
{
    std::set<int64_t> constants = {1};
    std::string dims, strides;
    int64_t stride = 1;
    for (size_t k = shape.size(); k-- > 0;) {
        constants.insert(shape[k]);
        constants.insert(stride);
        dims = "%k" + std::to_string(shape[k]) + (dims.empty() ? "" : ", ") + dims;
        strides = "%k" + std::to_string(stride) + (strides.empty() ? "" : ", ") + strides;
        stride *= shape[k];
    }
    const std::string acc =
        "!pto.tile_buf<acc, 32x32xf32, valid=" + valid + ", blayout=col_major, slayout=row_major, fractal=1024>";
    const std::string program = "func.func @f(%p: !pto.ptr<f32>) {\n" + constant_lines(constants) +
                                "  %v = pto.make_tensor_view %p, shape = [" + dims + "], strides = [" + strides + "] : " +
                                view + "\n  %acc = pto.alloc_tile : " + acc + "\n  pto.tstore ins(%acc : " + acc +
                                ") outs(%v : " + view + ")\n  return\n}\n";
    const as::ParseResult parsed = as::parse(program, "v.pto");
    EXPECT_TRUE(parsed.ok()) << program;
    if (!parsed.ok()) return {};
    TextVerdict verdict;
    for (const Diagnostic& d : as::verify(parsed.module, target)) verdict.verified.push_back(d.code);
    static std::vector<float> buffer(1 << 16);
    ScopedTarget restore(target);  // the run leaves its target active
    as::RunOptions options;
    options.target = target;
    const as::RunResult r = as::run(parsed.module, {pto::test::argument("p", buffer)}, options);
    verdict.ran = r.ok() ? "" : r.diagnostics[0].code;
    return verdict;
}

}  // namespace

// The verifier reports what the run stops at, when the view's type states the extents; a `?` extent is
// left to the run.
TEST(TstoreAccConvText, VerifierAndRunAgreePerTarget)
{
    using Codes = std::vector<std::string>;
    const std::string nc1hwc0 = "!pto.tensor_view<2x2x3x4x16xf32, #pto.layout<nc1hwc0>>";
    struct Case {
        Target target;
        std::string view;
        std::vector<int64_t> shape;
        std::string valid;
        Codes verified;
        std::string ran;
    };
    const Case cases[] = {
        {Target::A2A3, nc1hwc0, {2, 2, 3, 4, 16}, "24x32", {}, ""},
        {Target::Cpu, nc1hwc0, {2, 2, 3, 4, 16}, "24x32", {}, ""},
        {Target::A5, nc1hwc0, {2, 2, 3, 4, 16}, "24x32", {"LEGAL_GM_LAYOUT"}, "LEGAL_GM_LAYOUT"},
        {Target::A2A3, "!pto.tensor_view<2x2x3x4x8xf32, #pto.layout<NC1HWC0>>", {2, 2, 3, 4, 8}, "24x16", {}, ""},
        {Target::A2A3, "!pto.tensor_view<2x4x3x4x4xf32, #pto.layout<NC1HWC0>>", {2, 4, 3, 4, 4}, "24x16",
         {"LEGAL_GM_CONV_SHAPE"}, "LEGAL_GM_CONV_SHAPE"},
        {Target::Cpu, nc1hwc0, {2, 2, 3, 4, 16}, "20x32", {"RUN_GLOBAL_SHAPE"}, "RUN_GLOBAL_SHAPE"},
        {Target::Cpu, "!pto.tensor_view<?x?x?x?x?xf32, #pto.layout<nc1hwc0>>", {2, 2, 3, 4, 16}, "20x32", {},
         "RUN_GLOBAL_SHAPE"},
        {Target::A2A3, "!pto.tensor_view<1x2x2x3x4xf32, #pto.layout<ndc1hwc0>>", {1, 2, 2, 3, 4}, "12x32", {}, ""},
        {Target::A5, "!pto.tensor_view<2x3x4x32xf32, #pto.layout<nhwc>>", {2, 3, 4, 32}, "24x32", {}, ""},
        {Target::A2A3, "!pto.tensor_view<2x3x4x32xf32, #pto.layout<nhwc>>", {2, 3, 4, 32}, "24x32", {"LEGAL_GM_LAYOUT"},
         "LEGAL_GM_LAYOUT"},
        {Target::A5, "!pto.tensor_view<2x2x3x4x32xf32, #pto.layout<nhwc>>", {2, 2, 3, 4, 32}, "24x32",
         {"LEGAL_GM_CONV_SHAPE"}, "LEGAL_GM_CONV_SHAPE"},
        {Target::A5, "!pto.tensor_view<2x32x3x4xf32, #pto.layout<nchw>>", {2, 32, 3, 4}, "24x32", {}, ""},
        {Target::A5, "!pto.tensor_view<2x32x2x3x4xf32, #pto.layout<ncdhw>>", {2, 32, 2, 3, 4}, "24x32",
         {"LEGAL_GM_CONV_SHAPE"}, "LEGAL_GM_CONV_SHAPE"},
        {Target::A5, "!pto.tensor_view<2x31x1x3x4xf32, #pto.layout<ncdhw>>", {2, 31, 1, 3, 4}, "24x32",
         {"RUN_GLOBAL_SHAPE"}, "RUN_GLOBAL_SHAPE"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(target_name(c.target)) + " " + c.view + " valid " + c.valid);
        const TextVerdict v = text_verdict(c.target, c.view, c.shape, c.valid);
        EXPECT_EQ(v.verified, c.verified);
        EXPECT_EQ(v.ran, c.ran);
    }
}
