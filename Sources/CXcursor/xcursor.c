#include "strata-xcursor.h"

#include <dlfcn.h>
#include <stddef.h>

typedef XcursorImage *(*load_image_fn)(const char *, const char *, int);
typedef void (*image_destroy_fn)(XcursorImage *);

/* Looked up once, on the event loop's thread (the only caller). */
static int tried;
static load_image_fn load_image;
static image_destroy_fn image_destroy;

static void open_library(void) {
	if (tried)
		return;
	tried = 1;
	void *library = dlopen("libXcursor.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!library)
		return;
	load_image_fn load = (load_image_fn)dlsym(library, "XcursorLibraryLoadImage");
	image_destroy_fn destroy = (image_destroy_fn)dlsym(library, "XcursorImageDestroy");
	if (!load || !destroy) {
		dlclose(library);
		return;
	}
	load_image = load;
	image_destroy = destroy;
}

XcursorImage *strata_xcursor_load_image(const char *library, const char *theme, int size) {
	open_library();
	return load_image ? load_image(library, theme, size) : NULL;
}

void strata_xcursor_image_destroy(XcursorImage *image) {
	if (image && image_destroy)
		image_destroy(image);
}
