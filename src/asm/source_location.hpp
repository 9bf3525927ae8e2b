// A position in PTO-AS source text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pto::as {

// 1-based line and column; the column counts bytes, so a tab is one column. Line 0 means unknown.
struct SourceLocation {
    uint32_t line = 0;
    uint32_t column = 0;

    bool known() const { return line != 0; }
    friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

// "file:line:col", the prefix of every PTO-AS diagnostic.
inline std::string format_location(std::string_view file, SourceLocation loc)
{
    std::string out(file);
    if (loc.known()) out += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
    return out;
}

}  // namespace pto::as
