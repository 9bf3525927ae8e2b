// The `ptosim` command line as a library function, so tests drive it without a process.
//
//   ptosim run PROGRAM.pto [--entry NAME] [--target cpu|a2a3|a5] [--sync auto|explicit] [--check] [--blocks N]
//                          [--arg NAME=VALUE]... [--out NAME=PATH]...
//   ptosim verify [--target cpu|a2a3|a5] [--sync auto|explicit] PROGRAM.pto
//   ptosim fmt [--form preserve|asm|ssa|dps] PROGRAM.pto
//
// VALUE is an .npy path (the pointer argument gets a copy of the array), PATH.bin:DTYPE:SHAPE (raw
// little-endian data), DTYPE:SHAPE such as f32:64x128 (zeros), or a number (a scalar argument).
// Exit status: 0 success, 1 diagnostics or a failed run, 2 usage.
#pragma once

#include <ostream>

namespace pto::as {

int run_cli(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace pto::as
