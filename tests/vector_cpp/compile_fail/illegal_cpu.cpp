// Compiled (not linked) by vector_cpp_test.cpp: each function breaks one rule that the types of a C++
// vector form state, and the compiler must stop it at the static_assert naming the rule. The last
// function is legal and must compile.
#include <pto/intrinsics/vector_lowercase.hpp>
#include <pto/pto-inst.hpp>

using namespace pto;

void registers_of_other_than_256_bytes()
{
    VReg<32, float> short_register;
    VReg<128, float> long_register;
}

void lane_types_the_operation_does_not_take(VReg<64, int32_t>& i, VReg<64, float>& f, VReg<128, bfloat16_t>& h, Mask<64>& m32, Mask<128>& m16)
{
    VEXP(i, i, m32);
    VAND(f, f, f, m32);
    VADDRELU(h, h, h, m16);
    VADD(f, f, i, m32);
}

void masks_of_another_width(VReg<64, float>& f, Mask<64>& m32, Mask<128>& m16)
{
    VADD(f, f, f, m16);
    PSET_B16(m32, "PAT_ALL");
    PAND(m32, m32, m16, m32);
}

void packing_into_the_same_width(Mask<64>& a, Mask<64>& b) { PPACK(a, b, "LOWER"); }

void a_pointer_outside_ub() { Ptr<int, float> p; }

void lowercase_and_vector_scalar_lane_types(vector_s32& i, vector_f32& f, vector_bf16& h, vector_bool& m)
{
    vexp(i, i, m);
    vands(f, f, 1.0f, m);
    VLRELU(h, h, bfloat16_t(0.5f), m);
}

void new_predicate_forms_of_another_width(Mask<64>& m32, Mask<128>& m16)
{
    PLT_B16(m32, 5);
    PGE_B8(m16, "PAT_ALL");
    PINTLV_B32(m16, m16, m32, m32);
}

void a_sort_of_integers(Ptr<ub_space_t, int32_t> p) { VBITSORT(p, p, p, 1); }

void legal(VReg<64, float>& f, VReg<32, int64_t>& w, Mask<64>& m32, RegBuf<predicate_t>& g, Ptr<ub_space_t, ub_t> p)
{
    VLDS(f, p, "NORM");
    VADD(f, f, f, m32);
    VADD(w, w, w, m32);
    VADD(f, f, f);
    VEXP(f, f, g);
    PSET_B32(g, "PAT_ALL");
    VSTS(f, p + 256, m32);
    GET_BUF(0, PIPE_V, 0);
    RLS_BUF(0, PIPE_V, 0);
    uint32_t n = 70;
    vector_bool tail = plt_b32(n, __cce_simd::POST_UPDATE);
    vadds(f, f, 2.0f, tail);
    VSHRS(w, w, int64_t(3), m32);
    PINTLV_B32(m32, g, g, m32);
    VBITSORT(p.as<float>(), p.as<float>(), p.as<uint32_t>(), 1);
    get_buf(PIPE_V, 1, 0);
}
