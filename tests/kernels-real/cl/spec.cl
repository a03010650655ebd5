/* spec.cl: specialization constants (SPIR-V only: ids 7 and 8). */
int __attribute__((overloadable)) __spirv_SpecConstant(int id, int def);
float __attribute__((overloadable)) __spirv_SpecConstant(int id, float def);

__kernel void spec_fill(__global float *out)
{
    out[get_global_id(0)] = (float)__spirv_SpecConstant(7, 42) + __spirv_SpecConstant(8, 0.5f);
}
