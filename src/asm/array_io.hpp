// Host arrays for the command line: NumPy .npy files (format versions 1, 2 and 3, little-endian,
// C order) and raw binary files, plus zero-filled arrays of a given type and shape.
//
// Element types are NumPy's: bool, int8..int64, uint8..uint64, float16, float32, float64. The PTO
// types NumPy lacks travel as their bit patterns: bfloat16 as uint16, the 8-bit floats (e4m3, e5m2,
// e8m0, hif8), the packed 4-bit pairs and int4 as uint8. So a `!pto.ptr<bf16>` argument takes a
// uint16 array holding bfloat16 bits, and `--out` of it writes uint16.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pto/engine/dtype.hpp>

namespace pto::as {

// A NumPy element type: kind 'b' (bool), 'i', 'u' or 'f', and its size in bytes.
struct ArrayType {
    char kind = 'f';
    int size = 4;
    friend bool operator==(const ArrayType&, const ArrayType&) = default;
};

struct HostArray {
    ArrayType type;
    std::vector<int64_t> shape;
    std::vector<std::byte> bytes;

    std::size_t elements() const;
};

// Errors carry a stable code: CLI_FILE (cannot open, read or write), CLI_NPY_FORMAT (not a .npy this
// reader takes), CLI_RAW_SIZE (raw file size does not match dtype and shape), CLI_ARRAY_SPEC.
struct ArrayError {
    std::string code;
    std::string message;
};

// The NumPy type that carries a PTO element type (bf16 as uint16, fp8 and packed types as uint8).
ArrayType array_type_of(engine::DType t);
// NumPy's name of a type ("float32", "uint16").
std::string array_type_name(ArrayType t);
// The type a PTO-AS or NumPy name denotes: "f32", "float32", "bf16" (uint16 bits), "bool", "f64".
std::optional<ArrayType> array_type_from_name(std::string_view name);
// Whether an array of type `a` can back a pointer to elements of type `t` (same type, or the bit
// pattern carrier of `t`).
bool array_fits(ArrayType a, engine::DType t);

// "64x128" -> {64, 128}.
std::optional<std::vector<int64_t>> parse_shape(std::string_view text);
std::string shape_string(const std::vector<int64_t>& shape);

HostArray zeros(ArrayType type, std::vector<int64_t> shape);
// Throw ArrayError.
HostArray read_npy(const std::string& path);
void write_npy(const std::string& path, const HostArray& array);
HostArray read_raw(const std::string& path, ArrayType type, std::vector<int64_t> shape);

}  // namespace pto::as
