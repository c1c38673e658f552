/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef RS_PROVE_STRING_H
#define RS_PROVE_STRING_H
#include <stddef.h>
#endif
