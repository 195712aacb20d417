// zlib's C API (zlib1g-dev, found through pkg-config zlib), for NotiplayTerminal's PNG decoder:
// a sixel terminal needs pixels, and a PNG's pixels are deflated. Only `uncompress` is used.
#ifndef NOTIPLAY_CZLIB_H
#define NOTIPLAY_CZLIB_H

#include <zlib.h>

#endif
