/* libXcursor's theme loader, without <X11/Xcursor/Xcursor.h>: that header pulls in Xlib, whose
   `Window`, `Screen` and `Display` would clash with Strata's types in every Swift file importing
   this module. The declarations below are libXcursor's own (Xcursor.h, libXcursor 1.2): the image
   struct and the two calls that read a theme's files without an X display. */
#ifndef STRATA_XCURSOR_SHIM_H
#define STRATA_XCURSOR_SHIM_H

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

/* The image called `library` (a cursor name) of `theme` (NULL: "default") nearest to `size`,
   following the theme's Inherits; NULL when no theme has it. */
XcursorImage *XcursorLibraryLoadImage(const char *library, const char *theme, int size);
void XcursorImageDestroy(XcursorImage *image);

#endif
