// The rules of TEXTRACT from a convolution tile, for the definition's check (the text door's verifier);
// the C++ entry, engine::textract(TileDesc, ConvTileDesc, WindowStart), is in <pto/engine/ops/data_movement.hpp>.
#pragma once

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>
#include <pto/engine/ops/data_movement.hpp>
#include <pto/profile/profile.hpp>

namespace pto::engine {

// FRACTAL_Z weights in L1 (LEGAL_TEXTRACT_LAYOUT, _LOCATION) into a Right tile of their type, then the rules
// of a window of the Zn matrix they lay out (a ReLU or split mode is TMOV's LEGAL_TMOV_MODE there, as on
// any Mat source). `start`: null when the verifier does not know it.
void check_textract(const profile::Profile& p, const TileDesc& dst, const ConvTileDesc& src, const WindowStart* start,
                    ReluPreMode relu, AccToVecMode mode, LegalitySink& sink);

}  // namespace pto::engine
