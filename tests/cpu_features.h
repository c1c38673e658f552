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

static int rs_cpu_has_one(const char *feature, size_t len)
{
    unsigned r[4];
    rs_cpuid(0, 0, r);
    if (r[0] < 7)
        return 0;
    rs_cpuid(7, 0, r);
    if (len == 4 && memcmp(feature, "bmi2", 4) == 0)
        return (r[1] >> 8) & 1;
    if (len == 4 && memcmp(feature, "bmi1", 4) == 0)
        return (r[1] >> 3) & 1;
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
