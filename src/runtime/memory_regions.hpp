// What the runtime knows of the memory that holds an address: for diagnostics that name bytes, and for
// the synchronisation check, which finds an instruction's pipe from where its operands live.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <pto/common/type.hpp>

namespace pto::runtime {

// The kind of on-chip memory holding p (a core memory or automatic tile storage); nothing elsewhere.
std::optional<TileType> memory_location(const void* p);

// "UB bytes 0x100..0x1ff", "global memory x bytes 0x0..0xff", "host bytes 0x7f..": [p, p+n) as a program sees it.
std::string describe_bytes(const void* p, std::size_t n);

}  // namespace pto::runtime
