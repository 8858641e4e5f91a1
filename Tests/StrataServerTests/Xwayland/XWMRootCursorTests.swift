import CXCB
import Foundation
import StrataModel
import StrataRender
import StrataServer
import StrataTestSupport
import Testing

/// The X root window's cursor (`XRootCursor`): the arrow Strata draws, pixel for pixel.
@Suite("The XWM's root cursor", .serialized, .enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
struct XWMRootCursorTests {
    private typealias H = XTestHarness

    /// X's current cursor (XFixes GetCursorImage): nothing is under X's pointer but the root, so
    /// it is the root's cursor, which the XWM set at its start to the compositor's arrow.
    @Test func theRootsCursorIsTheArrowStrataDrawsPixelForPixel() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let arrow = try #require(server.compositor.cursor.theme.defaultCursor)
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        var reply: UnsafeMutablePointer<xcb_xfixes_get_cursor_image_reply_t>?
        let version = xcb_xfixes_query_version(c, 5, 0)
        let cookie = xcb_xfixes_get_cursor_image(c)
        xcb_flush(c)
        #expect(
            server.run(seconds: 20) {
                var raw: UnsafeMutableRawPointer?
                guard xcb_poll_for_reply(c, cookie.sequence, &raw, nil) != 0 else { return false }
                reply = raw?.assumingMemoryBound(to: xcb_xfixes_get_cursor_image_reply_t.self)
                return true
            })
        xcb_discard_reply(c, version.sequence)
        let image = try #require(reply)
        defer { free(image) }
        #expect(Int32(image.pointee.width) == arrow.width && Int32(image.pointee.height) == arrow.height)
        #expect(Int32(image.pointee.xhot) == arrow.hotspotX && Int32(image.pointee.yhot) == arrow.hotspotY)
        let count = Int(xcb_xfixes_get_cursor_image_cursor_image_length(image))
        let pixels = Array(UnsafeBufferPointer(start: xcb_xfixes_get_cursor_image_cursor_image(image), count: count))
        #expect(pixels == arrow.pixels)
    }
}
