// Lowering of the pto operations that are not ISA instructions: tensor views, tile allocation and
// metadata, block queries, and synchronisation.
#include <charconv>

#include <pto/common/event.hpp>
#include <pto/engine/instructions.hpp>
#include <pto/engine/ops/layout.hpp>
#include <pto/engine/pipes.hpp>
#include <pto/profile/profile.hpp>
#include <pto/profile/rules_vector.hpp>
#include <pto/runtime/memory.hpp>
#include <pto/runtime/registers.hpp>
#include <pto/runtime/sync.hpp>

#include "asm/cube_form.hpp"
#include "asm/interpreter/lowering.hpp"
#include "asm/printer.hpp"
#include "asm/operand_descriptors.hpp"

namespace pto::as::interp {

namespace {

int64_t item_value(const Frame& f, const GroupItem& item) { return item.slot < 0 ? item.literal : f.slots[item.slot].i; }

// Where an allocated tile of `bytes` in memory `loc` lies: at the explicit address `addr` (TASSIGN, a byte
// offset in the memory), else in the allocation site's automatic storage.
std::byte* tile_storage(Frame& f, int site, const std::vector<GroupItem>& addr, pto::TileType loc, uint64_t bytes)
{
    if (!addr.empty()) return runtime::tile_address(loc, uint64_t(item_value(f, addr[0])), bytes);
    auto& storage = f.storage[site];
    if (!storage) storage = runtime::allocate_auto(loc, bytes);
    return storage.get();
}

// A pipe or event name of a sync operation as its pipe_t / event_t value; record_event / wait_event
// name an operation class (TLOAD, TMATMUL) for the pipe that runs it. -1 for anything else.
int32_t sync_code(const Attribute* a)
{
    if (!a) return -1;
    const std::string v = a->enum_value();
    if (const auto pipe = engine::pipe_from_name(v)) return *pipe;
    if (const auto event = engine::event_from_name(v)) return *event;
    if (const auto pipe = engine::event_class_pipe(v)) return *pipe;
    return -1;
}

// RUN_EVENT_ID unless `id` names one of the core's event flags.
void require_event_id(int64_t id, const char* operand)
{
    if (id < 0 || id >= EVENT_ID_MAX)
        runtime::fail({"RUN_EVENT_ID", "", operand, "an event id", "0 to " + std::to_string(EVENT_ID_MAX - 1), std::to_string(id), ""});
}

}  // namespace

void set_valid_shape(engine::TileDesc& tile, int64_t rows, int64_t cols, const Module& module, const Operation& op)
{
    if (rows < 0 || rows > tile.rows || cols < 0 || cols > tile.cols)
        throw SimError({std::string(codes::kValidShape), op.name, "", "valid shape outside the tile",
                        "within " + std::to_string(tile.rows) + "x" + std::to_string(tile.cols),
                        std::to_string(rows) + "x" + std::to_string(cols), location_of(module, op)});
    tile.valid_rows = int32_t(rows);
    tile.valid_cols = int32_t(cols);
}

void Lowerer::lower_view(const Operation& op, Body& body)
{
    auto add = [&](StepRun fn) { body.steps.push_back({std::move(fn), &op}); };
    const Operation* where = &op;
    const Module* module = &module_;

    if (op.name == "pto.make_tensor_view" || op.name == "pto.partition_view") {
        const bool partition = op.name == "pto.partition_view";
        const std::vector<GroupItem> source = group(op, "");
        const std::vector<GroupItem> shape = group(op, partition ? "sizes" : "shape");
        const std::vector<GroupItem> strides = partition ? std::vector<GroupItem>{} : group(op, "strides");
        const std::vector<GroupItem> offsets = partition ? group(op, "offsets") : std::vector<GroupItem>{};
        if (source.size() != 1 || source[0].slot < 0 || shape.empty() || shape.size() > 5 ||
            (!partition && strides.size() != shape.size()) || (partition && offsets.size() != shape.size()))
            fail(op, codes::kBadOperand, "view operands", "a source, and one shape/stride or offset/size per dimension");
        const Type rt = result_type(op, 0);
        const auto dtype = rt.element_dtype().value_or(engine::DType::F32);
        const Layout layout = view_layout(partition ? operand_type(op, 0) : rt);
        const int src = source[0].slot;
        const int d = define(op.results.at(0).get());
        return add([=](Frame& f) {
            const engine::GlobalDesc& in = f.slots[src].view;
            engine::GlobalDesc out;
            const std::size_t n = shape.size(), lead = 5 - n;
            auto out_of_bounds = [&](std::string expected, std::string actual) {
                throw SimError({"RUN_VIEW_BOUNDS", where->name, "", "view outside its tensor", std::move(expected), std::move(actual),
                                location_of(*module, *where)});
            };
            if (partition) {
                out = in;
                int64_t offset = 0;
                for (std::size_t k = 0; k < n; ++k) {
                    const int64_t off = item_value(f, offsets[k]), size = item_value(f, shape[k]);
                    // Checked here, once per view, so that no transfer through it can leave the tensor.
                    if (off < 0 || size < 0 || off + size > in.shape[lead + k])
                        out_of_bounds("offset + size <= " + std::to_string(in.shape[lead + k]) + " in dimension " + std::to_string(k),
                                      std::to_string(off) + " + " + std::to_string(size));
                    offset += off * in.stride[lead + k];
                    out.shape[lead + k] = size;
                }
                out.data = in.data + offset * engine::dtype_bits(in.dtype) / 8;
            } else {
                out.data = in.data;
                out.dtype = dtype;
                out.layout = layout;
                for (std::size_t k = 0; k < n; ++k) {
                    out.shape[lead + k] = item_value(f, shape[k]);
                    out.stride[lead + k] = item_value(f, strides[k]);
                }
                // Unused outer dimensions have extent 1; give them the stride of a whole next block.
                for (std::size_t k = lead; k-- > 0;) out.stride[k] = out.stride[k + 1] * out.shape[k + 1];
                // A view of a host array (registered for the run) must stay inside it.
                int64_t last = 0;
                bool empty = false;
                for (std::size_t k = lead; k < 5; ++k) {
                    if (out.shape[k] <= 0) empty = true;
                    else last += (out.shape[k] - 1) * out.stride[k];
                }
                const int64_t need = empty ? 0 : (last + 1) * engine::dtype_bits(out.dtype) / 8;
                const int64_t have = runtime::global_bytes_after(out.data);
                if (have >= 0 && need > have) out_of_bounds("at most " + std::to_string(have) + " bytes", std::to_string(need) + " bytes");
            }
            for (std::size_t k = lead; k < 5; ++k)
                if (out.shape[k] < 0)
                    throw SimError({"RUN_VIEW_SHAPE", where->name, "", "negative view extent", ">= 0",
                                    std::to_string(out.shape[k]), location_of(*module, *where)});
            f.slots[d].view = out;
        });
    }

    if (op.name == "pto.alloc_tile" && result_type(op, 0).is<ConvTileType>()) {
        // A convolution tile: static dimensions, so no valid shape; an address is TASSIGN.
        const auto proto = conv_tile_descriptor(result_type(op, 0));
        if (!proto) fail(op, codes::kBadOperand, "convolution tile element type has no engine equivalent");
        if (!group(op, "valid_row").empty() || !group(op, "valid_col").empty())
            fail(op, codes::kBadOperand, "a convolution tile has no valid shape", "no valid_row or valid_col", "one");
        const std::vector<GroupItem> addr = group(op, "addr");
        const int site = new_site();
        const int d = define(op.results.at(0).get());
        return add([=, proto = *proto](Frame& f) {
            auto t = std::make_shared<engine::ConvTileDesc>(proto);
            t->data = tile_storage(f, site, addr, t->loc, uint64_t(t->buffer_bytes));
            f.slots[d].conv = std::move(t);
        });
    }

    if (op.name == "pto.alloc_tile") {
        const engine::TileDesc proto = tile_prototype(op, result_type(op, 0));
        const std::vector<GroupItem> addr = group(op, "addr");
        const std::vector<GroupItem> vr = group(op, "valid_row");
        const std::vector<GroupItem> vc = group(op, "valid_col");
        const int site = new_site();
        const int d = define(op.results.at(0).get());
        const uint64_t bytes = uint64_t(proto.bytes());
        return add([=](Frame& f) {
            engine::TileDesc t = proto;
            if (!vr.empty()) t.valid_rows = int32_t(item_value(f, vr[0]));
            if (!vc.empty()) t.valid_cols = int32_t(item_value(f, vc[0]));
            if (t.valid_rows < 0 || t.valid_rows > t.rows || t.valid_cols < 0 || t.valid_cols > t.cols)
                throw SimError({std::string(codes::kValidShape), "pto.alloc_tile", "", "valid shape outside the tile",
                                "within " + std::to_string(t.rows) + "x" + std::to_string(t.cols),
                                std::to_string(t.valid_rows) + "x" + std::to_string(t.valid_cols), location_of(*module, *where)});
            t.data = tile_storage(f, site, addr, t.loc, bytes);
            f.slots[d].tile = t;
        });
    }

    if (op.name == "pto.set_validshape") {
        const int t = slot(op.operands.at(0)), r = slot(op.operands.at(1)), c = slot(op.operands.at(2));
        return add([=](Frame& f) { set_valid_shape(f.slots[t].tile, f.slots[r].i, f.slots[c].i, *module, *where); });
    }

    if (op.name == "pto.treshape") {
        const engine::TileDesc proto = tile_prototype(op, result_type(op, 0));
        const int src = slot(op.operands.at(0));
        const int d = define(op.results.at(0).get());
        return add([=](Frame& f) {
            const engine::TileDesc& in = f.slots[src].tile;
            if (in.bytes() != proto.bytes())
                throw SimError({std::string(codes::kReshape), "TRESHAPE", "", "a reshape keeps the tile's size in bytes",
                                std::to_string(in.bytes()), std::to_string(proto.bytes()), location_of(*module, *where)});
            engine::TileDesc t = proto;
            t.data = in.data;
            f.slots[d].tile = t;
        });
    }

    if (op.name == "pto.subview" || op.name == "pto.tsubview" || op.name == "pto.talias") {
        // A view of the source's bytes, as an SSA result or (DPS) rebinding the destination given.
        const bool subview = op.name != "pto.talias";
        const std::size_t inputs = op.inputs().size();
        if (inputs != (subview ? 3u : 1u) || op.num_outputs + op.results.size() != 1)
            fail(op, codes::kBadOperand, op.name + " operands", subview ? "a tile, a row and a column; one result" : "a tile; one result");
        const engine::TileDesc proto = tile_prototype(op, op.num_outputs ? operand_type(op, inputs) : result_type(op, 0));
        const int src = slot(op.operands.at(0));
        const int row = subview ? slot(op.operands.at(1)) : -1, col = subview ? slot(op.operands.at(2)) : -1;
        const bool dps = op.num_outputs > 0;
        const int d = dps ? slot(op.operands.at(inputs)) : define(op.results.at(0).get());
        return add([=](Frame& f) {
            const engine::TileDesc& in = f.slots[src].tile;
            engine::TileDesc t = proto;
            if (dps) {  // the destination keeps the valid region it was given at run time
                t.valid_rows = f.slots[d].tile.valid_rows;
                t.valid_cols = f.slots[d].tile.valid_cols;
            }
            if (subview) {
                t.data = in.data + engine::subview_byte_offset(t, in, f.slots[row].i, f.slots[col].i);
            } else {
                engine::require_talias(t, in);
                t.data = in.data;
            }
            f.slots[d].tile = t;
        });
    }

    if (op.name == "pto.subset") {
        // A TileDesc has no row pitch, so a subset is expressible when it spans whole rows of an
        // unboxed row-major tile (or whole columns of a column-major one).
        engine::TileDesc proto = tile_prototype(op, operand_type(op, 0));
        const std::vector<GroupItem> at = group(op, "");
        std::vector<GroupItem> index;
        for (const OperandGroup& g : op.input_layout)
            if (g.style == GroupStyle::Subscript) {
                std::size_t cursor = 1;
                for (const OperandItem& it : g.items) index.push_back(it.literal ? GroupItem{-1, it.value} : GroupItem{slot(op.operands[cursor++]), 0});
            }
        const std::vector<GroupItem> sizes = group(op, "sizes");
        if (at.size() != 1 || index.size() != 2 || sizes.size() != 2 || sizes[0].slot >= 0 || sizes[1].slot >= 0)
            fail(op, codes::kBadOperand, "pto.subset operands", "%tile[%row, %col] sizes [R, C]");
        const bool row_major = proto.rows_contiguous();
        const bool col_major = !proto.boxed() && proto.blayout == BLayout::ColMajor;
        if ((row_major && sizes[1].literal != proto.cols) || (col_major && sizes[0].literal != proto.rows) || (!row_major && !col_major))
            fail(op, codes::kSubset, "a subset must span whole rows (row-major) or whole columns (column-major) of an unboxed tile");
        const int src = at[0].slot;
        const int d = define(op.results.at(0).get());
        const int32_t sub_rows = int32_t(sizes[0].literal), sub_cols = int32_t(sizes[1].literal);
        return add([=](Frame& f) {
            const engine::TileDesc& in = f.slots[src].tile;
            const int64_t r = item_value(f, index[0]), c = item_value(f, index[1]);
            if (r < 0 || c < 0 || r + sub_rows > in.rows || c + sub_cols > in.cols || (row_major ? c != 0 : r != 0))
                throw SimError({std::string(codes::kSubset), "pto.subset", "", "subset outside the tile or not whole lines",
                                "within " + std::to_string(in.rows) + "x" + std::to_string(in.cols),
                                "[" + std::to_string(r) + ", " + std::to_string(c) + "]", location_of(*module, *where)});
            engine::TileDesc t = in;
            t.data = in.data + in.offset(r, c) * in.element_bits() / 8;
            t.rows = sub_rows;
            t.cols = sub_cols;
            t.valid_rows = std::clamp<int32_t>(in.valid_rows - int32_t(r), 0, sub_rows);
            t.valid_cols = std::clamp<int32_t>(in.valid_cols - int32_t(c), 0, sub_cols);
            f.slots[d].tile = t;
        });
    }

    if (op.name == "pto.tile_buf_addr") {
        // The pointer to a tile's data: its byte offset in its on-chip memory. A tile the program gave
        // no address lives outside the simulated memories, where no pointer reaches.
        const PointerInfo p = pointer_info(result_type(op, 0));
        if (!p.memory) fail(op, codes::kBadOperand, "tile_buf_addr gives an on-chip pointer", "!pto.ptr<T, vec>", to_string(result_type(op, 0)));
        const int t = slot(op.operands.at(0)), d = define(op.results.at(0).get());
        return add([=](Frame& f) {
            const engine::TileDesc& tile = f.slots[t].tile;
            std::byte* const base = runtime::memory_base(tile.loc);
            const uint64_t size = runtime::memory_size(tile.loc);
            if (tile.loc != *p.memory || !base || tile.data < base || tile.data >= base + size)
                throw SimError({std::string(codes::kBadOperand), "pto.tile_buf_addr", "tile",
                                "the tile has no address in " + std::string(profile::memory_name(*p.memory)),
                                "a tile allocated with `addr = ...` in that memory", "a tile placed elsewhere", location_of(*module, *where)});
            f.slots[d].i = tile.data - base;
        });
    }

    if (op.name == "pto.tensor_view_addr") {
        if (!result_type(op, 0).is<PtrType>() || pointer_info(result_type(op, 0)).memory)
            fail(op, codes::kBadOperand, "tensor_view_addr gives a global-memory pointer", "!pto.ptr<T, gm>", to_string(result_type(op, 0)));
        const int v = slot(op.operands.at(0)), d = define(op.results.at(0).get());
        const engine::DType dtype = pointer_info(result_type(op, 0)).dtype;
        return add([=](Frame& f) { f.slots[d].view = {.data = f.slots[v].view.data, .dtype = dtype}; });
    }

    if (op.name == "pto.get_tensor_view_dim" || op.name == "pto.get_tensor_view_stride") {
        // Dimension `idx` of the view's rank (its type's), counted in elements.
        const Type vt = operand_type(op, 0);
        const auto* view = vt.dyn_cast<TensorViewType>();
        if (!view) fail(op, codes::kBadOperand, "the operand is a tensor view", "!pto.tensor_view<...>", to_string(vt));
        const int64_t rank = int64_t(view->shape.size());
        const bool stride = op.name == "pto.get_tensor_view_stride";
        const int v = slot(op.operands.at(0)), index = slot(op.operands.at(1)), d = define(op.results.at(0).get());
        return add([=](Frame& f) {
            const int64_t k = f.slots[index].i;
            if (k < 0 || k >= rank)
                throw SimError({"RUN_VIEW_DIM", where->name, "idx", "no such dimension of the view",
                                "0 to " + std::to_string(rank - 1), std::to_string(k), location_of(*module, *where)});
            const engine::GlobalDesc& g = f.slots[v].view;
            f.slots[d].i = stride ? g.stride[5 - rank + k] : g.shape[5 - rank + k];
        });
    }

    fail(op, codes::kUnsupportedOp, "the interpreter cannot run this operation", "a supported operation", op.name);
}

void Lowerer::lower_query(const Operation& op, Body& body)
{
    const int d = define(op.results.at(0).get());
    uint32_t (*query)() = nullptr;
    if (op.name == "pto.get_block_idx") query = runtime::block_idx;
    else if (op.name == "pto.get_block_num") query = runtime::block_num;
    else if (op.name == "pto.get_subblock_idx") query = runtime::subblock_idx;
    // One simulated core runs each block's vector work: one sub-block.
    else query = [] { return uint32_t{1}; };
    body.steps.push_back({[d, query](Frame& f) { f.slots[d].i = int64_t(query()); }, &op});
}

// pto.get_buf / pto.rls_buf "PIPE_*", %buf_id, %mode: a pipe acquires a buffer slot, then releases it.
// The pipes run concurrently on the device, so one pipe's hold never blocks another's here; what is
// checked is each pipe's own protocol: no second acquire of a slot it holds, no release of a slot it
// does not hold. The mode changes nothing.
void Lowerer::lower_buffer_sync(const Operation& op, Body& body)
{
    const bool acquire = op.name == "pto.get_buf";
    const std::optional<pipe_t> pipe = op.arguments.empty() ? std::nullopt : engine::pipe_from_name(op.arguments[0].enum_value());
    if (!pipe || *pipe == PIPE_ALL)
        fail(op, codes::kBadOperand, "the pipe that acquires or releases the slot", "PIPE_S, PIPE_V, PIPE_MTE2, ...",
             op.arguments.empty() ? std::string("none") : op.arguments[0].enum_value());
    body.steps.push_back({[=, id_slot = slot(op.operands[0]), name = op.name](Frame& f) {
                              runtime::InstructionScope scope(name.c_str());
                              engine::vector::buffer_slot(*pipe, f.slots[id_slot].i, acquire);
                          },
                          &op});
}

// Event ids a kernel computes: `pto.declare_eventid_array -> !pto.eventid_array<N>` makes an array of N
// ids, none set (its slot holds the address of N + 1 int32: N, then the ids, -1 when unset; the
// storage is the frame's, made fresh at every execution); `eventid_array_set %a[%i], %v` and
// `eventid_array_get %a[%i]` write and read one; `set_flag_dyn` / `wait_flag_dyn` take one as the event.
void Lowerer::lower_event_ids(const Operation& op, Body& body)
{
    auto index_check = [](const int32_t* array, int64_t i) {
        if (i < 0 || i >= array[0])
            runtime::fail({"RUN_EVENTID_INDEX", "", "index", "an element of the event-id array",
                           "0 to " + std::to_string(array[0] - 1), std::to_string(i), ""});
    };
    if (op.name == "pto.declare_eventid_array") {
        const auto* type = op.results.size() == 1 ? op.results[0]->type.dyn_cast<OpaqueType>() : nullptr;
        int64_t n = 0;
        const std::string count = type && type->body ? *type->body : std::string();
        const auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), n);
        if (!type || type->name != "eventid_array" || error != std::errc() || end != count.data() + count.size() || n < 1 || n > 1024)
            fail(op, codes::kBadOperand, "the array's type", "!pto.eventid_array<N>, N from 1 to 1024",
                 op.results.size() == 1 ? to_string(op.results[0]->type) : "no result");
        const int site = new_site(), result = define(op.results[0].get());
        body.steps.push_back({[=](Frame& f) {
                                  auto& storage = f.storage[std::size_t(site)];
                                  if (!storage) storage = std::shared_ptr<std::byte>(new std::byte[std::size_t(n + 1) * 4], std::default_delete<std::byte[]>());
                                  auto* array = reinterpret_cast<int32_t*>(storage.get());
                                  array[0] = int32_t(n);
                                  std::fill(array + 1, array + 1 + n, -1);
                                  f.slots[std::size_t(result)].i = int64_t(reinterpret_cast<intptr_t>(array));
                              },
                              &op});
        return;
    }
    const bool get = op.name == "pto.eventid_array_get";
    if (op.operands.size() != (get ? 2u : 3u) || op.results.size() != (get ? 1u : 0u))
        fail(op, codes::kBadOperand, op.name + " operands", get ? "an array and an index; one result" : "an array, an index and a value");
    const int array_slot = slot(op.operands[0]), index_slot = slot(op.operands[1]);
    if (get) {
        const int result = define(op.results[0].get());
        body.steps.push_back({[=](Frame& f) {
                                  const auto* array = reinterpret_cast<const int32_t*>(intptr_t(f.slots[std::size_t(array_slot)].i));
                                  const int64_t i = f.slots[std::size_t(index_slot)].i;
                                  index_check(array, i);
                                  if (array[1 + i] < 0)
                                      runtime::fail({"RUN_EVENTID_UNSET", "", "index", "reads element " + std::to_string(i) + " of the event-id array, which nothing set",
                                                     "an eventid_array_set of it first", "an unset element", ""});
                                  f.slots[std::size_t(result)].i = array[1 + i];
                              },
                              &op});
        return;
    }
    const int value_slot = slot(op.operands[2]);
    body.steps.push_back({[=](Frame& f) {
                              auto* array = reinterpret_cast<int32_t*>(intptr_t(f.slots[std::size_t(array_slot)].i));
                              const int64_t i = f.slots[std::size_t(index_slot)].i, v = f.slots[std::size_t(value_slot)].i;
                              index_check(array, i);
                              require_event_id(v, "value");
                              array[1 + i] = int32_t(v);
                          },
                          &op});
}

void Lowerer::lower_sync(const Operation& op, Body& body)
{
    if (op.name == "pto.get_buf" || op.name == "pto.rls_buf") return lower_buffer_sync(op, body);
    if (op.name.find("eventid_array") != std::string::npos) return lower_event_ids(op, body);
    if (op.name == "pto.set_flag_dyn" || op.name == "pto.wait_flag_dyn") {
        auto pipe = [&](std::size_t i) { return i < op.arguments.size() ? engine::pipe_from_name(op.arguments[i].enum_value()) : std::nullopt; };
        if (op.arguments.size() != 2 || !pipe(0) || !pipe(1) || op.operands.size() != 1)
            fail(op, codes::kBadOperand, "sync operands", "[source pipe, destination pipe, %event_id]",
                 std::to_string(op.arguments.size()) + " pipes and " + std::to_string(op.operands.size()) + " operands");
        const runtime::SyncKind kind = op.name == "pto.set_flag_dyn" ? runtime::SyncKind::SetFlag : runtime::SyncKind::WaitFlag;
        const int32_t src = *pipe(0), dst = *pipe(1);
        const int event_slot = slot(op.operands[0]);
        body.steps.push_back({[=](Frame& f) {
                                  const int64_t event = f.slots[std::size_t(event_slot)].i;
                                  require_event_id(event, "event_id");
                                  runtime::record_sync(kind, src, dst, int32_t(event));
                              },
                              &op});
        return;
    }
    // pto.mem_bar orders the vector pipe's own UB accesses, which run in program order here.
    if (op.name == "pto.mem_bar") return;
    auto arg = [&](std::size_t i) { return i < op.arguments.size() ? &op.arguments[i] : nullptr; };
    runtime::SyncKind kind = runtime::SyncKind::PipeBarrier;
    int32_t src = -1, dst = -1, event = -1;
    if (op.name == "pto.set_flag" || op.name == "pto.wait_flag" || op.name == "pto.record_event" || op.name == "pto.wait_event") {
        if (op.arguments.size() != 3) fail(op, codes::kBadOperand, "sync operands", "[source, destination, event]", std::to_string(op.arguments.size()) + " arguments");
        kind = op.name == "pto.set_flag" ? runtime::SyncKind::SetFlag
             : op.name == "pto.wait_flag" ? runtime::SyncKind::WaitFlag
             : op.name == "pto.record_event" ? runtime::SyncKind::EventRecord : runtime::SyncKind::EventWait;
        src = sync_code(arg(0));
        dst = sync_code(arg(1));
        event = sync_code(arg(2));
    } else {
        src = sync_code(arg(0));
    }
    body.steps.push_back({[=](Frame&) { runtime::record_sync(kind, src, dst, event); }, &op});
}

}  // namespace pto::as::interp
