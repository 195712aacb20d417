#include "CMPV.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

unsigned long notiplay_mpv_header_version(void) {
    return MPV_CLIENT_API_VERSION;
}

// Resolves one function into the table by its name in libmpv, or says which one is missing.
#define RESOLVE(field)                                                                              \
    do {                                                                                            \
        void *found = dlsym(handle, "mpv_" #field);                                                 \
        if (found == NULL) {                                                                        \
            snprintf(message, size, "%s has no function mpv_" #field, library);                     \
            free(table);                                                                            \
            dlclose(handle);                                                                        \
            *status = 2;                                                                            \
            return NULL;                                                                            \
        }                                                                                           \
        *(void **)&table->field = found;                                                            \
    } while (0)

const notiplay_mpv_functions *notiplay_mpv_load(const char *library, int *status, char *message, size_t size) {
    // RTLD_LOCAL: libmpv's names stay out of the process's global scope. RTLD_LAZY: each
    // function is bound when first called, as the loader does for a library linked at start.
    void *handle = dlopen(library, RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(message, size, "%s", reason != NULL ? reason : library);
        *status = 1;
        return NULL;
    }
    notiplay_mpv_functions *table = malloc(sizeof *table);
    if (table == NULL) {
        snprintf(message, size, "no memory to load %s", library);
        dlclose(handle);
        *status = 4;
        return NULL;
    }
    RESOLVE(client_api_version);
    RESOLVE(error_string);
    RESOLVE(free);
    RESOLVE(create);
    RESOLVE(initialize);
    RESOLVE(terminate_destroy);
    RESOLVE(set_option_string);
    RESOLVE(command_ret);
    RESOLVE(command_string);
    RESOLVE(free_node_contents);
    RESOLVE(set_property);
    RESOLVE(set_property_string);
    RESOLVE(get_property);
    RESOLVE(get_property_string);
    RESOLVE(get_property_async);
    RESOLVE(observe_property);
    RESOLVE(request_log_messages);
    RESOLVE(wait_event);
    RESOLVE(set_wakeup_callback);
    RESOLVE(hook_add);
    RESOLVE(hook_continue);
    RESOLVE(create_client);
    RESOLVE(destroy);

    // mpv's rule: the major version must match, the minor may be newer than the headers'.
    unsigned long found = table->client_api_version();
    unsigned long built = MPV_CLIENT_API_VERSION;
    if ((found >> 16) != (built >> 16) || (found & 0xffff) < (built & 0xffff)) {
        snprintf(message, size, "%s has client API %lu.%lu; notiplay was built for %lu.%lu", library,
                 found >> 16, found & 0xffff, built >> 16, built & 0xffff);
        free(table);
        dlclose(handle);
        *status = 3;
        return NULL;
    }
    *status = 0;
    return table;
}
