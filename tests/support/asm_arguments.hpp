// Host buffers handed to a PTO-AS program's pointer arguments, for the tests that run programs.
#pragma once

#include <cstddef>
#include <vector>

#include "asm/interpreter/interpreter.hpp"

namespace pto::test {

// The function argument `name` bound to the bytes of `v`.
template <typename T>
as::ArgumentBinding argument(const char* name, std::vector<T>& v)
{
    as::ArgumentBinding b;
    b.name = name;
    b.data = reinterpret_cast<std::byte*>(v.data());
    b.bytes = v.size() * sizeof(T);
    return b;
}

}  // namespace pto::test
