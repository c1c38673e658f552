/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Stand-in for the MSVC C runtime's <string.h> (not installed on Linux), for the syntax-only
 * MSVC check of the generated sources: the declarations they use, as the UCRT spells them. */
#ifndef RS_MSVC_STUB_STRING_H
#define RS_MSVC_STUB_STRING_H
#include <stddef.h>
void *__cdecl memcpy(void *dst, const void *src, size_t n);
void *__cdecl memmove(void *dst, const void *src, size_t n);
void *__cdecl memset(void *dst, int c, size_t n);
int __cdecl strcmp(const char *a, const char *b);
int __cdecl memcmp(const void *a, const void *b, size_t n);
size_t __cdecl strlen(const char *s);
char *__cdecl strchr(const char *s, int c);
#endif
