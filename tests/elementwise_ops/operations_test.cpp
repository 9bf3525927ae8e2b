// Every element-wise operation functor through its kernel (unary, tile-tile, tile-scalar in both operand
// orders, three operands with dst as an input), for every element type it is defined for, against a
// reference written from the decided semantics: double-precision steps each rounded to float, then one
// rounding to half / bfloat16 by table search; 128-bit integers. Random shapes, whole and partial valid
// regions, every layout (row- and column-major lines take the vector loops, boxed layouts the element
// path, and both must give the reference bits), in-place operation, special values, integer edge cases,
// and every SIMD target this CPU runs.
#include "elementwise/support.hpp"

#include <hwy/targets.h>

#include <array>
#include <bit>
#include <cmath>
#include <memory>

#include "engine/elementwise/binary_kernel.hpp"
#include "engine/elementwise/operations.hpp"
#include "engine/elementwise/scalar_kernel.hpp"
#include "engine/elementwise/ternary_kernel.hpp"
#include "engine/elementwise/unary_kernel.hpp"

using namespace pto;
using namespace ewtest;
namespace ew = pto::engine::elementwise;

namespace {

using I128 = __int128;

// --- reference semantics ---------------------------------------------------------------------------

template <typename T>
constexpr bool kIsFloat = std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

// One step of float arithmetic: the exact (double) result rounded to float.
float f(double x) { return static_cast<float>(x); }

float ref_max(float a, float b)
{
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == 0 && b == 0) return (std::signbit(a) && std::signbit(b)) ? -0.0f : 0.0f;
    return a > b ? a : b;
}
float ref_min(float a, float b)
{
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == 0 && b == 0) return (std::signbit(a) || std::signbit(b)) ? -0.0f : 0.0f;
    return a < b ? a : b;
}
float ref_relu(float a) { return ref_max(a, 0.0f); }

// Floor remainder from its definition, in double (fmod is exact), the correction rounded to float.
float ref_rem(float a, float b)
{
    const double r = std::fmod(double(a), double(b));
    if (r == 0) return std::copysign(0.0f, b);
    if (std::isnan(r)) return r;
    return (r < 0) != (b < 0) ? f(r + b) : f(r);
}

template <typename Op>
float float_reference(float a, float b, float c)
{
    if constexpr (std::is_same_v<Op, ew::Add>) return f(double(a) + b);
    else if constexpr (std::is_same_v<Op, ew::Sub>) return f(double(a) - b);
    else if constexpr (std::is_same_v<Op, ew::Mul>) return f(double(a) * b);
    else if constexpr (std::is_same_v<Op, ew::Div>) return f(double(a) / b);
    else if constexpr (std::is_same_v<Op, ew::Max>) return ref_max(a, b);
    else if constexpr (std::is_same_v<Op, ew::Min>) return ref_min(a, b);
    else if constexpr (std::is_same_v<Op, ew::Rem>) return ref_rem(a, b);
    else if constexpr (std::is_same_v<Op, ew::Fmod>) return f(std::fmod(double(a), double(b)));
    else if constexpr (std::is_same_v<Op, ew::Prelu>) return a > 0 ? a : f(double(a) * b);
    else if constexpr (std::is_same_v<Op, ew::SubRelu>) return ref_relu(f(double(a) - b));
    else if constexpr (std::is_same_v<Op, ew::Expand>) return b;
    else if constexpr (std::is_same_v<Op, ew::Abs>) return std::fabs(a);
    else if constexpr (std::is_same_v<Op, ew::Neg>) return -a;
    else if constexpr (std::is_same_v<Op, ew::Relu>) return ref_relu(a);
    else if constexpr (std::is_same_v<Op, ew::AddC>) return f(double(f(double(a) + b)) + c);
    else if constexpr (std::is_same_v<Op, ew::SubC>) return f(double(f(double(a) - b)) + c);
    else if constexpr (std::is_same_v<Op, ew::MulAdd>) return f(double(f(double(a) * b)) + c);
    else if constexpr (std::is_same_v<Op, ew::MulAddRelu>) return ref_relu(f(double(f(double(a) * b)) + c));
}

template <typename T>
I128 wrap(I128 x)
{
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<unsigned __int128>(x)));
}

template <typename Op, typename T>
T int_reference(T a, T b, T c)
{
    constexpr int kWidth = sizeof(T) * 8;
    const I128 x = a, y = b, z = c;
    const auto count = static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(b));
    if constexpr (std::is_same_v<Op, ew::Add>) return T(wrap<T>(x + y));
    else if constexpr (std::is_same_v<Op, ew::Sub>) return T(wrap<T>(x - y));
    else if constexpr (std::is_same_v<Op, ew::Mul>) return T(wrap<T>(x * y));
    else if constexpr (std::is_same_v<Op, ew::Div>) {
        if (y == 0) return a == 0 ? T{0} : (a > 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min());
        return T(std::clamp<I128>(x / y, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
    } else if constexpr (std::is_same_v<Op, ew::Max>) return std::max(a, b);
    else if constexpr (std::is_same_v<Op, ew::Min>) return std::min(a, b);
    else if constexpr (std::is_same_v<Op, ew::And>) return T(a & b);
    else if constexpr (std::is_same_v<Op, ew::Or>) return T(a | b);
    else if constexpr (std::is_same_v<Op, ew::Xor>) return T(a ^ b);
    else if constexpr (std::is_same_v<Op, ew::Shl>) return count >= kWidth ? T{0} : T(wrap<T>(x << count));
    else if constexpr (std::is_same_v<Op, ew::Shr>) {
        if (count >= kWidth) return x < 0 ? T(-1) : T{0};
        return T(x >> count);  // 128-bit arithmetic shift of a sign-extended value
    } else if constexpr (std::is_same_v<Op, ew::Fmod>) return y == 0 ? a : T(x % y);
    else if constexpr (std::is_same_v<Op, ew::Rem>) {
        if (y == 0) return a;
        const I128 r = x % y;  // 128 bits: no INT_MIN / -1 overflow
        return T(r != 0 && (r < 0) != (y < 0) ? r + y : r);
    } else if constexpr (std::is_same_v<Op, ew::Expand>) return b;
    else if constexpr (std::is_same_v<Op, ew::Abs>) return T(wrap<T>(x < 0 ? -x : x));
    else if constexpr (std::is_same_v<Op, ew::Neg>) return T(wrap<T>(-x));
    else if constexpr (std::is_same_v<Op, ew::Not>) return T(~a);
    else if constexpr (std::is_same_v<Op, ew::Relu>) return std::max(a, T{0});
    else if constexpr (std::is_same_v<Op, ew::AddC>) return T(wrap<T>(x + y + z));
    else if constexpr (std::is_same_v<Op, ew::SubC>) return T(wrap<T>(x - y + z));
}

template <typename T>
float widen(typename Elem<T>::Storage s)
{
    if constexpr (std::is_same_v<T, float>) return s;
    else return static_cast<float>(decode16(std::is_same_v<T, half> ? kHalf : kBfloat16, s));
}

template <typename Op, typename T>
typename Elem<T>::Storage reference(typename Elem<T>::Storage a, typename Elem<T>::Storage b,
                                    typename Elem<T>::Storage c)
{
    if constexpr (!kIsFloat<T>) {
        return int_reference<Op, T>(a, b, c);
    } else {
        const float r = float_reference<Op>(widen<T>(a), widen<T>(b), widen<T>(c));
        if constexpr (std::is_same_v<T, float>) return r;
        else if constexpr (std::is_same_v<T, half>) return half_rounder().round(r);
        else return bfloat16_rounder().round(r);
    }
}

// --- operands -------------------------------------------------------------------------------------

// Random values with specials mixed in: NaN, +-inf, +-0, subnormals, largest magnitudes; integers
// include the extremes, -1, 0 and small shift counts.
template <typename T>
typename Elem<T>::Storage special_or_random(std::mt19937& rng)
{
    using S = typename Elem<T>::Storage;
    if (rng() % 4 != 0) {
        if constexpr (std::is_integral_v<T>) {
            if (rng() % 2) return static_cast<S>(int(rng() % 40) - 4);  // shift counts, small values
        }
        return random_value<T>(rng);
    }
    if constexpr (std::is_same_v<T, float>) {
        const float specials[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-45f, -3e-39f, 3.4e38f, 1.0f};
        return specials[rng() % 10];
    } else if constexpr (kIsFloat<T>) {
        const uint16_t half_specials[] = {0x7e00, 0xfc01, 0x7c00, 0xfc00, 0, 0x8000, 1, 0x83ff, 0x7bff, 0x3c00};
        const uint16_t bf16_specials[] = {0x7fc0, 0xff81, 0x7f80, 0xff80, 0, 0x8000, 1, 0x807f, 0x7f7f, 0x3f80};
        return std::is_same_v<T, half> ? half_specials[rng() % 10] : bf16_specials[rng() % 10];
    } else {
        const T specials[] = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0), T(-1), T(1)};
        return specials[rng() % 5];
    }
}

struct Shape {
    int rows, cols, valid_rows, valid_cols;
    Layout2 layout;
};

template <typename T>
Shape random_shape(std::mt19937& rng, Layout2 layout)
{
    int box_rows, box_cols;
    box_shape<T>(layout, box_rows, box_cols);
    // Unboxed lines are whole 32-byte blocks; boxed tiles whole boxes.
    const int block = 32 / int(sizeof(typename Elem<T>::Storage));
    const int unit_rows = layout.s == SLayout::NoneBox ? (layout.b == BLayout::ColMajor ? block : 1) : box_rows;
    const int unit_cols = layout.s == SLayout::NoneBox ? (layout.b == BLayout::RowMajor ? block : 1) : box_cols;
    const int rows = unit_rows * int(1 + rng() % std::max(1, 40 / unit_rows));
    const int cols = unit_cols * int(1 + rng() % std::max(1, 100 / unit_cols));
    return {rows, cols, int(1 + rng() % rows), int(1 + rng() % cols), layout};
}

template <typename T>
std::unique_ptr<HostTile<T>> make_tile(const Shape& s, std::mt19937& rng)
{
    auto tile = std::make_unique<HostTile<T>>(s.rows, s.cols, s.valid_rows, s.valid_cols, s.layout, rng);
    for (auto& e : tile->storage()) e = special_or_random<T>(rng);
    return tile;
}

// Which operand roles a run uses.
enum class Form { Unary, TileTile, ScalarRight, ScalarLeft, Ternary, TernaryScalar, TernaryDst, InPlace };

// Runs Op in `form` over random tiles of `shape` and checks dst against the reference, element by element,
// and that nothing outside dst's valid region changed.
template <typename Op, typename T>
void check_form(Form form, const Shape& shape, std::mt19937& rng, const std::string& context)
{
    using S = typename Elem<T>::Storage;
    auto dst = make_tile<T>(shape, rng);
    auto x = make_tile<T>(shape, rng);
    auto y = make_tile<T>(shape, rng);
    const S scalar = special_or_random<T>(rng);
    uint64_t bits = 0;
    std::memcpy(&bits, &scalar, sizeof(S));

    const std::vector<S> before = dst->storage();
    const int vr = shape.valid_rows, vc = shape.valid_cols;
    auto operands_at = [&](int r, int c) -> std::array<S, 3> {
        const S d = before[std::size_t(dst->desc().offset(r, c))];
        switch (form) {
            case Form::Unary: return {x->at(r, c), S{}, S{}};
            case Form::TileTile: return {x->at(r, c), y->at(r, c), S{}};
            case Form::ScalarRight: return {x->at(r, c), scalar, S{}};
            case Form::ScalarLeft: return {scalar, x->at(r, c), S{}};
            case Form::Ternary: return {x->at(r, c), y->at(r, c), d};  // src2: a copy of dst's old contents
            case Form::TernaryScalar: return {x->at(r, c), scalar, y->at(r, c)};
            case Form::TernaryDst: return {x->at(r, c), y->at(r, c), d};
            case Form::InPlace: return {d, y->at(r, c), S{}};
        }
        return {};
    };
    std::vector<S> expected(std::size_t(vr) * vc);
    for (int r = 0; r < vr; ++r) {
        for (int c = 0; c < vc; ++c) {
            const auto [a, b, cc] = operands_at(r, c);
            expected[std::size_t(r) * vc + c] = reference<Op, T>(a, b, cc);
        }
    }

    const TileDesc& d = dst->desc();
    using C = typename ew::Format<T>::Compute;
    if constexpr (requires(C v) { Op::template apply<C>(v); }) {
        ew::UnaryKernel<Op, T>::run(d, x->desc());
    } else if constexpr (requires(C v) { Op::template apply<C>(v, v); }) {
        switch (form) {
            case Form::TileTile: ew::BinaryKernel<Op, T>::run(d, x->desc(), y->desc()); break;
            case Form::ScalarRight: ew::ScalarKernel<Op, T>::run(d, x->desc(), bits, ew::ScalarSide::Right); break;
            case Form::ScalarLeft: ew::ScalarKernel<Op, T>::run(d, x->desc(), bits, ew::ScalarSide::Left); break;
            case Form::InPlace: ew::BinaryKernel<Op, T>::run(d, d, y->desc()); break;
            default: FAIL() << "not a two-operand form";
        }
    } else {
        // A copy of dst's old contents serves as the third tile of Form::Ternary.
        HostTile<T> third(shape.rows, shape.cols, vr, vc, shape.layout, rng);
        third.storage() = before;
        const ew::Operand last = form == Form::TernaryDst ? ew::Operand::destination()
                                 : form == Form::Ternary  ? ew::Operand::tile(third.desc())
                                                          : ew::Operand::tile(y->desc());
        const ew::Operand middle = form == Form::TernaryScalar ? ew::Operand::scalar(bits) : ew::Operand::tile(y->desc());
        ew::TernaryKernel<Op, T>::run(d, ew::Operand::tile(x->desc()), middle, last);
    }

    int wrong = 0;
    for (int r = 0; r < vr && wrong < 3; ++r) {
        for (int c = 0; c < vc && wrong < 3; ++c) {
            const S want = expected[std::size_t(r) * vc + c], got = dst->at(r, c);
            if (!same_result<T>(want, got)) {
                const auto [a, b, cc] = operands_at(r, c);
                ADD_FAILURE() << context << ": element (" << r << ", " << c << ") of " << +a << ", " << +b << ", "
                              << +cc << " is " << +got << ", expected " << +want;
                ++wrong;
            }
        }
    }
    std::vector<bool> inside(before.size(), false);
    for (int r = 0; r < vr; ++r) {
        for (int c = 0; c < vc; ++c) inside[std::size_t(d.offset(r, c))] = true;
    }
    for (std::size_t i = 0; i < before.size(); ++i) {
        if (!inside[i] && std::memcmp(&before[i], &dst->storage()[i], sizeof(S)) != 0) {
            ADD_FAILURE() << context << ": wrote storage element " << i << " outside dst's valid region";
            break;
        }
    }
}

template <typename Op, typename T>
void check_op(const std::vector<Form>& forms, std::mt19937& rng, const std::string& name)
{
    for (int round = 0; round < 3; ++round) {
        for (Layout2 layout : kLayouts) {
            Shape shape = random_shape<T>(rng, layout);
            if (round == 0) {
                // The whole tile valid: unboxed lines then run joined into one.
                shape.valid_rows = shape.rows;
                shape.valid_cols = shape.cols;
            }
            for (Form form : forms) {
                check_form<Op, T>(form, shape, rng,
                                  name + " " + std::string(pto::engine::dtype_name(Elem<T>::dtype)) + " " +
                                      layout_label(layout) + " form " + std::to_string(int(form)));
            }
        }
    }
}

template <typename... T>
struct Types {};

using FloatTypes = Types<float, half, bfloat16_t>;
using IntTypes = Types<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>;
using AllTypes = Types<float, half, bfloat16_t, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>;

template <typename Op, typename... T>
void check_types(Types<T...>, const std::vector<Form>& forms, std::mt19937& rng, const std::string& name)
{
    (check_op<Op, T>(forms, rng, name), ...);
}

const std::vector<Form> kBinaryForms = {Form::TileTile, Form::ScalarRight, Form::ScalarLeft, Form::InPlace};

void check_every_operation(std::mt19937& rng)
{
    check_types<ew::Add>(AllTypes{}, kBinaryForms, rng, "Add");
    check_types<ew::Sub>(AllTypes{}, kBinaryForms, rng, "Sub");
    check_types<ew::Mul>(AllTypes{}, kBinaryForms, rng, "Mul");
    check_types<ew::Div>(AllTypes{}, kBinaryForms, rng, "Div");
    check_types<ew::Max>(AllTypes{}, kBinaryForms, rng, "Max");
    check_types<ew::Min>(AllTypes{}, kBinaryForms, rng, "Min");
    check_types<ew::And>(IntTypes{}, kBinaryForms, rng, "And");
    check_types<ew::Or>(IntTypes{}, kBinaryForms, rng, "Or");
    check_types<ew::Xor>(IntTypes{}, kBinaryForms, rng, "Xor");
    check_types<ew::Shl>(IntTypes{}, kBinaryForms, rng, "Shl");
    check_types<ew::Shr>(IntTypes{}, kBinaryForms, rng, "Shr");
    check_types<ew::Rem>(AllTypes{}, kBinaryForms, rng, "Rem");
    check_types<ew::Fmod>(AllTypes{}, kBinaryForms, rng, "Fmod");
    check_types<ew::Prelu>(FloatTypes{}, kBinaryForms, rng, "Prelu");
    check_types<ew::SubRelu>(FloatTypes{}, kBinaryForms, rng, "SubRelu");
    check_types<ew::Expand>(AllTypes{}, {Form::ScalarRight}, rng, "Expand");
    check_types<ew::Abs>(Types<float, half, bfloat16_t, int8_t, int16_t, int32_t, int64_t>{}, {Form::Unary}, rng, "Abs");
    check_types<ew::Neg>(AllTypes{}, {Form::Unary}, rng, "Neg");
    check_types<ew::Not>(IntTypes{}, {Form::Unary}, rng, "Not");
    check_types<ew::Relu>(Types<float, half, bfloat16_t, int16_t, int32_t>{}, {Form::Unary}, rng, "Relu");
    const std::vector<Form> kTernaryForms = {Form::Ternary, Form::TernaryScalar, Form::TernaryDst};
    check_types<ew::AddC>(AllTypes{}, kTernaryForms, rng, "AddC");
    check_types<ew::SubC>(AllTypes{}, kTernaryForms, rng, "SubC");
    check_types<ew::MulAdd>(FloatTypes{}, kTernaryForms, rng, "MulAdd");
    check_types<ew::MulAddRelu>(FloatTypes{}, kTernaryForms, rng, "MulAddRelu");
}

// --- 16-bit float bits, NaNs included ----------------------------------------------------------------
// The reference above compares only NaN-ness for half and bfloat16. Here the vector loops must give the
// very bits of the element path (numeric.hpp's conversions) for every pair of special values, a
// tile-tile line and each scalar on either side: a NaN result quiet, with the sign and leading payload of
// the NaN operand. Which of two NaN operands an arithmetic operation passes on is the hardware's choice
// (and the compiler's, free to swap the operands of +), so there either one will do.

template <typename T>
std::vector<uint16_t> sixteen_bit_specials()
{
    if constexpr (std::is_same_v<T, half>) {
        return {0x7e00, 0xfe01, 0x7c01, 0xfd55, 0x7c00, 0xfc00, 0x0000, 0x8000,
                0x0001, 0x83ff, 0x7bff, 0xfbff, 0x3c00, 0xbc01, 0x4248, 0x1400};
    } else {
        return {0x7fc0, 0xffc1, 0x7f81, 0xff95, 0x7f80, 0xff80, 0x0000, 0x8000,
                0x0001, 0x807f, 0x7f7f, 0xff7f, 0x3f80, 0xbf81, 0x4049, 0x0080};
    }
}

template <typename Op, typename T, typename... S>
uint16_t element_path(S... x)
{
    using F = ew::Format<T>;
    return F::narrow(Op::template apply<float>(F::widen(x)...));
}

// `got` is the element path's `want` or, for an arithmetic operation on two NaNs, either one made quiet.
template <typename Op, typename T>
bool same_bits(uint16_t want, uint16_t got, uint16_t x, uint16_t y)
{
    using F = ew::Format<T>;
    if (want == got) return true;
    const bool arithmetic = !std::is_same_v<Op, ew::Max> && !std::is_same_v<Op, ew::Min>;
    const bool two_nans = std::isnan(F::widen(x)) && std::isnan(F::widen(y));
    const bool quiet_operand = got == F::narrow(F::widen(x)) || got == F::narrow(F::widen(y));
    return arithmetic && two_nans && std::isnan(F::widen(want)) && quiet_operand;
}

template <typename Op, typename T>
void check_sixteen_bit_nans(std::mt19937& rng, const std::string& name)
{
    const std::vector<uint16_t> specials = sixteen_bit_specials<T>();
    const int n = int(specials.size());
    HostTile<T> dst(1, n * n, 1, n * n, kRowMajor, rng), a(1, n * n, 1, n * n, kRowMajor, rng),
        b(1, n * n, 1, n * n, kRowMajor, rng);
    for (int i = 0; i < n * n; ++i) {
        a.storage()[i] = specials[i / n];
        b.storage()[i] = specials[i % n];
    }
    // Checks dst against Op on the operands operands_at(i) gives for element i.
    auto expect = [&](const std::string& form, auto operands_at) {
        for (int i = 0; i < n * n; ++i) {
            const auto [x, y] = operands_at(i);
            const uint16_t got = dst.storage()[i];
            uint16_t want;
            if constexpr (requires(float v) { Op::apply(v); }) want = element_path<Op, T>(x);
            else want = element_path<Op, T>(x, y);
            ASSERT_TRUE((same_bits<Op, T>(want, got, x, y)))
                << name << " " << form << " of " << x << ", " << y << " is " << got << ", expected " << want;
        }
    };
    if constexpr (requires(float v) { Op::apply(v); }) {
        ew::UnaryKernel<Op, T>::run(dst.desc(), a.desc());
        expect("unary", [&](int i) { return std::pair{a.storage()[i], a.storage()[i]}; });
    } else {
        ew::BinaryKernel<Op, T>::run(dst.desc(), a.desc(), b.desc());
        expect("tile-tile", [&](int i) { return std::pair{a.storage()[i], b.storage()[i]}; });
        for (const uint16_t scalar : specials) {
            ew::ScalarKernel<Op, T>::run(dst.desc(), a.desc(), scalar, ew::ScalarSide::Right);
            expect("scalar right", [&](int i) { return std::pair{a.storage()[i], scalar}; });
            ew::ScalarKernel<Op, T>::run(dst.desc(), a.desc(), scalar, ew::ScalarSide::Left);
            expect("scalar left", [&](int i) { return std::pair{scalar, a.storage()[i]}; });
        }
    }
}

template <typename T>
void check_sixteen_bit_nans_of(std::mt19937& rng)
{
    check_sixteen_bit_nans<ew::Add, T>(rng, "Add");
    check_sixteen_bit_nans<ew::Sub, T>(rng, "Sub");
    check_sixteen_bit_nans<ew::Mul, T>(rng, "Mul");
    check_sixteen_bit_nans<ew::Div, T>(rng, "Div");
    check_sixteen_bit_nans<ew::Max, T>(rng, "Max");
    check_sixteen_bit_nans<ew::Min, T>(rng, "Min");
    check_sixteen_bit_nans<ew::Prelu, T>(rng, "Prelu");
    check_sixteen_bit_nans<ew::SubRelu, T>(rng, "SubRelu");
    check_sixteen_bit_nans<ew::Expand, T>(rng, "Expand");
    check_sixteen_bit_nans<ew::Abs, T>(rng, "Abs");
    check_sixteen_bit_nans<ew::Neg, T>(rng, "Neg");
    check_sixteen_bit_nans<ew::Relu, T>(rng, "Relu");
}

}  // namespace

TEST(ElementwiseOperations, EveryOperationAndTypeMatchesTheReference)
{
    std::mt19937 rng(2024);
    check_every_operation(rng);
}

// The vector loops are compiled for every SIMD target Highway knows; each this CPU runs (AVX2 and SSE4
// besides AVX-512 here) must give the reference bits too.
TEST(ElementwiseOperations, EverySimdTargetMatchesTheReference)
{
    const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
    ASSERT_GT(targets.size(), 1u);
    std::mt19937 rng(7);
    for (int64_t target : targets) {
        hwy::SetSupportedTargetsForTest(target);
        SCOPED_TRACE(hwy::TargetName(target));
        check_every_operation(rng);
    }
    hwy::SetSupportedTargetsForTest(0);
}

TEST(ElementwiseOperations, HalfAndBfloat16VectorLoopsGiveTheElementPathBitsNaNsIncluded)
{
    const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
    std::mt19937 rng(11);
    for (int64_t target : targets) {
        hwy::SetSupportedTargetsForTest(target);
        SCOPED_TRACE(hwy::TargetName(target));
        check_sixteen_bit_nans_of<half>(rng);
        check_sixteen_bit_nans_of<bfloat16_t>(rng);
    }
    hwy::SetSupportedTargetsForTest(0);
}

TEST(ElementwiseOperations, IntegerEdgeCases)
{
    using L = std::numeric_limits<int32_t>;
    EXPECT_EQ(ew::Abs::apply<int32_t>(L::min()), L::min());
    EXPECT_EQ(ew::Neg::apply<int32_t>(L::min()), L::min());
    EXPECT_EQ(ew::Neg::apply<uint16_t>(1), 0xffff);
    EXPECT_EQ(ew::Shl::apply<int32_t>(1, 31), L::min());
    EXPECT_EQ(ew::Shl::apply<int32_t>(1, 32), 0);
    EXPECT_EQ(ew::Shl::apply<int8_t>(1, -1), 0);
    EXPECT_EQ(ew::Shr::apply<int16_t>(-5, 100), -1);
    EXPECT_EQ(ew::Shr::apply<int16_t>(-5, -1), -1);
    EXPECT_EQ(ew::Shr::apply<uint16_t>(0x8000, 15), 1);
    EXPECT_EQ(ew::Shr::apply<uint16_t>(0x8000, 16), 0);
    EXPECT_EQ(ew::Rem::apply<int32_t>(-7, 3), 2);
    EXPECT_EQ(ew::Rem::apply<int32_t>(7, -3), -2);
    EXPECT_EQ(ew::Fmod::apply<int32_t>(-7, 3), -1);
    EXPECT_EQ(ew::Rem::apply<int32_t>(L::min(), -1), 0);
    EXPECT_EQ(ew::Rem::apply<int32_t>(-9, 0), -9);
    EXPECT_EQ(ew::Fmod::apply<int32_t>(9, 0), 9);
    EXPECT_EQ(ew::Div::apply<int32_t>(L::min(), -1), L::max());
}

TEST(ElementwiseOperations, FloatSpecialValues)
{
    EXPECT_EQ(ew::Max::apply(NAN, 1.0f), 1.0f);
    EXPECT_EQ(ew::Min::apply(1.0f, NAN), 1.0f);
    EXPECT_FALSE(std::signbit(ew::Max::apply(-0.0f, 0.0f)));
    EXPECT_TRUE(std::signbit(ew::Min::apply(0.0f, -0.0f)));
    EXPECT_EQ(ew::Relu::apply(NAN), 0.0f);
    EXPECT_FALSE(std::signbit(ew::Relu::apply(-0.0f)));
    EXPECT_EQ(ew::Rem::apply(-1.0f, 3.0f), 2.0f);
    EXPECT_EQ(ew::Fmod::apply(-1.0f, 3.0f), -1.0f);
    EXPECT_TRUE(std::signbit(ew::Rem::apply(4.0f, -2.0f)));
    EXPECT_TRUE(std::isnan(ew::Rem::apply(1.0f, 0.0f)));
}

TEST(ElementwiseOperations, IntegerDivisorsAreCheckedForZeroInCheckedMode)
{
    std::mt19937 rng(3);
    const ScopedChecked checked(true);
    HostTile<int32_t> dst(4, 8, 4, 8, kRowMajor, rng), src(4, 8, 4, 8, kRowMajor, rng);
    for (auto& e : src.storage()) e = 5;
    EXPECT_EQ(diagnostic_of([&] { ew::ScalarKernel<ew::Rem, int32_t>::run(dst.desc(), src.desc(), 0, ew::ScalarSide::Right); })
                  .code,
              "RUN_DIV_BY_ZERO");
    src.at(2, 3) = 0;
    EXPECT_EQ(diagnostic_of([&] { ew::ScalarKernel<ew::Div, int32_t>::run(dst.desc(), src.desc(), 7, ew::ScalarSide::Left); })
                  .code,
              "RUN_DIV_BY_ZERO");
}
