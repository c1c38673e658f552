/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Stand-in for the MSVC C runtime's <stdlib.h> (not installed on Linux), for the syntax-only
 * MSVC check of the generated sources: the declarations they use, as the UCRT spells them. */
#ifndef RS_MSVC_STUB_STDLIB_H
#define RS_MSVC_STUB_STDLIB_H
#include <stddef.h>
unsigned __int64 __cdecl _rotl64(unsigned __int64 value, int shift);
unsigned __int64 __cdecl _rotr64(unsigned __int64 value, int shift);
void __cdecl abort(void);
char *__cdecl getenv(const char *name);
unsigned long __cdecl strtoul(const char *s, char **end, int base);
#endif
