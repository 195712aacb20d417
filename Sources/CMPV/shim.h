#ifndef NOTIPLAY_CMPV_SHIM_H
#define NOTIPLAY_CMPV_SHIM_H
#include <mpv/client.h>
#endif
