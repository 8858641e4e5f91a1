/* The client-side glue: generated client headers in include/, used by the test client. */
#include "strata-client-glue.h"
