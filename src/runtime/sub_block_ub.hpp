// The UBs of a launch's vector cores, as their block's cube core reaches them (write_sub_block_ub,
// pto/runtime/memory.hpp): each vector core's BlockScope publishes its UB once it is fresh and
// withdraws it before the core is kept for another.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pto::runtime {

void publish_vector_ub(std::byte* ub, uint64_t size);
// `failed`: the core ends by a failure, which the launch reports; a cube core waiting to write its UB
// is released by that failure rather than told the core has ended.
void withdraw_vector_ub(bool failed);

}  // namespace pto::runtime
