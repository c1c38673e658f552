/*
 * Timing for the benchmarks: the TSC where there is one, else the monotonic clock.
 *
 * This machine is a shared VM whose speed moves by up to 1.5x between runs, so benches time
 * a kernel and a fixed yardstick in alternation and keep the best of each: the ratio holds.
 */
#ifndef RS_TIMING_H
#define RS_TIMING_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__TINYC__))
#define RS_TICKS_NAME "TSC cycles"
static inline uint64_t rs_ticks(void)
{
    uint32_t lo, hi;
    __asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}
#else
#define RS_TICKS_NAME "ns"
static inline uint64_t rs_ticks(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

/* Keeps the compiler from discarding a result. */
static inline void rs_use(const void *p)
{
    __asm__ volatile("" : : "r"(p) : "memory");
}

#endif
