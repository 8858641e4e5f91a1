import CXCB
import Foundation
import StrataModel
import StrataNestedBackends
import StrataServer
import StrataTestSupport
import Testing

/// CLIPBOARD and PRIMARY between a parent Xvfb and a nested Strata (X11 backend): xclip on the
/// X side, a data-control client inside (hosted by a `TestServer`).
@Suite(
    .serialized, .timeLimit(.minutes(1)),
    .enabled(
        if: ParentXvfb.isInstalled && executable("xclip") != nil,
        "Xvfb or xclip is not installed (apt-get install xvfb xclip)"))
struct NestedX11ClipboardTests {
    final class Sides {
        // Released in this order: the client before its server, Strata before the X server.
        let control: TestDataControl
        let seat: TestSeat
        let client: TestClient
        let nested: TestServer
        let backend: X11Backend
        let probe: X11Probe
        let xvfb: ParentXvfb

        init() throws {
            xvfb = try ParentXvfb()
            probe = try X11Probe(display: xvfb.display)
            backend = try X11Backend(displayName: xvfb.display, modes: [ScreenMode(width: 160, height: 100)])
            nested = TestServer(hosting: try Compositor(backend: backend))
            client = try TestClient(server: nested)
            seat = try TestSeat(client: client)
            control = try TestDataControl(client: client, seat: seat.seat, flavor: .ext)
        }

        func step(seconds: Double = 20, until condition: () -> Bool) -> Bool {
            client.wait(seconds: seconds, until: condition)
        }

        /// Gives Strata's window the X focus (as a window manager would).
        func focusStrata() throws {
            let window = try #require(backend.window(for: nested.compositor.scene.outputs[0]))
            xcb_set_input_focus(probe.connection, UInt8(XCB_INPUT_FOCUS_POINTER_ROOT.rawValue), window, 0)
            xcb_flush(probe.connection)
        }

        func focusRoot() {
            xcb_set_input_focus(probe.connection, UInt8(XCB_INPUT_FOCUS_POINTER_ROOT.rawValue), 1, 0)  // PointerRoot
            xcb_flush(probe.connection)
        }

        func xclip(_ arguments: [String]) throws -> TestProcess {
            try TestProcess(["xclip"] + arguments, server: nested, environment: ["DISPLAY": xvfb.display])
        }

        func readAll(_ fd: Int32) -> [UInt8]? {
            defer { close(fd) }
            var bytes: [UInt8] = []
            let ended = step {
                let (more, eof) = readAvailable(fd)
                bytes += more
                return eof
            }
            return ended ? bytes : nil
        }
    }

    static let textTypes = ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "STRING", "TEXT"]

    @Test(arguments: [false, true])
    func anXClientsSelectionIsOfferedInsideWhileStrataHasTheFocus(primary: Bool) throws {
        let sides = try Sides()
        try sides.focusStrata()
        let text = primary ? "selected in X (ünïcode)" : "copied in X (ünïcode)"
        let file = NSTemporaryDirectory() + "strata-xclip-\(getpid())-\(primary)"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let xclip = try sides.xclip(["-quiet", "-selection", primary ? "primary" : "clipboard", "-i", file])
        #expect(
            sides.step {
                (primary ? sides.control.primarySelectionMimeTypes : sides.control.selectionMimeTypes) == Self.textTypes
            })
        let fd = try #require(sides.control.receive("text/plain;charset=utf-8", primary: primary))
        #expect(sides.readAll(fd).map { String(decoding: $0, as: UTF8.self) } == text)
        xclip.kill()
    }

    @Test func anXSelectionMadeWhileStrataIsNotFocusedArrivesWithTheFocus() throws {
        let sides = try Sides()
        sides.focusRoot()
        let file = NSTemporaryDirectory() + "strata-xclip-unfocused-\(getpid())"
        try "later".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let xclip = try sides.xclip(["-quiet", "-selection", "clipboard", "-i", file])
        // Long enough for xclip to own the selection: nothing arrives inside meanwhile.
        #expect(!sides.step(seconds: 0.5) { !sides.control.selectionMimeTypes.isEmpty })
        try sides.focusStrata()
        #expect(sides.step { sides.control.selectionMimeTypes == Self.textTypes })
        let fd = try #require(sides.control.receive("text/plain"))
        #expect(sides.readAll(fd) == Array("later".utf8))
        xclip.kill()
    }

    @Test(arguments: [false, true])
    func aNestedClientsTextIsTheXSelectionAndXClientsReadIt(primary: Bool) throws {
        let sides = try Sides()
        try sides.focusStrata()
        let text = primary ? "selected inside" : "copied inside"
        let source = try sides.control.makeSource(mimeTypes: ["text/plain;charset=utf-8"], payload: Array(text.utf8))
        sides.control.set(source, primary: primary)
        #expect(sides.step { sides.backend.ownsXSelection(primary ? .primary : .clipboard) })
        for target in ["UTF8_STRING", "STRING", "text/plain;charset=utf-8"] {
            let paste = try sides.xclip(["-selection", primary ? "primary" : "clipboard", "-o", "-t", target])
            #expect(sides.step { paste.hasExited })
            #expect(paste.stdout == text, "xclip -t \(target): \(paste.stderr)")
        }
        let targets = try sides.xclip(["-selection", primary ? "primary" : "clipboard", "-o", "-t", "TARGETS"])
        #expect(sides.step { targets.hasExited })
        #expect(
            targets.stdout.split(separator: "\n").map(String.init)
                == ["TARGETS", "UTF8_STRING", "STRING", "TEXT", "text/plain;charset=utf-8", "text/plain"])
        // The X selection is Strata's own: nothing comes back inside.
        #expect(!source.cancelled)
    }

    @Test func aSelectionWithoutTextIsNotOfferedToXAndAnXOwnerTakesItBack() throws {
        let sides = try Sides()
        try sides.focusStrata()
        let image = try sides.control.makeSource(mimeTypes: ["image/png"], payload: [1, 2, 3])
        sides.control.set(image)
        sides.client.roundtrip()
        #expect(!sides.backend.ownsXSelection(.clipboard))
        let text = try sides.control.makeSource(mimeTypes: ["text/plain"], payload: Array("mine".utf8))
        sides.control.set(text)
        #expect(sides.step { sides.backend.ownsXSelection(.clipboard) })
        let file = NSTemporaryDirectory() + "strata-xclip-takeover-\(getpid())"
        try "theirs".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let xclip = try sides.xclip(["-quiet", "-selection", "clipboard", "-i", file])
        #expect(sides.step { !sides.backend.ownsXSelection(.clipboard) && text.cancelled })
        let fd = try #require(sides.control.receive("text/plain"))
        #expect(sides.readAll(fd) == Array("theirs".utf8))
        xclip.kill()
    }

    /// A hostile X owner (the test's own connection): a TARGETS list too long to read is not
    /// taken; an answer by INCR or a refusal gives the reader an empty, closed pipe.
    @Test func aHostileXOwnersTargetsAndAnswersAreRefusedWithoutBlocking() throws {
        let sides = try Sides()
        try sides.focusStrata()
        let c = sides.probe.connection
        let owner = xcb_generate_id(c)
        let root = try #require(xcb_setup_roots_iterator(xcb_get_setup(c)).data).pointee.root
        xcb_create_window(c, 0, owner, root, 0, 0, 1, 1, 0, UInt16(XCB_WINDOW_CLASS_INPUT_ONLY.rawValue), 0, 0, nil)
        let clipboard = sides.probe.atom("CLIPBOARD"), targets = sides.probe.atom("TARGETS")
        let utf8 = sides.probe.atom("UTF8_STRING"), incr = sides.probe.atom("INCR")
        var answered: [xcb_atom_t] = []
        /// Answers the requests that arrived: TARGETS with `targetList`, text as `textAnswer` says.
        func serve(targetList: [xcb_atom_t], textAnswer: String) {
            while let event = xcb_poll_for_event(c) {
                defer { free(event) }
                guard event.pointee.response_type & 0x7f == UInt8(XCB_SELECTION_REQUEST) else { continue }
                let e = UnsafeRawPointer(event).load(as: xcb_selection_request_event_t.self)
                var property = e.property
                if e.target == targets {
                    var list = targetList
                    xcb_change_property(
                        c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), e.requestor, e.property, XCB_ATOM_ATOM.rawValue, 32,
                        UInt32(list.count), &list)
                } else if textAnswer == "incr" {
                    var size: UInt32 = 1 << 20
                    xcb_change_property(
                        c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), e.requestor, e.property, incr, 32, 1, &size)
                } else {
                    property = 0  // refused
                }
                answered.append(e.target)
                var n = xcb_selection_notify_event_t()
                n.response_type = UInt8(XCB_SELECTION_NOTIFY)
                n.requestor = e.requestor
                n.selection = e.selection
                n.target = e.target
                n.property = property
                sides.probe.send(n, to: e.requestor, mask: 0)
            }
        }

        // 5,000 targets: more than Strata reads; nothing is offered inside.
        xcb_set_selection_owner(c, owner, clipboard, 0)
        xcb_flush(c)
        let many = [xcb_atom_t](repeating: utf8, count: 5000)
        #expect(
            sides.step {
                serve(targetList: many, textAnswer: "refuse"); return answered == [targets]
            })
        sides.client.roundtrip()
        #expect(sides.control.selectionMimeTypes.isEmpty)
        let eventsBefore = sides.control.selectionEvents

        // A short list: offered; the text comes by INCR (refused), then is refused by the owner.
        answered = []
        xcb_set_selection_owner(c, 0, clipboard, 0)
        xcb_set_selection_owner(c, owner, clipboard, 0)
        xcb_flush(c)
        #expect(
            sides.step {
                serve(targetList: [targets, utf8], textAnswer: "incr"); return !sides.control.selectionMimeTypes.isEmpty
            })
        // One selection event: the long list was never taken in (nor cleared).
        #expect(sides.control.selectionEvents == eventsBefore + 1)
        for answer in ["incr", "refuse"] {
            let fd = try #require(sides.control.receive("text/plain"))
            defer { close(fd) }
            var bytes: [UInt8] = []
            #expect(
                sides.step {
                    serve(targetList: [targets, utf8], textAnswer: answer)
                    let (more, eof) = readAvailable(fd)
                    bytes += more
                    return eof
                }, "the reader's pipe is closed after the \(answer) answer")
            #expect(bytes.isEmpty)
        }
        #expect(answered == [targets, utf8, utf8])
        xcb_destroy_window(c, owner)
        xcb_flush(c)
    }

    /// X requestors asking Strata (the owner) for what it does not have get a refusal.
    @Test func anXRequestForATargetStrataDoesNotHaveIsRefused() throws {
        let sides = try Sides()
        try sides.focusStrata()
        let source = try sides.control.makeSource(mimeTypes: ["text/plain"], payload: Array("text".utf8))
        sides.control.set(source)
        #expect(sides.step { sides.backend.ownsXSelection(.clipboard) })
        for target in ["image/png", "MULTIPLE", "TIMESTAMP"] {
            let paste = try sides.xclip(["-selection", "clipboard", "-o", "-t", target])
            #expect(sides.step { paste.hasExited })
            #expect(paste.stdout.isEmpty, "xclip -t \(target)")
        }
        #expect(source.sendRequests.isEmpty)
    }
}
