import CXCB
import Foundation

/// An X client of the selection tests, over xcb, stepped by the test (`pump`): as an owner it
/// answers TARGETS and its data (in one property, or by INCR in chunks, optionally disconnecting
/// after some chunks: an X client that dies mid-transfer); as a requestor it converts a
/// selection into its window's property and reads it (INCR too).
final class TestXSelectionClient {
    let c: OpaquePointer
    let window: xcb_window_t
    private(set) var isConnected = true

    // Owner
    /// The data per target; TARGETS lists `targets` (defaults to these keys).
    var data: [xcb_atom_t: [UInt8]] = [:]
    var targets: [xcb_atom_t]?
    /// False: TARGETS is refused (an owner of old X clients' kind).
    var answersTargets = true
    /// Data longer than this goes by INCR in chunks of this size.
    var incrChunk = Int.max
    /// Disconnects after sending this many INCR chunks (at the requestor's next delete, or at
    /// once when `diesAsItWritesTheLastChunk`).
    var dieAfterChunks: Int?
    var diesAsItWritesTheLastChunk = false
    private(set) var chunksSent = 0
    private var incr: (requestor: xcb_window_t, property: xcb_atom_t, type: xcb_atom_t, bytes: [UInt8], offset: Int)?

    /// The client messages its windows got (XDND), in order.
    var clientMessages: [xcb_client_message_event_t] = []

    // Requestor
    private(set) var received: [UInt8]?
    private(set) var receivedType: xcb_atom_t = 0
    private(set) var refused = false
    private var receiving: [UInt8] = []
    private var isIncremental = false
    private var convertedProperty: xcb_atom_t = 0
    /// INCR chunks read so far; disconnects after `dieAfterReading` of them.
    private(set) var chunksRead = 0
    var dieAfterReading: Int?

    /// `nested`: its window is the child of a top-level window of its own (not one the XWM
    /// manages).
    init?(display: String, nested: Bool = false) {
        guard let c = xcb_connect(display, nil), xcb_connection_has_error(c) == 0 else { return nil }
        self.c = c
        let screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data!
        var parent = screen.pointee.root
        if nested {
            parent = xcb_generate_id(c)
            xcb_create_window(
                c, UInt8(XCB_COPY_FROM_PARENT), parent, screen.pointee.root, 0, 0, 20, 20, 0,
                UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), screen.pointee.root_visual, 0, nil)
        }
        window = xcb_generate_id(c)
        var mask = XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
        xcb_create_window(
            c, UInt8(XCB_COPY_FROM_PARENT), window, parent, 0, 0, 10, 10, 0,
            UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), screen.pointee.root_visual,
            XCB_CW_EVENT_MASK.rawValue, &mask)
        xcb_flush(c)
    }

    func disconnect() {
        guard isConnected else { return }
        isConnected = false
        xcb_disconnect(c)
    }

    func atom(_ name: String) -> xcb_atom_t {
        let cookie = xcb_intern_atom(c, 0, UInt16(name.utf8.count), name)
        guard let reply = xcb_intern_atom_reply(c, cookie, nil) else { return 0 }
        defer { free(reply) }
        return reply.pointee.atom
    }

    func own(_ selection: xcb_atom_t) {
        xcb_set_selection_owner(c, window, selection, UInt32(XCB_CURRENT_TIME))
        xcb_flush(c)
    }

    func owner(of selection: xcb_atom_t) -> xcb_window_t {
        guard let reply = xcb_get_selection_owner_reply(c, xcb_get_selection_owner(c, selection), nil) else { return 0 }
        defer { free(reply) }
        return reply.pointee.owner
    }

    /// Sends `event` (32 bytes) to `window` with SendEvent: a forged event.
    func forge<Event>(_ event: Event, to window: xcb_window_t) {
        var copy = event
        var bytes = [UInt8](repeating: 0, count: 32)
        withUnsafeBytes(of: &copy) { raw in
            for index in 0..<min(raw.count, 32) { bytes[index] = raw[index] }
        }
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                _ = xcb_send_event(c, 0, window, XCB_EVENT_MASK_NO_EVENT.rawValue, chars.baseAddress)
            }
        }
        xcb_flush(c)
    }

    func convert(_ selection: xcb_atom_t, to target: xcb_atom_t) {
        received = nil
        refused = false
        receiving = []
        isIncremental = false
        convertedProperty = atom("STRATA_TEST_OUT")
        xcb_convert_selection(c, window, selection, target, convertedProperty, UInt32(XCB_CURRENT_TIME))
        xcb_flush(c)
    }

    /// Converts `selection` to `target` into `property` of the client's window (MULTIPLE names
    /// its pairs there, SAVE_TARGETS its targets); `received` is that property's value.
    func convert(_ selection: xcb_atom_t, to target: xcb_atom_t, property: xcb_atom_t) {
        received = nil
        refused = false
        receiving = []
        isIncremental = false
        convertedProperty = property
        xcb_convert_selection(c, window, selection, target, property, UInt32(XCB_CURRENT_TIME))
        xcb_flush(c)
    }

    /// Sets a format-32 property of the client's window.
    func setProperty(_ property: xcb_atom_t, type: xcb_atom_t, words: [UInt32]) {
        var words = words
        xcb_change_property(
            c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, property, type, 32, UInt32(words.count), &words)
        xcb_flush(c)
    }

    /// A property of the client's window, read without deleting it: its type and bytes.
    func property(_ property: xcb_atom_t) -> (type: xcb_atom_t, bytes: [UInt8]) {
        let cookie = xcb_get_property(c, 0, window, property, XCB_ATOM_ANY.rawValue, 0, 16 << 20)
        guard let reply = xcb_get_property_reply(c, cookie, nil) else { return (0, []) }
        defer { free(reply) }
        let length = Int(xcb_get_property_value_length(reply))
        let bytes = length > 0 ? Array(UnsafeRawBufferPointer(start: xcb_get_property_value(reply), count: length)) : []
        return (reply.pointee.type, bytes)
    }

    /// Handles what arrived; false once disconnected.
    @discardableResult
    func pump() -> Bool {
        guard isConnected else { return false }
        while isConnected, let event = xcb_poll_for_event(c) {
            handle(event)
            free(event)
        }
        if isConnected { xcb_flush(c) }
        return isConnected
    }

    private func handle(_ event: UnsafeMutablePointer<xcb_generic_event_t>) {
        let raw = UnsafeMutableRawPointer(event)
        switch Int32(event.pointee.response_type & 0x7f) {
        case XCB_SELECTION_REQUEST:
            answer(raw.assumingMemoryBound(to: xcb_selection_request_event_t.self).pointee)
        case XCB_SELECTION_NOTIFY:
            let e = raw.assumingMemoryBound(to: xcb_selection_notify_event_t.self).pointee
            guard e.property != 0 else {
                refused = true
                return
            }
            readProperty()
        case XCB_PROPERTY_NOTIFY:
            let e = raw.assumingMemoryBound(to: xcb_property_notify_event_t.self).pointee
            if e.window == window, e.atom == convertedProperty, isIncremental,
                e.state == UInt8(XCB_PROPERTY_NEW_VALUE.rawValue)
            {
                readProperty()
            } else if let incr, e.window == incr.requestor, e.atom == incr.property,
                e.state == UInt8(XCB_PROPERTY_DELETE.rawValue)
            {
                sendNextChunk()
            }
        case XCB_CLIENT_MESSAGE:
            clientMessages.append(raw.assumingMemoryBound(to: xcb_client_message_event_t.self).pointee)
        default:
            if xfixesEvent != 0, event.pointee.response_type & 0x7f == xfixesEvent &+ UInt8(XCB_XFIXES_SELECTION_NOTIFY)
            {
                ownerChangesSeen += 1
            }
        }
    }

    private func readProperty() {
        let cookie = xcb_get_property(c, 1, window, convertedProperty, XCB_ATOM_ANY.rawValue, 0, 16 << 20)
        guard let reply = xcb_get_property_reply(c, cookie, nil) else { return }
        defer { free(reply) }
        let length = Int(xcb_get_property_value_length(reply))
        let bytes = length > 0 ? Array(UnsafeRawBufferPointer(start: xcb_get_property_value(reply), count: length)) : []
        if !isIncremental, reply.pointee.type == atom("INCR") {
            isIncremental = true
            return
        }
        if isIncremental {
            if bytes.isEmpty {
                received = receiving
            } else {
                receiving += bytes
                receivedType = reply.pointee.type
                chunksRead += 1
                if let limit = dieAfterReading, chunksRead >= limit { disconnect() }
            }
        } else {
            received = bytes
            receivedType = reply.pointee.type
        }
    }

    private func answer(_ e: xcb_selection_request_event_t) {
        let property = e.property == 0 ? e.target : e.property
        var ok = true
        if e.target == atom("TARGETS"), !answersTargets {
            ok = false
        } else if e.target == atom("TARGETS") {
            var list = targets ?? Array(data.keys)
            xcb_change_property(
                c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), e.requestor, property, XCB_ATOM_ATOM.rawValue,
                32, UInt32(list.count), &list)
        } else if let bytes = data[e.target] {
            if bytes.count > incrChunk {
                var mask = XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
                xcb_change_window_attributes(c, e.requestor, XCB_CW_EVENT_MASK.rawValue, &mask)
                var size = UInt32(bytes.count)
                xcb_change_property(
                    c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), e.requestor, property, atom("INCR"), 32, 1, &size)
                incr = (e.requestor, property, e.target, bytes, 0)
            } else {
                xcb_change_property(
                    c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), e.requestor, property, e.target, 8,
                    UInt32(bytes.count), bytes)
            }
        } else {
            ok = false
        }
        var notify = xcb_selection_notify_event_t()
        notify.response_type = UInt8(XCB_SELECTION_NOTIFY)
        notify.time = e.time
        notify.requestor = e.requestor
        notify.selection = e.selection
        notify.target = e.target
        notify.property = ok ? property : 0
        withUnsafeBytes(of: &notify) { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                xcb_send_event(c, 0, e.requestor, XCB_EVENT_MASK_NO_EVENT.rawValue, chars.baseAddress)
            }
        }
        xcb_flush(c)
    }

    private func sendNextChunk() {
        guard var transfer = incr else { return }
        if let limit = dieAfterChunks, chunksSent >= limit {
            incr = nil
            disconnect()
            return
        }
        let end = min(transfer.offset + incrChunk, transfer.bytes.count)
        let chunk = Array(transfer.bytes[transfer.offset..<end])
        xcb_change_property(
            c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), transfer.requestor, transfer.property, transfer.type, 8,
            UInt32(chunk.count), chunk)
        xcb_flush(c)
        if chunk.isEmpty {
            incr = nil
            return
        }
        chunksSent += 1
        transfer.offset = end
        incr = transfer
        if diesAsItWritesTheLastChunk, let limit = dieAfterChunks, chunksSent >= limit {
            // A round trip first: the X server drops requests it had not read when a client's
            // connection ends.
            sync()
            incr = nil
            disconnect()
        }
    }

    /// A round trip: every request sent before is processed.
    func sync() {
        free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nil))
    }

    // Watcher

    /// XFixes reports of owner changes seen since `watchOwner(of:)`.
    private(set) var ownerChangesSeen = 0
    private var xfixesEvent: UInt8 = 0

    /// Asks XFixes for `selection`'s owner changes (counted in `ownerChangesSeen`): when one
    /// arrives here, the X server has sent it to every client watching, the XWM too.
    func watchOwner(of selection: xcb_atom_t) {
        free(xcb_xfixes_query_version_reply(c, xcb_xfixes_query_version(c, 5, 0), nil))
        guard let xfixes = xcb_get_extension_data(c, strata_xcb_xfixes_id()), xfixes.pointee.present != 0 else {
            return
        }
        xfixesEvent = xfixes.pointee.first_event
        let mask =
            XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER.rawValue
            | XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_WINDOW_DESTROY.rawValue
            | XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_CLIENT_CLOSE.rawValue
        xcb_xfixes_select_selection_input(c, window, selection, mask)
        xcb_flush(c)
    }

    /// Waits (without stepping anything else) until the connection has something to read, or
    /// `seconds` pass; then pumps it.
    @discardableResult
    func pump(waitingUpTo seconds: Double) -> Bool {
        guard isConnected else { return false }
        var pfd = pollfd(fd: xcb_get_file_descriptor(c), events: Int16(POLLIN), revents: 0)
        _ = poll(&pfd, 1, Int32(seconds * 1000))
        return pump()
    }
}
