/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The prover's stand-in: MSVC's header declares the same vector types. */
#include <immintrin.h>
