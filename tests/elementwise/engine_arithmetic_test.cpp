// TADD / TSUB / TMUL / TDIV through the engine entries with hand-built descriptors: every element type
// the cpu profile takes, every layout (also mixed between operands), random capacities and valid
// regions, every kind of aliasing between the operands.
#include "support.hpp"

using namespace pto;
using namespace ewtest;

namespace {

template <typename T>
class EngineArithmetic : public ::testing::Test {};

using ElementTypes =
    ::testing::Types<float, half, bfloat16_t, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>;
TYPED_TEST_SUITE(EngineArithmetic, ElementTypes);

int pick(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// A random capacity for `layout`: whole boxes when boxed, any shape otherwise (the engine does not
// need the 32-byte line rule of Tile types).
template <typename T>
void random_capacity(std::mt19937& rng, Layout2 layout, int& rows, int& cols)
{
    int br, bc;
    box_shape<T>(layout, br, bc);
    if (layout.s != SLayout::NoneBox) {
        rows = br * pick(rng, 1, 3);
        cols = bc * pick(rng, 1, 3);
    } else {
        rows = pick(rng, 1, 24);
        cols = pick(rng, 1, 300);  // long enough for whole vectors and a scalar tail
    }
}

// A random valid extent: often the whole capacity, often part of it, sometimes empty.
int random_extent(std::mt19937& rng, int capacity)
{
    switch (rng() % 4) {
        case 0: return capacity;
        case 1: return rng() % 2 ? 0 : pick(rng, 0, capacity);
        default: return pick(rng, 1, capacity);
    }
}

template <typename T>
std::string shape_context(const HostTile<T>& dst, Layout2 layout)
{
    const TileDesc& d = dst.desc();
    return layout_label(layout) + " " + std::to_string(d.rows) + "x" + std::to_string(d.cols) + " valid " +
           std::to_string(d.valid_rows) + "x" + std::to_string(d.valid_cols);
}

}  // namespace

TYPED_TEST(EngineArithmetic, MatchesTheReferenceInEveryLayout)
{
    using T = TypeParam;
    std::mt19937 rng(1234 + static_cast<unsigned>(Elem<T>::dtype));
    for (Arith op : kOps) {
        if (!cpu_allows(op, Elem<T>::dtype)) continue;
        for (Layout2 layout : kLayouts) {
            for (int trial = 0; trial < 12; ++trial) {
                int rows, cols;
                random_capacity<T>(rng, layout, rows, cols);
                const int vr = random_extent(rng, rows), vc = random_extent(rng, cols);
                HostTile<T> dst(rows, cols, vr, vc, layout, rng);
                // Unboxed sources get their own capacities (other line strides); boxed ones keep dst's.
                int r0 = rows, c0 = cols, r1 = rows, c1 = cols;
                if (layout.s == SLayout::NoneBox) {
                    r0 = vr + pick(rng, 0, 3);
                    c0 = vc + pick(rng, 0, 9);
                    r1 = vr + pick(rng, 0, 3);
                    c1 = vc + pick(rng, 0, 9);
                }
                HostTile<T> src0(std::max(r0, 1), std::max(c0, 1), vr, vc, layout, rng);
                HostTile<T> src1(std::max(r1, 1), std::max(c1, 1), vr, vc, layout, rng);
                if (op == Arith::Div) {
                    for (auto& e : src1.storage()) e = random_value<T>(rng, /*nonzero=*/true);
                }
                run_and_check<T>(op, dst, src0, src1, shape_context(dst, layout));
            }
        }
    }
}

TYPED_TEST(EngineArithmetic, OperandsMayHaveDifferentLayouts)
{
    using T = TypeParam;
    std::mt19937 rng(99 + static_cast<unsigned>(Elem<T>::dtype));
    // Whole boxes for every layout: box sides are powers of two, so the largest is a multiple of each.
    int rows = 1, cols = 1;
    for (Layout2 layout : kLayouts) {
        int br, bc;
        box_shape<T>(layout, br, bc);
        rows = std::max(rows, 2 * br);
        cols = std::max(cols, 2 * bc);
    }
    for (Arith op : kOps) {
        if (!cpu_allows(op, Elem<T>::dtype)) continue;
        for (Layout2 dst_layout : kLayouts) {
            HostTile<T> dst(rows, cols, rows - 3, cols - 1, dst_layout, rng);
            HostTile<T> src0(rows, cols, rows - 3, cols - 1, kColMajor, rng);
            HostTile<T> src1(rows, cols, rows - 3, cols - 1, kNz, rng);
            if (op == Arith::Div) {
                for (auto& e : src1.storage()) e = random_value<T>(rng, true);
            }
            run_and_check<T>(op, dst, src0, src1, "dst " + layout_label(dst_layout) + ", src0 col-major, src1 Nz");
        }
    }
}

TYPED_TEST(EngineArithmetic, LongRowsUseEveryVectorWidthAndTail)
{
    using T = TypeParam;
    std::mt19937 rng(7 + static_cast<unsigned>(Elem<T>::dtype));
    for (Arith op : kOps) {
        if (!cpu_allows(op, Elem<T>::dtype)) continue;
        for (int cols : {1, 7, 31, 64, 65, 127, 128, 129, 513, 1031}) {
            HostTile<T> dst(3, cols, 3, cols, kRowMajor, rng), src0(3, cols, 3, cols, kRowMajor, rng),
                src1(3, cols, 3, cols, kRowMajor, rng);
            if (op == Arith::Div) {
                for (auto& e : src1.storage()) e = random_value<T>(rng, true);
            }
            run_and_check<T>(op, dst, src0, src1, std::to_string(cols) + " columns");
        }
    }
}

// --- aliasing ------------------------------------------------------------------------------------

namespace {

// The expected results of dst = op(src0, src1), from a snapshot of the memory at `base` that both
// sources view, taken before the call.
template <typename T, typename S = typename Elem<T>::Storage>
std::vector<S> expected_from(Arith op, const TileDesc& a, const TileDesc& b, const std::vector<S>& snapshot,
                             const std::byte* base)
{
    std::vector<S> out;
    for (int r = 0; r < a.valid_rows; ++r) {
        for (int c = 0; c < a.valid_cols; ++c) {
            const auto ia = std::size_t((a.data - base) / int64_t(sizeof(S)) + a.offset(r, c));
            const auto ib = std::size_t((b.data - base) / int64_t(sizeof(S)) + b.offset(r, c));
            out.push_back(reference<T>(op, snapshot[ia], snapshot[ib]));
        }
    }
    return out;
}

template <typename T, typename S = typename Elem<T>::Storage>
void expect_results(Arith op, const TileDesc& dst, const std::vector<S>& expected, const char* what)
{
    const S* p = reinterpret_cast<const S*>(dst.data);
    std::size_t i = 0;
    for (int r = 0; r < dst.valid_rows; ++r) {
        for (int c = 0; c < dst.valid_cols; ++c, ++i) {
            ASSERT_TRUE(same_result<T>(expected[i], p[dst.offset(r, c)]))
                << op_name(op) << " " << what << ": element (" << r << ", " << c << ")";
        }
    }
}

template <typename T>
void check_aliasing()
{
    using S = typename Elem<T>::Storage;
    std::mt19937 rng(5 + static_cast<unsigned>(Elem<T>::dtype));
    constexpr int kRows = 12, kCols = 40;
    for (Arith op : kOps) {
        if (!cpu_allows(op, Elem<T>::dtype)) continue;
        // One buffer with room for shifted views on both sides.
        std::vector<S> memory(kRows * kCols * 3);
        const auto refill = [&] {
            for (S& e : memory) e = random_value<T>(rng, op == Arith::Div);
        };
        std::byte* base = reinterpret_cast<std::byte*>(memory.data());
        const auto view = [&](int64_t first_element, Layout2 layout, int valid_rows, int valid_cols) {
            TileDesc d;
            d.dtype = Elem<T>::dtype;
            d.data = base + first_element * int64_t(sizeof(S));
            d.rows = kRows;
            d.cols = kCols;
            d.valid_rows = valid_rows;
            d.valid_cols = valid_cols;
            d.blayout = layout.b;
            d.slayout = layout.s;
            return d;
        };
        const int64_t middle = kRows * kCols;
        struct Case {
            const char* what;
            TileDesc dst, src0, src1;
        };
        const TileDesc same = view(middle, kRowMajor, 10, 33);
        const Case cases[] = {
            {"dst is src0", same, same, view(0, kRowMajor, 10, 33)},
            {"dst is src1", same, view(2 * middle, kRowMajor, 10, 33), same},
            {"dst is src0 is src1", same, same, same},
            {"dst starts 5 elements after src0", view(middle + 5, kRowMajor, 10, 33), view(middle, kRowMajor, 10, 33),
             view(0, kRowMajor, 10, 33)},
            {"dst starts 3 rows before src1", view(middle - 3 * kCols, kRowMajor, 10, 33), view(0, kRowMajor, 10, 33),
             view(middle, kRowMajor, 10, 33)},
            {"dst row-major over col-major src0 and src1", view(middle, kRowMajor, 12, 12),
             view(middle, kColMajor, 12, 12), view(middle + 7, kColMajor, 12, 12)},
        };
        for (const Case& k : cases) {
            refill();
            const auto expected = expected_from<T>(op, k.src0, k.src1, memory, base);
            run_engine(op, k.dst, k.src0, k.src1);
            expect_results<T>(op, k.dst, expected, k.what);
        }
    }
}

}  // namespace

TYPED_TEST(EngineArithmetic, AliasedOperandsReadEverySourceBeforeWriting)
{
    check_aliasing<TypeParam>();
}
