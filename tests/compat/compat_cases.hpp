// The cases of the compatibility test, shared by the golden-file generator and the harness: one
// directory per case, named "<suite>.<case>" as the public test programs name theirs.
#pragma once

#include <cstdint>
#include <string>

namespace compat {

struct Case {
    const char* name;  // the GoogleTest name, also the data directory
    int rows;
    int cols;
};

inline constexpr Case kFloat{"CompatAddMul.case_float_64x64", 64, 64};
inline constexpr Case kHalf{"CompatAddMul.case_half_32x128", 32, 128};
inline constexpr Case kInt32{"CompatAddMul.case_int32_32x64", 32, 64};

// TLOAD then TSTORE of a rows x cols window of a DN tensor of packed fp4 values (shapes and strides
// count values, two to a byte), as the public TSTORE program's fp4 cases move theirs.
inline constexpr Case kFp4Window{"CompatStore.case_float4_e2m1x2_DN_4x21_of_8x32", 4, 21};
inline constexpr int kFp4WholeRows = 8, kFp4WholeCols = 32;

}  // namespace compat
