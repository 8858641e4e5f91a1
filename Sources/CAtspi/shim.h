#include <atspi/atspi.h>
