// libdbus-1's C API (libdbus-1-dev, found through pkg-config dbus-1), for NotiplayDBus: no Swift
// D-Bus library is among the machine's packages, so notiplay speaks D-Bus through libdbus, and
// only through its message-iterator API (dbus_message_append_args and dbus_message_get_args are
// C variadics, which Swift cannot call).
#ifndef NOTIPLAY_CDBUS_H
#define NOTIPLAY_CDBUS_H

#include <dbus/dbus.h>

#endif
