/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Stand-in for the MSVC C runtime's <stdio.h> (not installed on Linux), for the syntax-only
 * MSVC check of the generated sources: the declarations they use, as the UCRT spells them. */
#ifndef RS_MSVC_STUB_STDIO_H
#define RS_MSVC_STUB_STDIO_H
typedef struct _iobuf FILE;
FILE *__cdecl __acrt_iob_func(unsigned index);
#define stderr (__acrt_iob_func(2))
int __cdecl fprintf(FILE *stream, const char *format, ...);
#endif
