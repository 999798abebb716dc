/* cli/draw_load.c: the drawing plugin, opened on demand (see
 * cli/draw_load.h). */
#include "cli/draw_load.h"

#include <dlfcn.h>
#include <string.h>

#include "base/data_path.h"
#include "base/version.h"

static const char hint[] = "every other command works without it; `make` builds it, `make install` installs it";

const draw_plugin *draw_load(const char *cmd, FILE *err)
{
    const char *looked = NULL;
    const char *path = data_path_plugin(DRAW_PLUGIN_FILE, &looked);
    if (!path) {
        fprintf(err, "scopecheck %s: error: cannot draw: the drawing plugin " DRAW_PLUGIN_FILE
                " is not installed (looked in %s); %s\n", cmd, looked, hint);
        return NULL;
    }
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        fprintf(err, "scopecheck %s: error: cannot draw: cannot load the drawing plugin: %s; %s\n", cmd,
                why ? why : path, hint);
        return NULL;
    }
    const draw_plugin *p = dlsym(handle, DRAW_PLUGIN_SYMBOL);
    if (!p || p->abi != DRAW_PLUGIN_ABI || !p->version || strcmp(p->version, SCOPECHECK_VERSION) != 0) {
        fprintf(err, "scopecheck %s: error: cannot draw: %s is not the drawing plugin of this build (scopecheck "
                SCOPECHECK_VERSION ", plugin interface %d); %s\n", cmd, path, DRAW_PLUGIN_ABI, hint);
        dlclose(handle);
        return NULL;
    }
    return p;
}
