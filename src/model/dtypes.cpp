#include "dtypes.hpp"

namespace roofline::model {

std::vector<BuiltinDtype> const& builtin_dtypes() {
    // The block-scaled formats count their scales in their bytes per element
    // (docs/language.md, section 7): what a kernel reads is the values and
    // their scales, so that is what their bytes are.
    static std::vector<BuiltinDtype> const table = {
        {"fp64", 8},     {"fp32", 4},     {"tf32", 4},     {"bf16", 2},
        {"fp16", 2},     {"fp8", 1},      {"fp8_e4m3", 1}, {"fp8_e5m2", 1},
        {"int8", 1},     {"int4", 0.5},   {"fp4", 0.5},
        // NVFP4: 4-bit (e2m1) values, one fp8 (e4m3) scale per 16: 4 + 8/16 bits.
        {"nvfp4", 4.5 / 8},
        // OCP MXFP4: 4-bit values, one 8-bit (e8m0) scale per 32: 4 + 8/32 bits.
        {"mxfp4", 4.25 / 8},
        // fp8 (e4m3) with one fp32 scale per 128 x 128 block: 1 + 4/16384 bytes.
        {"fp8_block", 1 + 4.0 / 16384},
        // 4-bit integer weights with one bf16 scale per group of 128 (AWQ/GPTQ
        // style weight-only): 0.5 + 2/128 bytes; a matmul with bf16 activations
        // computes in bf16 (the wider input).
        {"int4_wo", 0.5 + 2.0 / 128},
    };
    return table;
}

}  // namespace roofline::model
