import CXCB
import Glibc
import StrataRender

/// The X root window's cursor: the arrow Strata draws for Wayland clients (the cursor theme's
/// `default`, i.e. `left_ptr`, at the theme's size; the built-in arrow without a theme), made
/// an X cursor with Render (a depth-32 pixmap holding the image's premultiplied ARGB pixels, a
/// picture of it in the a8r8g8b8 format, CreateCursor from the picture with the image's
/// hotspot) and set as the root's cursor (ChangeWindowAttributes, CWCursor). An X window that
/// sets no cursor shows its parent's, so every such window shows the arrow through Xwayland's
/// `wl_pointer.set_cursor`; cursors X clients set are theirs.
enum XRootCursor {
    /// Sets `image` as the cursor of `root`; the reason in words when it cannot. Waits for one
    /// reply (Render's picture formats): called during the XWM's setup only.
    static func set(_ image: CursorImage, on root: xcb_window_t, connection: OpaquePointer) -> String? {
        guard strata_xcb_render_present(connection) != 0 else { return "the X server has no Render extension" }
        xcb_discard_reply(connection, strata_xcb_render_query_version(connection))
        let sequence = strata_xcb_render_query_pict_formats(connection)
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard let reply = xcb_wait_for_reply(connection, sequence, &error) else {
            free(error)
            return "Render's picture formats could not be read"
        }
        let format = strata_xcb_render_argb32_format(reply)
        free(reply)
        guard format != 0 else { return "Render has no 32-bit ARGB picture format" }

        let width = UInt16(image.width), height = UInt16(image.height)
        let pixmap = xcb_generate_id(connection)
        xcb_create_pixmap(connection, 32, pixmap, root, width, height)
        let gc = xcb_generate_id(connection)
        xcb_create_gc(connection, gc, pixmap, 0, nil)
        // ZPixmap at depth 32: one 32-bit word a pixel, rows unpadded, in the server's byte order.
        let msbFirst = xcb_get_setup(connection).pointee.image_byte_order == UInt8(XCB_IMAGE_ORDER_MSB_FIRST.rawValue)
        let words = msbFirst ? image.pixels.map { $0.bigEndian } : image.pixels.map { $0.littleEndian }
        let rowBytes = Int(width) * 4
        let maxBytes = Int(xcb_get_maximum_request_length(connection)) * 4
        let rowsPerRequest = max(1, (maxBytes - 64) / rowBytes)
        words.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            var row = 0
            while row < Int(height) {
                let rows = min(rowsPerRequest, Int(height) - row)
                xcb_put_image(
                    connection, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), pixmap, gc, width, UInt16(rows), 0,
                    Int16(row), 0, 32, UInt32(rows * rowBytes), base + row * rowBytes)
                row += rows
            }
        }
        let picture = xcb_generate_id(connection)
        strata_xcb_render_create_picture(connection, picture, pixmap, format)
        let cursor = xcb_generate_id(connection)
        strata_xcb_render_create_cursor(
            connection, cursor, picture, UInt16(image.hotspotX), UInt16(image.hotspotY))
        // The cursor keeps its own copy of the pixels.
        strata_xcb_render_free_picture(connection, picture)
        xcb_free_gc(connection, gc)
        xcb_free_pixmap(connection, pixmap)
        var value = cursor
        xcb_change_window_attributes(connection, root, XCB_CW_CURSOR.rawValue, &value)
        return nil
    }
}

extension XWM {
    /// The root's cursor is the arrow of Strata's cursor theme (`XRootCursor`), set before X
    /// clients are let in; without Render (or a usable image) the root keeps X's and one line
    /// says why.
    func setRootCursor() {
        guard let image = compositor.cursor?.theme.defaultCursor else {
            xwayland.log(
                "strata: Xwayland: no cursor image for the X root window: X windows without a cursor show none")
            return
        }
        if let reason = XRootCursor.set(image, on: root, connection: connection) {
            xwayland.log("strata: Xwayland: the X root window keeps X's cursor: \(reason)")
        }
    }
}
