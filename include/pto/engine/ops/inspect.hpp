// Engine entry points of TPRINT, and the text it prints.
#pragma once

#include <string>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

// The text TPRINT writes for a tile: a header `TPRINT RxC <loc> <dtype>, valid VRxVC`, then
// every row of the capacity, each value in the format's width (floats %8.4f, %8.2f or %10.6f by
// PrintFormat; integers %8d or %10d) after one space; " |" separates the valid columns from the rest,
// and a line of dashes the valid rows from the rest (both only when the region is partial). Half and
// bfloat16 print as their float values.
std::string format_tile(const TileDesc& t, PrintFormat format);

// The text for a global tensor: `TPRINT RxC GM <dtype>` and its 2-D view's rows (the view TLOAD has of
// it: ND, DN or NZ).
std::string format_global(const GlobalDesc& g, PrintFormat format);

// TPRINT: writes the text to std::cout. A Vec tile prints directly; an Acc or Mat tile needs a tmp
// (`has_tmp`), and a global tmp (`tmp`) must hold its capacity's bytes (checked, not written), as the
// devices stage it there.
void tprint(const TileDesc& t, PrintFormat format, const GlobalDesc* tmp, bool has_tmp);
void tprint(const GlobalDesc& g, PrintFormat format);
void check_tprint(const profile::Profile& p, const TileDesc& t, const GlobalDesc* tmp, LegalitySink& sink, bool has_tmp);

}  // namespace pto::engine
