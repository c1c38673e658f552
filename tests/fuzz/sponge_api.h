/*
 * The sponge the split fuzz target drives. Today the test-only one (tests/sponge_min.h); when
 * the real sponge layer lands (issue 5), map these four names onto it and nothing else moves.
 */
#ifndef RS_FUZZ_SPONGE_API_H
#define RS_FUZZ_SPONGE_API_H

#include "sponge_min.h"

typedef struct rs_test_sponge rs_fuzz_sponge;
#define rs_fuzz_sponge_init rs_test_sponge_init
#define rs_fuzz_sponge_absorb rs_test_sponge_absorb
#define rs_fuzz_sponge_squeeze rs_test_sponge_squeeze

#endif
