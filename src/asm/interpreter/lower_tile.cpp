// Lowering of the tile instructions: each becomes one step that binds its operands' pre-resolved slots
// to the form its definition matched and calls the definition's engine entry point, the one the C++
// intrinsic calls.
#include <pto/runtime/memory.hpp>

#include <array>

#include "asm/instruction_binding.hpp"
#include "asm/interpreter/lowering.hpp"
#include "asm/interpreter/scalar.hpp"

namespace pto::as::interp {

namespace {

// Where each operand of the call is read from: a slot, and what it holds there.
struct OperandSlot {
    int slot = -1;  // -1: an optional source left out
    engine::OperandKind kind = engine::OperandKind::Tile;
    bool is_float = false;  // for a scalar
};

// The most operands any instruction form has; a call's operands live on the stack.
constexpr std::size_t kMaxOperands = 8;

}  // namespace

void Lowerer::lower_tile(const Operation& op, const OpInfo& info, Body& body)
{
    const engine::InstrDef& def = *info.instruction;

    // Sources, then destinations: DPS `outs` operands, or fresh tiles for SSA results.
    std::vector<Type> in, out;
    std::vector<int> in_slots, out_slots;
    for (const Value* v : op.inputs()) in_slots.push_back(slot(v));
    for (std::size_t i = 0; i < in_slots.size(); ++i) in.push_back(operand_type(op, i));
    for (std::size_t i = 0; i < op.outputs().size(); ++i) {
        out_slots.push_back(slot(op.outputs()[i]));
        out.push_back(operand_type(op, in_slots.size() + i));
    }
    std::vector<std::pair<int, engine::TileDesc>> fresh;  // result slot and its prototype
    std::vector<int> fresh_sites;
    for (std::size_t i = 0; i < op.results.size(); ++i) {
        const Type t = result_type(op, i);
        const int s = define(op.results[i].get());
        out_slots.push_back(s);
        out.push_back(t);
        if (t.is<TileType>()) {
            fresh.emplace_back(s, tile_prototype(op, t));
            fresh_sites.push_back(new_site());
        }
    }

    std::vector<BindingProblem> problems;
    const auto binding = bind_instruction(op, info, in, out, problems);
    if (!binding) fail(op, problems.front().code, problems.front().what, problems.front().expected, problems.front().actual);
    const engine::Form& form = def.forms[binding->form];
    if (form.sources.size() + form.destinations.size() > kMaxOperands)
        fail(op, codes::kUnsupportedOp, "too many operands for the interpreter", std::to_string(kMaxOperands), std::string(def.mnemonic));

    auto operand_slots = [](const std::vector<int>& slots, const std::vector<Type>& types, std::size_t count) {
        std::vector<OperandSlot> out(count);
        for (std::size_t i = 0; i < slots.size(); ++i) {
            const Type& t = types[i];
            out[i].slot = slots[i];
            out[i].kind = t.is<TileType>()                                    ? engine::OperandKind::Tile
                          : t.is<ConvTileType>()                              ? engine::OperandKind::ConvTile
                          : fits_operand_kind(t, engine::OperandKind::View) ? engine::OperandKind::View
                                                                              : engine::OperandKind::Scalar;
            out[i].is_float = t.is_scalar() && scalar_kind(t).is_float;
        }
        return out;
    };
    const std::vector<OperandSlot> sources = operand_slots(in_slots, in, form.sources.size());
    const std::vector<OperandSlot> destinations = operand_slots(out_slots, out, form.destinations.size());

    body.steps.push_back({[&def, form_index = binding->form, attributes = binding->attributes, sources, destinations,
                           fresh, fresh_sites](Frame& f) {
                              // Materialise the SSA results' tiles before the instruction runs.
                              for (std::size_t k = 0; k < fresh.size(); ++k) {
                                  auto& storage = f.storage[fresh_sites[k]];
                                  const engine::TileDesc& proto = fresh[k].second;
                                  if (!storage) storage = runtime::allocate_auto(proto.loc, uint64_t(proto.bytes()));
                                  engine::TileDesc t = proto;
                                  t.data = storage.get();
                                  f.slots[fresh[k].first].tile = t;
                              }
                              std::array<engine::CallOperand, kMaxOperands> operands;
                              std::array<engine::ScalarValue, kMaxOperands> scalars;
                              auto bind = [&](const std::vector<OperandSlot>& from, std::size_t first) {
                                  for (std::size_t i = 0; i < from.size(); ++i) {
                                      const OperandSlot& o = from[i];
                                      if (o.slot < 0) continue;
                                      Slot& s = f.slots[o.slot];
                                      engine::CallOperand& operand = operands[first + i];
                                      switch (o.kind) {
                                          case engine::OperandKind::Tile: operand.tile = &s.tile; break;
                                          case engine::OperandKind::View: operand.view = &s.view; break;
                                          case engine::OperandKind::ConvTile: operand.conv = s.conv.get(); break;
                                          default:
                                              scalars[first + i] = {o.is_float ? 0 : s.i, o.is_float ? s.f : 0, o.is_float, true};
                                              operand.scalar = &scalars[first + i];
                                      }
                                  }
                              };
                              bind(sources, 0);
                              bind(destinations, sources.size());
                              const std::span<engine::CallOperand> all(operands);
                              def.run({form_index, all.subspan(0, sources.size()),
                                       all.subspan(sources.size(), destinations.size()), attributes});
                          },
                          &op});
}

}  // namespace pto::as::interp
