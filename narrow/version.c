// The library's version, as the header it was built with says.
#include <collworld.h>

const char *cw_version(void) { return CW_VERSION_STRING; }
