// zlib, for the cloud store's compressed segments and snapshots (Debian: zlib1g-dev).
#include <zlib.h>
