/*
 * Vector arithmetic of every scalar type (char .. double) at every width
 * (1, 2, 3, 4, 8, 16), as OpenCL C source and as SPIR-V, against the same
 * arithmetic in C (cl/vector.cl says what each kernel computes).
 */
#include "kr_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum kind {
    SIGNED,
    UNSIGNED,
    REAL
} kind_t;
typedef struct type {
    const char *name;
    size_t size;
    kind_t kind;
} type_t;

static const type_t types[] = {
    {"char", 1, SIGNED}, {"uchar", 1, UNSIGNED}, {"short", 2, SIGNED}, {"ushort", 2, UNSIGNED},
    {"int", 4, SIGNED},  {"uint", 4, UNSIGNED},  {"long", 8, SIGNED},  {"ulong", 8, UNSIGNED},
    {"float", 4, REAL},  {"double", 8, REAL},
};
static const unsigned widths[] = {1, 2, 3, 4, 8, 16};
enum {
    ITEMS = 64
};

static uint64_t load_bits(const void *p, size_t size)
{
    uint64_t v = 0;
    memcpy(&v, p, size);
    return v;
}

static int64_t sign_extend(uint64_t v, size_t size)
{
    unsigned shift = (unsigned)(64 - 8 * size);
    return (int64_t)(v << shift) >> shift;
}

/* Element i of the C reference. */
static void reference(const type_t *t, const void *a, const void *b, void *c)
{
    if (t->kind == REAL) {
        if (t->size == 4) {
            float x = *(const float *)a, y = *(const float *)b;
            *(float *)c = (x + y) * (x - y);
        } else {
            double x = *(const double *)a, y = *(const double *)b;
            *(double *)c = (x + y) * (x - y);
        }
        return;
    }
    uint64_t x = load_bits(a, t->size), y = load_bits(b, t->size);
    uint64_t shifted = t->kind == SIGNED ? (uint64_t)(sign_extend(x, t->size) >> 1) : x >> 1;
    if (t->kind == SIGNED) {
        x = (uint64_t)sign_extend(x, t->size);
        y = (uint64_t)sign_extend(y, t->size);
    }
    uint64_t r = ((x + y) * (x - y)) ^ shifted;
    memcpy(c, &r, t->size);
}

static void fill(const type_t *t, unsigned char *p, size_t count, unsigned seed)
{
    for (size_t i = 0; i < count; i++) {
        uint64_t r = (i + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t)seed * 0xbf58476d1ce4e5b9ull;
        if (t->kind == REAL) {
            double v = (double)(int64_t)(r % 2001) / 8.0 - 125.0;
            if (t->size == 4) {
                float f = (float)v;
                memcpy(p + i * 4, &f, 4);
            } else {
                memcpy(p + i * 8, &v, 8);
            }
        } else {
            memcpy(p + i * t->size, &r, t->size);
        }
    }
}

START_TEST(test_every_type_and_width)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = kr_module(&env, "vector", (kr_form_t)_i, "-cl-std=CL2.0");
    size_t max = ITEMS * 16 * 8;
    unsigned char *a = kr_alloc(&env, max), *b = kr_alloc(&env, max), *c = kr_alloc(&env, max + 64);
    unsigned char ref[8];
    for (size_t ti = 0; ti < sizeof types / sizeof *types; ti++)
        for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++) {
            const type_t *t = &types[ti];
            size_t count = (size_t)ITEMS * widths[wi];
            char name[32];
            snprintf(name, sizeof name, "vec_%s%u", t->name, widths[wi]);
            fill(t, a, count, 1);
            fill(t, b, count, 2);
            memset(c, 0xee, max + 64);
            ze_kernel_handle_t k = zt_kernel(module, name);
            ZT_ARG(k, 0, a);
            ZT_ARG(k, 1, b);
            ZT_ARG(k, 2, c);
            kr_run(&env, k, (uint32_t[3]){16, 1, 1}, (uint32_t[3]){ITEMS / 16, 1, 1});
            for (size_t i = 0; i < count; i++) {
                reference(t, a + i * t->size, b + i * t->size, ref);
                ck_assert_msg(memcmp(ref, c + i * t->size, t->size) == 0,
                              "%s (%s): element %zu is 0x%llx, expected 0x%llx", name,
                              kr_form_names[_i], i,
                              (unsigned long long)load_bits(c + i * t->size, t->size),
                              (unsigned long long)load_bits(ref, t->size));
            }
            ck_assert_msg(c[count * t->size] == 0xee, "%s wrote past its last element", name);
            ZT_OK(zeKernelDestroy(k));
        }
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("kr_vector");
    TCase *tc = tcase_create("vector");
    tcase_add_loop_test(tc, test_every_type_and_width, 0, KR_FORMS);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
