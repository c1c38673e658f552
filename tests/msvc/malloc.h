/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Stand-in for the MSVC C runtime's <malloc.h> (not installed on Linux): clang's own
 * <mm_malloc.h>, pulled in by <immintrin.h>, needs these declarations for Windows targets. */
#ifndef RS_MSVC_STUB_MALLOC_H
#define RS_MSVC_STUB_MALLOC_H
#include <stddef.h>
void *__cdecl malloc(size_t n);
void __cdecl free(void *p);
void *__cdecl _aligned_malloc(size_t n, size_t align);
void __cdecl _aligned_free(void *p);
#endif
