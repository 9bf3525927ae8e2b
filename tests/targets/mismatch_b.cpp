#include <pto/pto-inst.hpp>

int run_other_unit()
{
    pto::Tile<pto::TileType::Vec, float, 8, 64> t;
    TASSIGN(t, 0x800);
    return 0;
}
