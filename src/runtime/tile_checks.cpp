#include <pto/common/tile.hpp>

#include <pto/runtime/diagnostic.hpp>

#include <string>

namespace pto::detail {

void check_valid_extent(const char* what, unsigned value, int capacity)
{
    if (value > static_cast<unsigned>(capacity)) {
        runtime::fail({"RUN_VALID_SHAPE", "", "tile",
                       std::string(what) + " exceed the tile's capacity", "at most " + std::to_string(capacity),
                       std::to_string(value), ""});
    }
}

}  // namespace pto::detail
