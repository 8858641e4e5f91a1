/* Everything is static inline in the header; this file gives the target a translation unit. */
#include "strata-nested-glue.h"
