// The mask-pattern attribute of TGATHER's and TSCATTER's mask forms, as the text spells it.
#pragma once

#include <string_view>

#include <pto/common/type.hpp>

#include "engine/definition.hpp"

namespace pto::engine::gather {

inline constexpr std::string_view kPatternKeys[] = {"maskPattern", "mask_pattern", "pattern"};
inline constexpr AttributeValue kPatternValues[] = {
    spelling("p0101", MaskPattern::P0101), spelling("p1010", MaskPattern::P1010), spelling("p0001", MaskPattern::P0001),
    spelling("p0010", MaskPattern::P0010), spelling("p0100", MaskPattern::P0100), spelling("p1000", MaskPattern::P1000),
    spelling("p1111", MaskPattern::P1111),
};

}  // namespace pto::engine::gather
