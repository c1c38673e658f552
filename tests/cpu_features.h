/* Run-time CPU feature checks shared by the test and bench harnesses. */
#ifndef RS_TEST_CPU_FEATURES_H
#define RS_TEST_CPU_FEATURES_H

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__TINYC__))
static void rs_cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
    __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
                     : "a"(leaf), "c"(sub));
}

/* XCR0: which register states the OS saves; AVX needs bits 1-2, AVX-512 also bits 5-7. */
static unsigned rs_xcr0(void)
{
    unsigned r[4], lo, hi;
    rs_cpuid(1, 0, r);
    if (!((r[2] >> 27) & 1))
        return 0;
    /* xgetbv, spelled as bytes for assemblers that predate it */
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return lo;
}

#define RS_FEATURE(name) (len == sizeof name - 1 && memcmp(feature, name, len) == 0)

static int rs_cpu_has_one(const char *feature, size_t len)
{
    unsigned r[4], max;
    rs_cpuid(0, 0, r);
    max = r[0];
    if (RS_FEATURE("sse2") || RS_FEATURE("ssse3")) {
        rs_cpuid(1, 0, r);
        return RS_FEATURE("sse2") ? (r[3] >> 26) & 1 : (r[2] >> 9) & 1;
    }
    if (max < 7)
        return 0;
    rs_cpuid(7, 0, r);
    if (RS_FEATURE("bmi2"))
        return (r[1] >> 8) & 1;
    if (RS_FEATURE("bmi1"))
        return (r[1] >> 3) & 1;
    if (RS_FEATURE("avx2"))
        return (r[1] >> 5) & 1 && (rs_xcr0() & 0x6) == 0x6;
    if (RS_FEATURE("avx512f") || RS_FEATURE("avx512vl") || RS_FEATURE("avx512bw")) {
        unsigned bit = RS_FEATURE("avx512f") ? 16 : RS_FEATURE("avx512bw") ? 30 : 31;
        return (r[1] >> bit) & 1 && (rs_xcr0() & 0xE6) == 0xE6;
    }
    return 0;
}

#undef RS_FEATURE
#else
static int rs_cpu_has_one(const char *feature, size_t len)
{
    (void)feature;
    (void)len;
    return 0;
}
#endif

/* Every space-separated feature in `features` is present; sets *missing to the first absent. */
static int rs_cpu_has_all(const char *features, const char **missing)
{
    const char *p = features;
    while (*p) {
        size_t len = strcspn(p, " ");
        if (len && !rs_cpu_has_one(p, len)) {
            *missing = p;
            return 0;
        }
        p += len;
        p += strspn(p, " ");
    }
    return 1;
}

#endif
