// The hardware pipes of an AI core as programs name them, and the pipe of each operation class that
// record_event / wait_event name. The pipe of each instruction is part of its definition
// (src/engine/definition.hpp, engine::instruction_pipe).
//
// Sources (facts only): the operation-class to pipe table of PTO Tile Lib's event header and the
// PTO-AS synchronisation op types.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include <pto/common/event.hpp>
#include <pto/common/type.hpp>

namespace pto::engine {

inline constexpr std::size_t kPipeCount = static_cast<std::size_t>(PIPE_FIX) + 1;

struct PipeName {
    std::string_view name;  // as written in a program: "PIPE_MTE2"
    pipe_t pipe;
};

inline constexpr std::array<PipeName, kPipeCount> kPipeNames = {{
    {"PIPE_S", PIPE_S},       {"PIPE_V", PIPE_V},       {"PIPE_M", PIPE_M},       {"PIPE_MTE1", PIPE_MTE1},
    {"PIPE_MTE2", PIPE_MTE2}, {"PIPE_MTE3", PIPE_MTE3}, {"PIPE_ALL", PIPE_ALL},   {"PIPE_MTE4", PIPE_MTE4},
    {"PIPE_MTE5", PIPE_MTE5}, {"PIPE_V2", PIPE_V2},     {"PIPE_FIX", PIPE_FIX},
}};

constexpr std::optional<pipe_t> pipe_from_name(std::string_view name)
{
    for (const PipeName& p : kPipeNames)
        if (p.name == name) return p.pipe;
    return std::nullopt;
}

// 3 for "EVENT_ID3"; nothing for any other text.
constexpr std::optional<int32_t> event_from_name(std::string_view name)
{
    constexpr std::string_view prefix = "EVENT_ID";
    if (name.size() <= prefix.size() || name.size() > prefix.size() + 3 || name.substr(0, prefix.size()) != prefix) return std::nullopt;
    int32_t id = 0;
    for (char c : name.substr(prefix.size())) {
        if (c < '0' || c > '9') return std::nullopt;
        id = id * 10 + (c - '0');
    }
    return id;
}

// "MTE2" for PIPE_MTE2: the short name diagnostics use.
constexpr std::string_view pipe_short_name(pipe_t pipe)
{
    for (const PipeName& p : kPipeNames)
        if (p.pipe == pipe) return p.name.substr(5);
    return "?";
}

// The pipe of an operation class named by record_event / wait_event / barrier in PTO-AS
// (`#pto.sync_op_type<TLOAD>`): the pipe of the C++ operation class it names (pto::pipe_of); nothing
// for a class without a documented pipe.
constexpr std::optional<pipe_t> event_class_pipe(std::string_view op_class)
{
    using pto::Op;
    constexpr std::pair<std::string_view, Op> kClasses[] = {
        {"TLOAD", Op::TLOAD},       {"TSTORE_VEC", Op::TSTORE_VEC}, {"TSTORE_MAT", Op::TSTORE_MAT}, {"TSTORE_ACC", Op::TSTORE_ACC},
        {"TMOV_M2L", Op::TMOV_M2L}, {"TMOV_M2R", Op::TMOV_M2R},     {"TMOV_M2B", Op::TMOV_M2B},     {"TMOV_M2S", Op::TMOV_M2S},
        {"TMOV_V2M", Op::TMOV_V2M}, {"TMOV_A2V", Op::TMOV_A2V},     {"TMOV_A2M", Op::TMOV_A2M},     {"TMOV_V2V", Op::TMOV_V2V},
        {"TMATMUL", Op::TMATMUL},   {"TVEC", Op::VECTOR},
    };
    for (const auto& [name, op] : kClasses)
        if (name == op_class) return pto::pipe_of(op);
    return std::nullopt;
}

}  // namespace pto::engine
