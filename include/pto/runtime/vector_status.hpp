// The vector core's status register VMS4_SR: the records the last pto.vmrgsort4 took from each of its
// four lists (list k in bits 16k to 16k + 15), which pto.get_vms4_sr reads. Kept apart from the
// configuration registers (registers.hpp): only the merge writes it and only the query reads it.
#pragma once

#include <cstdint>

namespace pto::runtime {

// VMS4_SR of the calling thread's current core; 0 until a merge writes it.
uint64_t& vms4_status();

}  // namespace pto::runtime
