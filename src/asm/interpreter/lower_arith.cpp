// Lowering of the arith dialect: constants, integer and float arithmetic, comparisons, select, casts.
#include <cmath>
#include <limits>

#include <pto/numeric/convert.hpp>

#include "asm/interpreter/lowering.hpp"
#include "asm/interpreter/scalar.hpp"

namespace pto::as::interp {

double ScalarKind::round(double v) const
{
    switch (float_kind) {
        case FloatKind::F64: return v;
        case FloatKind::F32: case FloatKind::TF32: return double(float(v));
        default: break;
    }
    const Type t = Type::float_type(float_kind);
    const auto dtype = t.element_dtype();
    if (!dtype) return v;
    std::byte buffer[8]{};
    numeric::from_double(*dtype, buffer, 0, v, RoundMode::CAST_RINT, SaturationMode::ON);
    return numeric::to_double(*dtype, buffer, 0);
}

ScalarKind scalar_kind(const Type& type)
{
    ScalarKind k;
    if (const auto* f = type.dyn_cast<FloatType>()) {
        k.is_float = true;
        k.float_kind = f->kind;
    } else if (const auto* i = type.dyn_cast<IntegerType>()) {
        k.width = i->width;
        k.is_unsigned = i->signedness == Signedness::Unsigned;
    }
    return k;
}

namespace {

template <typename F>
StepRun int_binary(int a, int b, int d, ScalarKind k, F f)
{
    return [=](Frame& fr) {
        Slot* s = fr.slots.data();
        s[d].i = k.wrap(f(s[a].i, s[b].i, k));
    };
}

template <typename F>
StepRun float_binary(int a, int b, int d, ScalarKind k, F f)
{
    return [=](Frame& fr) {
        Slot* s = fr.slots.data();
        s[d].f = k.round(f(s[a].f, s[b].f));
    };
}

int64_t div_floor(int64_t a, int64_t b)
{
    const int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t div_ceil(int64_t a, int64_t b)
{
    const int64_t q = a / b;
    return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

bool compare_int(std::string_view p, int64_t a, int64_t b, const ScalarKind& k)
{
    const uint64_t ua = k.as_unsigned(a), ub = k.as_unsigned(b);
    if (p == "eq") return a == b;
    if (p == "ne") return a != b;
    if (p == "slt") return a < b;
    if (p == "sle") return a <= b;
    if (p == "sgt") return a > b;
    if (p == "sge") return a >= b;
    if (p == "ult") return ua < ub;
    if (p == "ule") return ua <= ub;
    if (p == "ugt") return ua > ub;
    return ua >= ub;  // uge
}

// Saturating float -> integer conversion (MLIR leaves overflow undefined; saturation is the safe pick).
int64_t float_to_int(double v, const ScalarKind& k, bool is_unsigned)
{
    if (std::isnan(v)) return 0;
    v = std::trunc(v);
    const unsigned w = k.width >= 64 ? 64 : k.width;
    if (is_unsigned) {
        const double hi = std::ldexp(1.0, int(w)) - 1;
        if (v <= 0) return 0;
        if (v >= hi) return w >= 64 ? -1 : int64_t((uint64_t{1} << w) - 1);
        return int64_t(uint64_t(v));
    }
    const double hi = std::ldexp(1.0, int(w) - 1);
    if (v >= hi) return w >= 64 ? std::numeric_limits<int64_t>::max() : int64_t((uint64_t{1} << (w - 1)) - 1);
    if (v < -hi) return w >= 64 ? std::numeric_limits<int64_t>::min() : -int64_t(uint64_t{1} << (w - 1));
    return int64_t(v);
}

}  // namespace

void Lowerer::lower_arith(const Operation& op, Body& body)
{
    const std::string_view name = std::string_view(op.name).substr(6);  // after "arith."
    if (op.results.size() != 1) fail(op, codes::kBadOperand, "arith operations define one result", "1 result", std::to_string(op.results.size()));
    const ScalarKind rk = scalar_kind(result_type(op, 0));
    const int d = define(op.results[0].get());
    const int a = op.operands.size() > 0 ? slot(op.operands[0]) : -1;
    const int b = op.operands.size() > 1 ? slot(op.operands[1]) : -1;
    const ScalarKind ak = op.operands.empty() ? rk : scalar_kind(operand_type(op, 0));
    auto add = [&](StepRun fn) { body.steps.push_back({std::move(fn), &op}); };

    if (name == "constant") {
        const Attribute* value = op.attribute("value");
        if (!value) fail(op, "STRUCT_MISSING_ATTRIBUTE", "arith.constant needs a value", "value = ...", "none");
        Slot c;
        if (rk.is_float) {
            double v = value->is(Attribute::Kind::Integer) ? double(value->int_value()) : value->float_value();
            if (const auto bits = value->float_bit_pattern(); bits && value->is(Attribute::Kind::Float)) {
                const auto dtype = result_type(op, 0).element_dtype();
                if (dtype) {
                    uint64_t raw = *bits;
                    v = numeric::to_double(*dtype, &raw, 0);
                }
            }
            c.f = rk.round(v);
        } else {
            c.i = rk.wrap(value->is(Attribute::Kind::Bool) ? int64_t(value->bool_value()) : value->int_value());
        }
        add([d, c](Frame& f) { f.slots[d] = c; });
        return;
    }

    // Integer arithmetic.
    using I = int64_t;
    using SK = const ScalarKind&;
    if (name == "addi") return add(int_binary(a, b, d, rk, [](I x, I y, SK) { return I(uint64_t(x) + uint64_t(y)); }));
    if (name == "subi") return add(int_binary(a, b, d, rk, [](I x, I y, SK) { return I(uint64_t(x) - uint64_t(y)); }));
    if (name == "muli") return add(int_binary(a, b, d, rk, [](I x, I y, SK) { return I(uint64_t(x) * uint64_t(y)); }));
    if (name == "andi") return add(int_binary(a, b, d, rk, [](I x, I y, SK) { return x & y; }));
    if (name == "ori") return add(int_binary(a, b, d, rk, [](I x, I y, SK) { return x | y; }));
    if (name == "xori") return add(int_binary(a, b, d, rk, [](I x, I y, SK) { return x ^ y; }));
    if (name == "minsi") return add(int_binary(a, b, d, rk, [](I x, I y, SK) { return std::min(x, y); }));
    if (name == "maxsi") return add(int_binary(a, b, d, rk, [](I x, I y, SK) { return std::max(x, y); }));
    if (name == "minui") return add(int_binary(a, b, d, rk, [](I x, I y, SK k) { return k.as_unsigned(x) < k.as_unsigned(y) ? x : y; }));
    if (name == "maxui") return add(int_binary(a, b, d, rk, [](I x, I y, SK k) { return k.as_unsigned(x) > k.as_unsigned(y) ? x : y; }));
    if (name == "shli") return add(int_binary(a, b, d, rk, [](I x, I y, SK k) { return uint64_t(y) >= k.width ? I(0) : I(uint64_t(x) << y); }));
    if (name == "shrui") return add(int_binary(a, b, d, rk, [](I x, I y, SK k) { return uint64_t(y) >= k.width ? I(0) : I(k.as_unsigned(x) >> y); }));
    if (name == "shrsi") return add(int_binary(a, b, d, rk, [](I x, I y, SK k) { return x >> std::min<uint64_t>(uint64_t(y), k.width - 1); }));
    // Division by zero has no defined result in arith; the interpreter reports it rather than crash.
    if (name == "divsi" || name == "divui" || name == "remsi" || name == "remui" || name == "ceildivsi" || name == "floordivsi") {
        const std::string which(name);
        const Module* module = &module_;
        const Operation* where = &op;
        return add([=](Frame& fr) {
            Slot* s = fr.slots.data();
            const I x = s[a].i, y = s[b].i;
            if (y == 0) {
                Diagnostic diag{"RUN_DIV_BY_ZERO", "arith." + which, "rhs", "integer division by zero", "a non-zero divisor", "0",
                                location_of(*module, *where)};
                throw SimError(std::move(diag));
            }
            I r = 0;
            if (which == "divui") r = I(rk.as_unsigned(x) / rk.as_unsigned(y));
            else if (which == "remui") r = I(rk.as_unsigned(x) % rk.as_unsigned(y));
            else if (y == -1) r = which == "remsi" ? 0 : I(0 - uint64_t(x));  // INT_MIN / -1 wraps
            else if (which == "divsi") r = x / y;
            else if (which == "remsi") r = x % y;
            else if (which == "ceildivsi") r = div_ceil(x, y);
            else r = div_floor(x, y);
            s[d].i = rk.wrap(r);
        });
    }

    // Float arithmetic.
    if (name == "addf") return add(float_binary(a, b, d, rk, [](double x, double y) { return x + y; }));
    if (name == "subf") return add(float_binary(a, b, d, rk, [](double x, double y) { return x - y; }));
    if (name == "mulf") return add(float_binary(a, b, d, rk, [](double x, double y) { return x * y; }));
    if (name == "divf") return add(float_binary(a, b, d, rk, [](double x, double y) { return x / y; }));
    if (name == "remf") return add(float_binary(a, b, d, rk, [](double x, double y) { return std::fmod(x, y); }));
    if (name == "maximumf") return add(float_binary(a, b, d, rk, [](double x, double y) { return std::isnan(x) || std::isnan(y) ? x + y : std::max(x, y); }));
    if (name == "minimumf") return add(float_binary(a, b, d, rk, [](double x, double y) { return std::isnan(x) || std::isnan(y) ? x + y : std::min(x, y); }));
    if (name == "maxnumf") return add(float_binary(a, b, d, rk, [](double x, double y) { return std::fmax(x, y); }));
    if (name == "minnumf") return add(float_binary(a, b, d, rk, [](double x, double y) { return std::fmin(x, y); }));
    if (name == "negf") return add([=](Frame& fr) { fr.slots[d].f = -fr.slots[a].f; });

    // Comparisons and select.
    if (name == "cmpi" || name == "cmpf") {
        const Attribute* predicate = op.attribute("predicate");
        const std::string pred = predicate ? attribute_value_text(*predicate) : std::string();
        if (pred.empty()) fail(op, "STRUCT_MISSING_ATTRIBUTE", "comparison needs a predicate", "a predicate such as slt", "none");
        if (name == "cmpi")
            return add([=](Frame& fr) {
                Slot* s = fr.slots.data();
                s[d].i = compare_int(pred, s[a].i, s[b].i, ak);
            });
        return add([=](Frame& fr) {
            Slot* s = fr.slots.data();
            const double x = s[a].f, y = s[b].f;
            const bool unordered = std::isnan(x) || std::isnan(y);
            const bool u = pred[0] == 'u' && pred != "uno";
            const std::string_view p = pred.size() == 3 && (pred[0] == 'o' || pred[0] == 'u') ? std::string_view(pred).substr(1) : std::string_view(pred);
            bool r = false;
            if (pred == "true") r = true;
            else if (pred == "false") r = false;
            else if (pred == "ord") r = !unordered;
            else if (pred == "uno") r = unordered;
            else if (unordered) r = u;
            else if (p == "eq") r = x == y;
            else if (p == "ne") r = x != y;
            else if (p == "lt") r = x < y;
            else if (p == "le") r = x <= y;
            else if (p == "gt") r = x > y;
            else if (p == "ge") r = x >= y;
            s[d].i = r;
        });
    }
    if (name == "select") {
        const int c = slot(op.operands[2]);
        // Operands are (condition, true value, false value).
        return add([=, t = b](Frame& fr) {
            Slot* s = fr.slots.data();
            s[d] = s[a].i ? s[t] : s[c];
        });
    }

    // Casts.
    if (name == "index_cast" || name == "extsi" || name == "trunci")
        return add([=](Frame& fr) { fr.slots[d].i = rk.wrap(fr.slots[a].i); });
    if (name == "index_castui" || name == "extui")
        return add([=](Frame& fr) { fr.slots[d].i = rk.wrap(int64_t(ak.as_unsigned(fr.slots[a].i))); });
    if (name == "sitofp") return add([=](Frame& fr) { fr.slots[d].f = rk.round(double(fr.slots[a].i)); });
    if (name == "uitofp") return add([=](Frame& fr) { fr.slots[d].f = rk.round(double(ak.as_unsigned(fr.slots[a].i))); });
    if (name == "fptosi") return add([=](Frame& fr) { fr.slots[d].i = rk.wrap(float_to_int(fr.slots[a].f, rk, false)); });
    if (name == "fptoui") return add([=](Frame& fr) { fr.slots[d].i = rk.wrap(float_to_int(fr.slots[a].f, rk, true)); });
    if (name == "extf" || name == "truncf") return add([=](Frame& fr) { fr.slots[d].f = rk.round(fr.slots[a].f); });

    fail(op, codes::kUnsupportedOp, "the interpreter cannot run this arith operation", "a supported operation", op.name);
}

}  // namespace pto::as::interp
