import CXCB
import Foundation
@testable import StrataServer
import Testing

/// The XWM's replies in X's order: before an event, the replies X sent before it, and only those.
@Suite struct XReplyQueueTests {
    @Test func sequencesCompareAcrossTheWrap() {
        #expect(XReplyQueue.precedes(1, 2))
        #expect(!XReplyQueue.precedes(2, 1))
        #expect(!XReplyQueue.precedes(7, 7))
        #expect(XReplyQueue.precedes(0xffff_fff0, 5), "a sequence just before the wrap comes before one just after")
        #expect(!XReplyQueue.precedes(5, 0xffff_fff0))
    }

    /// Two replies, an event between them, all read by xcb at once: collecting before the event's
    /// sequence runs the first reply's handler only; the second runs after.
    @Test(.enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
    func collectingBeforeAnEventRunsOnlyTheRepliesXSentBeforeIt() throws {
        let (server, xwayland) = try XTestHarness.start()
        defer { xwayland.shutdown() }
        _ = server
        let c = try #require(XTestHarness.connect(xwayland))
        defer { xcb_disconnect(c) }
        let window = XTestHarness.createWindow(c, x: 0, y: 0, width: 10, height: 10, overrideRedirect: true)
        var mask = XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
        xcb_change_window_attributes(c, window, XCB_CW_EVENT_MASK.rawValue, &mask)

        let queue = XReplyQueue()
        var ran: [String] = []
        queue.expect(xcb_get_input_focus(c).sequence) { reply in ran.append(reply == nil ? "first: none" : "first") }
        let change = xcb_change_property(
            c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, XCB_ATOM_WM_NAME.rawValue,
            XCB_ATOM_STRING.rawValue, 8, 1, "x")
        queue.expect(xcb_get_input_focus(c).sequence) { reply in ran.append(reply == nil ? "second: none" : "second") }
        // A request answered after all of them: once its reply is in, xcb has read the rest.
        free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nil))

        let event = try #require(xcb_poll_for_event(c))
        defer { free(event) }
        #expect(event.pointee.response_type & 0x7f == XCB_PROPERTY_NOTIFY)
        #expect(event.pointee.full_sequence == change.sequence)
        #expect(queue.collect(c, before: event.pointee.full_sequence) == 1)
        #expect(ran == ["first"])
        #expect(queue.collect(c) == 1)
        #expect(ran == ["first", "second"])
        #expect(queue.isEmpty)
    }
}
