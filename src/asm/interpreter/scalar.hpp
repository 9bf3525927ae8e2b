// Scalar representation of the interpreter: how a value of an index, integer or float type is held in
// a Slot, and the normalisations that keep it canonical after every operation.
#pragma once

#include <cstdint>

#include "asm/type.hpp"

namespace pto::as::interp {

struct ScalarKind {
    bool is_float = false;
    FloatKind float_kind = FloatKind::F64;
    unsigned width = 64;       // integers; index is 64
    bool is_unsigned = false;  // `ui8`: kept zero-extended; i1 is always 0 or 1

    // Integers: wrap to the width, sign- or zero-extended into 64 bits.
    int64_t wrap(int64_t v) const
    {
        if (width >= 64) return v;
        const unsigned shift = 64 - width;
        if (is_unsigned || width == 1) return int64_t(uint64_t(v) & (~uint64_t{0} >> shift));
        return int64_t(uint64_t(v) << shift) >> shift;
    }
    // The value as an unsigned number of the width (for divui, cmpi ult, uitofp...).
    uint64_t as_unsigned(int64_t v) const { return width >= 64 ? uint64_t(v) : uint64_t(v) & (~uint64_t{0} >> (64 - width)); }
    // Floats: rounded once to the type (round to nearest even).
    double round(double v) const;
};

// The kind of a scalar type; index for a value whose type the source did not state.
ScalarKind scalar_kind(const Type& type);

}  // namespace pto::as::interp
