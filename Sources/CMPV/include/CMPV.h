// libmpv's client API, loaded at run time: the types come from <mpv/client.h> (libmpv-dev), the
// functions from a table that `notiplay_mpv_load` fills with `dlopen` and `dlsym`, so that a
// process that plays nothing never maps libmpv's 229 libraries (98 ms and 55 MiB of start).
#ifndef NOTIPLAY_CMPV_H
#define NOTIPLAY_CMPV_H

#include <stddef.h>
#include <mpv/client.h>

#pragma clang assume_nonnull begin

/// The client-API functions the engine calls, each with its type from <mpv/client.h>.
typedef struct notiplay_mpv_functions {
    __typeof__(mpv_client_api_version) *client_api_version;
    __typeof__(mpv_error_string) *error_string;
    __typeof__(mpv_free) *free;
    __typeof__(mpv_create) *create;
    __typeof__(mpv_initialize) *initialize;
    __typeof__(mpv_terminate_destroy) *terminate_destroy;
    __typeof__(mpv_set_option_string) *set_option_string;
    __typeof__(mpv_command_ret) *command_ret;
    __typeof__(mpv_command_string) *command_string;
    __typeof__(mpv_free_node_contents) *free_node_contents;
    __typeof__(mpv_set_property) *set_property;
    __typeof__(mpv_set_property_string) *set_property_string;
    __typeof__(mpv_get_property) *get_property;
    __typeof__(mpv_get_property_string) *get_property_string;
    __typeof__(mpv_get_property_async) *get_property_async;
    __typeof__(mpv_observe_property) *observe_property;
    __typeof__(mpv_request_log_messages) *request_log_messages;
    __typeof__(mpv_wait_event) *wait_event;
    __typeof__(mpv_set_wakeup_callback) *set_wakeup_callback;
    __typeof__(mpv_hook_add) *hook_add;
    __typeof__(mpv_hook_continue) *hook_continue;
    __typeof__(mpv_create_client) *create_client;
    __typeof__(mpv_destroy) *destroy;
} notiplay_mpv_functions;

/// The client-API version these headers describe (MPV_CLIENT_API_VERSION).
unsigned long notiplay_mpv_header_version(void);

/// Opens `library` (a file name the dynamic loader searches for, or a path) and returns its
/// functions, in a table that lives as long as the process.
///
/// Returns NULL and sets `*status` to 1 when the library cannot be opened, 2 when a function is
/// missing from it, 3 when its client API's major version differs from the headers' or its
/// minor version is older, 4 when there is no memory for the table; `message` (of `size` bytes)
/// then says why, and the library is closed again.
const notiplay_mpv_functions *_Nullable notiplay_mpv_load(const char *library, int *status, char *message, size_t size);

#pragma clang assume_nonnull end

#endif
