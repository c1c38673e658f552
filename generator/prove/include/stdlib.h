#ifndef RS_PROVE_STDLIB_H
#define RS_PROVE_STDLIB_H
#include <stddef.h>
#endif
