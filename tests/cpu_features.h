/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Run-time CPU feature checks shared by the test and bench harnesses. */
#ifndef RS_TEST_CPU_FEATURES_H
#define RS_TEST_CPU_FEATURES_H

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__TINYC__))
static void rs_cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
    __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
                     : "a"(leaf), "c"(sub));
}

/* XCR0: which register states the OS saves on a context switch. */
static unsigned long long rs_xgetbv0(void)
{
    unsigned lo, hi;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

#define RS_FEATURE(name) (len == sizeof name - 1 && memcmp(feature, name, len) == 0)

static int rs_cpu_has_one(const char *feature, size_t len)
{
    unsigned r[4], leaf1[4];
    int os_ymm, os_zmm;
    rs_cpuid(0, 0, r);
    if (r[0] < 7)
        return 0;
    rs_cpuid(1, 0, leaf1);
    if (RS_FEATURE("sse2"))
        return (leaf1[3] >> 26) & 1;
    if (RS_FEATURE("ssse3"))
        return (leaf1[2] >> 9) & 1;
    /* AVX registers are usable only if the OS enabled them (OSXSAVE, then XCR0 bits). */
    os_ymm = ((leaf1[2] >> 27) & 1) && (rs_xgetbv0() & 0x06) == 0x06;
    os_zmm = os_ymm && (rs_xgetbv0() & 0xE6) == 0xE6;
    rs_cpuid(7, 0, r);
    if (RS_FEATURE("bmi2"))
        return (r[1] >> 8) & 1;
    if (RS_FEATURE("bmi1"))
        return (r[1] >> 3) & 1;
    if (RS_FEATURE("avx2"))
        return os_ymm && ((r[1] >> 5) & 1);
    if (RS_FEATURE("avx512f"))
        return os_zmm && ((r[1] >> 16) & 1);
    if (RS_FEATURE("avx512vl"))
        return os_zmm && ((r[1] >> 31) & 1);
    if (RS_FEATURE("avx512bw"))
        return os_zmm && ((r[1] >> 30) & 1);
    return 0;
}
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>

/* AArch64 Linux: the kernel's AT_HWCAP bits (asm/hwcap.h), so a CPU without an extension
 * skips rather than dies on an illegal instruction. */
static int rs_cpu_has_one(const char *feature, size_t len)
{
    if (len == 4 && memcmp(feature, "sha3", 4) == 0)
        return (getauxval(AT_HWCAP) >> 17) & 1; /* HWCAP_SHA3 */
    return 0;
}
#else
static int rs_cpu_has_one(const char *feature, size_t len)
{
    (void)feature;
    (void)len;
    return 0;
}
#endif

/* Tests only: RS_CPU_DISABLE="avx512f avx2" makes the harnesses act as on a CPU without
 * those features, so the skip paths run on this machine too. */
static int rs_cpu_disabled(const char *feature, size_t len)
{
    const char *p = getenv("RS_CPU_DISABLE");
    while (p && *p) {
        size_t n = strcspn(p, " ,");
        if (n == len && memcmp(p, feature, len) == 0)
            return 1;
        p += n;
        p += strspn(p, " ,");
    }
    return 0;
}

/* Every space-separated feature in `features` is present; sets *missing to the first absent. */
static int rs_cpu_has_all(const char *features, const char **missing)
{
    const char *p = features;
    while (*p) {
        size_t len = strcspn(p, " ");
        if (len && (rs_cpu_disabled(p, len) || !rs_cpu_has_one(p, len))) {
            *missing = p;
            return 0;
        }
        p += len;
        p += strspn(p, " ");
    }
    return 1;
}

#endif
