/* libXcursor's theme loader, opened on first use (dlopen), so a compositor that never shows a
   cursor never loads libXcursor and the Xlib libraries it needs (docs/performance.md,
   "Start-up"). Nothing of <X11/Xcursor/Xcursor.h> is included: that header pulls in Xlib, whose
   `Window`, `Screen` and `Display` would clash with Strata's types in every Swift file importing
   this module. The image struct is libXcursor's own (Xcursor.h, libXcursor 1.2). */
#ifndef STRATA_XCURSOR_H
#define STRATA_XCURSOR_H

typedef unsigned int XcursorUInt;
typedef XcursorUInt XcursorDim;
typedef XcursorUInt XcursorPixel;

typedef struct _XcursorImage {
    XcursorUInt version;
    XcursorDim size;
    XcursorDim width;
    XcursorDim height;
    XcursorDim xhot;
    XcursorDim yhot;
    XcursorUInt delay;
    XcursorPixel *pixels; /* premultiplied ARGB, width × height, no padding */
} XcursorImage;

/* XcursorLibraryLoadImage: the image called `library` (a cursor name) of `theme` (NULL:
   "default") nearest to `size`, following the theme's Inherits; NULL when no theme has it, or
   when libXcursor.so.1 cannot be loaded. */
XcursorImage *strata_xcursor_load_image(const char *library, const char *theme, int size);
/* XcursorImageDestroy. */
void strata_xcursor_image_destroy(XcursorImage *image);

#endif
