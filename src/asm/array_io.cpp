#include "asm/array_io.hpp"

#include <charconv>
#include <cstring>
#include <fstream>
#include <iterator>

namespace pto::as {

namespace {

constexpr char kMagic[] = "\x93NUMPY";

[[noreturn]] void fail(std::string code, std::string message) { throw ArrayError{std::move(code), std::move(message)}; }

std::string descr_of(ArrayType t)
{
    const char order = t.size == 1 ? '|' : '<';
    return std::string(1, order) + t.kind + std::to_string(t.size);
}

// The value of `key` in a .npy header dictionary: the text after "'key':" up to its end.
std::string_view header_value(std::string_view header, std::string_view key)
{
    const std::string quoted = "'" + std::string(key) + "'";
    std::size_t at = header.find(quoted);
    if (at == std::string_view::npos) return {};
    at = header.find(':', at + quoted.size());
    if (at == std::string_view::npos) return {};
    header.remove_prefix(at + 1);
    while (!header.empty() && header.front() == ' ') header.remove_prefix(1);
    if (!header.empty() && header.front() == '(') return header.substr(0, header.find(')') + 1);
    if (!header.empty() && header.front() == '\'') return header.substr(0, header.find('\'', 1) + 1);
    return header.substr(0, header.find_first_of(",}"));
}

}  // namespace

std::size_t HostArray::elements() const
{
    std::size_t n = 1;
    for (int64_t d : shape) n *= std::size_t(d);
    return n;
}

ArrayType array_type_of(engine::DType t)
{
    using engine::DType;
    switch (t) {
        case DType::F32: return {'f', 4};
        case DType::F16: return {'f', 2};
        case DType::I8: return {'i', 1};
        case DType::I16: return {'i', 2};
        case DType::I32: return {'i', 4};
        case DType::I64: return {'i', 8};
        case DType::U16: case DType::BF16: return {'u', 2};
        case DType::U32: return {'u', 4};
        case DType::U64: return {'u', 8};
        default: return {'u', 1};  // u8 and every 8-bit or packed type, as bits
    }
}

std::string array_type_name(ArrayType t)
{
    switch (t.kind) {
        case 'b': return "bool";
        case 'i': return "int" + std::to_string(t.size * 8);
        case 'u': return "uint" + std::to_string(t.size * 8);
        default: return "float" + std::to_string(t.size * 8);
    }
}

std::optional<ArrayType> array_type_from_name(std::string_view name)
{
    if (name == "bool" || name == "i1") return ArrayType{'b', 1};
    if (name == "f64" || name == "float64") return ArrayType{'f', 8};
    for (int k = 0; k < engine::kDTypeCount; ++k) {
        const auto t = static_cast<engine::DType>(k);
        if (engine::dtype_name(t) == name) return array_type_of(t);
    }
    for (ArrayType t : {ArrayType{'i', 1}, ArrayType{'i', 2}, ArrayType{'i', 4}, ArrayType{'i', 8}, ArrayType{'u', 1},
                        ArrayType{'u', 2}, ArrayType{'u', 4}, ArrayType{'u', 8}, ArrayType{'f', 2}, ArrayType{'f', 4}})
        if (array_type_name(t) == name) return t;
    if (name == "ui8") return ArrayType{'u', 1};
    if (name == "ui16") return ArrayType{'u', 2};
    if (name == "ui32") return ArrayType{'u', 4};
    if (name == "ui64") return ArrayType{'u', 8};
    return std::nullopt;
}

bool array_fits(ArrayType a, engine::DType t) { return a == array_type_of(t) || (a.kind == 'b' && t == engine::DType::U8); }

std::optional<std::vector<int64_t>> parse_shape(std::string_view text)
{
    std::vector<int64_t> shape;
    while (!text.empty()) {
        const std::size_t x = text.find('x');
        const std::string_view part = text.substr(0, x);
        int64_t v = 0;
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (ec != std::errc() || end != part.data() + part.size() || v < 0) return std::nullopt;
        shape.push_back(v);
        if (x == std::string_view::npos) break;
        text.remove_prefix(x + 1);
        if (text.empty()) return std::nullopt;
    }
    if (shape.empty()) return std::nullopt;
    return shape;
}

std::string shape_string(const std::vector<int64_t>& shape)
{
    std::string out;
    for (int64_t d : shape) out += (out.empty() ? "" : "x") + std::to_string(d);
    return out.empty() ? "scalar" : out;
}

HostArray zeros(ArrayType type, std::vector<int64_t> shape)
{
    HostArray a;
    a.type = type;
    a.shape = std::move(shape);
    a.bytes.assign(a.elements() * std::size_t(type.size), std::byte{0});
    return a;
}

HostArray read_npy(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) fail("CLI_FILE", "cannot open " + path);
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (data.size() < 10 || data.compare(0, 6, kMagic) != 0) fail("CLI_NPY_FORMAT", path + " is not a .npy file");
    const int major = static_cast<unsigned char>(data[6]);
    std::size_t header_len = 0, offset = 0;
    if (major == 1) {
        header_len = std::size_t(static_cast<unsigned char>(data[8])) | std::size_t(static_cast<unsigned char>(data[9])) << 8;
        offset = 10;
    } else if (major == 2 || major == 3) {
        if (data.size() < 12) fail("CLI_NPY_FORMAT", path + ": truncated header");
        for (int i = 0; i < 4; ++i) header_len |= std::size_t(static_cast<unsigned char>(data[8 + i])) << (8 * i);
        offset = 12;
    } else {
        fail("CLI_NPY_FORMAT", path + ": unsupported .npy version " + std::to_string(major));
    }
    if (offset + header_len > data.size()) fail("CLI_NPY_FORMAT", path + ": truncated header");
    const std::string_view header(data.data() + offset, header_len);
    const std::string_view descr = header_value(header, "descr");
    if (descr.size() < 4 || descr.front() != '\'' || descr.back() != '\'') fail("CLI_NPY_FORMAT", path + ": no descr");
    const std::string_view d = descr.substr(1, descr.size() - 2);
    if (d.size() < 3 || (d[0] != '<' && d[0] != '|' && d[0] != '=')) fail("CLI_NPY_FORMAT", path + ": only little-endian arrays, got " + std::string(d));
    HostArray a;
    a.type.kind = d[1];
    a.type.size = d[2] - '0';
    if (d.size() != 3 || std::string_view("biuf").find(a.type.kind) == std::string_view::npos ||
        !(a.type.size == 1 || a.type.size == 2 || a.type.size == 4 || a.type.size == 8) || (a.type.kind == 'f' && a.type.size == 1))
        fail("CLI_NPY_FORMAT", path + ": unsupported element type " + std::string(d));
    if (header_value(header, "fortran_order").substr(0, 4) != "Fals") fail("CLI_NPY_FORMAT", path + ": only C-order arrays");
    std::string_view shape = header_value(header, "shape");
    if (shape.size() < 2) fail("CLI_NPY_FORMAT", path + ": no shape");
    shape = shape.substr(1, shape.size() - 2);
    while (!shape.empty()) {
        while (!shape.empty() && (shape.front() == ' ' || shape.front() == ',')) shape.remove_prefix(1);
        if (shape.empty()) break;
        int64_t v = 0;
        const auto [end, ec] = std::from_chars(shape.data(), shape.data() + shape.size(), v);
        if (ec != std::errc() || v < 0) fail("CLI_NPY_FORMAT", path + ": bad shape");
        a.shape.push_back(v);
        shape.remove_prefix(std::size_t(end - shape.data()));
    }
    const std::size_t bytes = a.elements() * std::size_t(a.type.size);
    const std::size_t start = offset + header_len;
    if (data.size() - start != bytes)
        fail("CLI_NPY_FORMAT", path + ": data holds " + std::to_string(data.size() - start) + " bytes, the header says " + std::to_string(bytes));
    a.bytes.resize(bytes);
    std::memcpy(a.bytes.data(), data.data() + start, bytes);
    return a;
}

void write_npy(const std::string& path, const HostArray& array)
{
    std::string shape = "(";
    for (int64_t d : array.shape) shape += std::to_string(d) + ",";
    if (array.shape.size() > 1) shape.pop_back();
    shape += ")";
    std::string header = "{'descr': '" + descr_of(array.type) + "', 'fortran_order': False, 'shape': " + shape + ", }";
    // Version 1.0: magic, version, 2-byte length; the data starts on a 64-byte boundary.
    const std::size_t unpadded = 10 + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header += '\n';
    std::ofstream out(path, std::ios::binary);
    if (!out) fail("CLI_FILE", "cannot write " + path);
    out.write(kMagic, 6);
    out.put(char(1));
    out.put(char(0));
    out.put(char(header.size() & 0xFF));
    out.put(char(header.size() >> 8));
    out.write(header.data(), std::streamsize(header.size()));
    out.write(reinterpret_cast<const char*>(array.bytes.data()), std::streamsize(array.bytes.size()));
    if (!out) fail("CLI_FILE", "cannot write " + path);
}

HostArray read_raw(const std::string& path, ArrayType type, std::vector<int64_t> shape)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) fail("CLI_FILE", "cannot open " + path);
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    HostArray a = zeros(type, std::move(shape));
    if (data.size() != a.bytes.size())
        fail("CLI_RAW_SIZE", path + " holds " + std::to_string(data.size()) + " bytes, " + array_type_name(type) + " " +
                                 shape_string(a.shape) + " needs " + std::to_string(a.bytes.size()));
    std::memcpy(a.bytes.data(), data.data(), data.size());
    return a;
}

}  // namespace pto::as
