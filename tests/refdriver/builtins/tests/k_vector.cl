/* k_vector.cl: vector loads and stores (half too), geometric, relational
 * and shuffle built-ins, and printf, one work-item per index. */
kernel void zt_vector(global const float *src, global float *dst, global half *h, global float *geo,
                      global int *rel, local float *scratch)
{
    size_t i = get_global_id(0);
    /* vloadN/vstoreN at every width, through global, local and private memory */
    float3 a = vload3(i, src);
    vstore3(a * 2.0f, i, dst);
    float16 b = vload16(0, src + i);
    float p[8];
    vstore8(b.lo, 0, p);
    scratch[get_local_id(0)] = p[3] + b.sf;
    barrier(CLK_LOCAL_MEM_FENCE);
    float2 s2 = vload2(0, scratch + (get_local_id(0) & ~1));
    dst[64 + i] = s2.x + s2.y;
    /* half: stores with rounding modes, loads back (aligned 3 has stride 4) */
    vstore_half_rtz(src[i] * 1.001f, i, h);
    vstore_half_rtp(src[i] * 1.001f, i + 16, h);
    vstorea_half3_rtn(a, i, h + 32);
    float4 hb = vload_half4(0, h + 32 + i * 4);
    dst[80 + i] = hb.x + hb.y + hb.z;
    /* geometric */
    float4 v = (float4)(src[i], -1.0f, 2.0f, 0.5f);
    geo[i * 4 + 0] = dot(v, v);
    geo[i * 4 + 1] = length(v);
    geo[i * 4 + 2] = normalize(v).y;
    geo[i * 4 + 3] = cross(v, (float4)(0.0f, 1.0f, 0.0f, 0.0f)).z;
    /* relational and shuffles */
    int4 m = (int4)(-1, 0, -1, 0);
    int4 sel = select((int4)(1, 2, 3, 4), (int4)(10, 20, 30, 40), m);
    rel[i * 6 + 0] = sel.x + sel.y + sel.z + sel.w;
    rel[i * 6 + 1] = any(m) + 2 * all(m) + 4 * all((int2)(-1, -5));
    rel[i * 6 + 2] = (int)bitselect(0x0f0fu, 0xf0f0u, 0x00ffu);
    int4 sh = shuffle((int4)(5, 6, 7, 8), (uint4)(3, 2, 1, 0));
    rel[i * 6 + 3] = sh.x * 1000 + sh.y * 100 + sh.z * 10 + sh.w;
    int4 isn = isnan((float4)(nan(1u), 1.0f, NAN, 0.0f));
    rel[i * 6 + 4] = isn.x + 2 * isn.y + 4 * isn.z;
    rel[i * 6 + 5] = isgreater(src[i], 3.0f);
    if (i == 5)
        printf("zt_vector %d %.2f %s %lu\n", (int)i, src[i], "ok", (ulong)get_global_size(0));
}
