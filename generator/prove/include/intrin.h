/* The prover's stand-in: MSVC's header declares the same vector types. */
#include <immintrin.h>
