#include "engine/global_atomics.hpp"

namespace pto::engine {

std::unique_lock<std::mutex> lock_global_atomics()
{
    static std::mutex atomics;
    return std::unique_lock(atomics);
}

}  // namespace pto::engine
