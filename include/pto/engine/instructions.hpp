// The engine's instruction table: every tile instruction the engine implements, once. Both front
// doors (the C++ intrinsics and the PTO-AS interpreter) dispatch to these, and a test proves that
// each door reaches every entry.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace pto::engine {

enum class Instr : uint16_t {
    TASSIGN,
    TLOAD,
    TSTORE,
    TMOV,
    TADD,
    TSUB,
    TMUL,
    TDIV,
    TGATHER,
    TSORT32,
    TCOLEXPAND,
    MGATHER,
    MSCATTER,
    Count,
};

inline constexpr std::array<std::string_view, static_cast<std::size_t>(Instr::Count)> kInstrNames = {
    "TASSIGN", "TLOAD", "TSTORE", "TMOV", "TADD", "TSUB", "TMUL", "TDIV",
    "TGATHER", "TSORT32", "TCOLEXPAND", "MGATHER", "MSCATTER",
};

constexpr std::string_view instr_name(Instr i) { return kInstrNames[static_cast<std::size_t>(i)]; }

}  // namespace pto::engine
