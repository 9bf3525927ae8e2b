// Run-time checks shared by the data-movement entry points: the well-formedness of a tile descriptor
// (the interpreter builds them by hand) and the reporting of a failed legality rule.
#pragma once

#include <cstdint>
#include <string>

#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>
#include <pto/profile/profile.hpp>

namespace pto::engine::data_movement {

// A descriptor the engine can address: storage present (RUN_NULL_POINTER), capacity and fractal
// well formed (LEGAL_TILE_SHAPE, LEGAL_FRACTAL_SIZE, LEGAL_TILE_BOX), valid region inside the
// capacity (RUN_VALID_SHAPE).
void check_tile(const TileDesc& t, const char* operand);

// Reports a failed legality rule `code` of profile `profile` to `sink`.
void report_rule(LegalitySink& sink, const profile::Profile& profile, const char* code, const char* operand,
                 const std::string& message, const std::string& expected, const std::string& actual);

// Reports a failed legality rule `code` on the active profile.
[[noreturn]] void fail_rule(const char* code, const char* operand, const std::string& message,
                            const std::string& expected, const std::string& actual);

// Names for diagnostics.
std::string location_name(TileType loc);
std::string layout_name(Layout layout);
std::string dims_text(const int64_t (&v)[5]);  // a tensor's shape or strides: "(1, 2, 3, 4, 5)"
std::string arrangement_name(const TileDesc& t);  // e.g. "row-major", "Nz (col-major boxes, row-major inside)"
std::string profile_name();

}  // namespace pto::engine::data_movement
