import Foundation
import StrataModel
import StrataNestedBackends
import StrataServer
import StrataTestSupport
import Testing

/// The clipboard and the primary selection between a parent session and a nested Strata: the
/// parent is an in-process headless Strata, the nested Strata its client through a socket pair
/// (hosted by a `TestServer` so test clients connect to it), everything stepped on this thread.
/// Clients on both sides use data control (wl-copy's protocol), which needs no surface.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct NestedClipboardTests {
    final class Sides {
        // Released in this order: the clients before their servers, the nested Strata before
        // its parent.
        let parentControl: TestDataControl
        let nestedControl: TestDataControl
        let parentSeat: TestSeat
        let nestedSeat: TestSeat
        let parentClient: TestClient
        let nestedClient: TestClient
        let nested: TestServer
        let backend: WaylandBackend
        let parent: TestServer

        init() throws {
            let parent = try TestServer(width: 640, height: 480)
            let parentEnd = try StrataParentTests.connection(to: parent)
            self.parent = parent
            backend = try WaylandBackend(
                fd: parentEnd, modes: [ScreenMode(width: 320, height: 200)], whileWaiting: { parent.step() })
            nested = TestServer(hosting: try Compositor(backend: backend), alsoStep: { parent.step() })
            parentClient = try TestClient(server: parent)
            nestedClient = try TestClient(server: nested)
            parentSeat = try TestSeat(client: parentClient)
            nestedSeat = try TestSeat(client: nestedClient)
            parentControl = try TestDataControl(client: parentClient, seat: parentSeat.seat, flavor: .ext)
            nestedControl = try TestDataControl(client: nestedClient, seat: nestedSeat.seat, flavor: .ext)
        }

        /// Steps both servers and both clients until `condition` holds (at most `seconds`).
        @discardableResult
        func step(seconds: Double = 10, until condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !condition() {
                if Date() > deadline { return false }
                nested.step(timeout: 0.001)
                parentClient.step()
                nestedClient.step()
            }
            return true
        }

        /// The nested screen's window is the parent's key window (the parent gives its selection
        /// to the keyboard focus client only).
        func waitForParentFocus() -> Bool {
            step { parent.windows.windows.contains { $0.title == "WL-1" && $0.isKeyWindow } }
        }

        /// Everything written into `fd` until its end, stepping both sides meanwhile.
        func readAll(_ fd: Int32) -> [UInt8]? {
            defer { close(fd) }
            var bytes: [UInt8] = []
            var ended = false
            let finished = step {
                let (more, eof) = readAvailable(fd)
                bytes += more
                ended = eof
                return ended
            }
            return finished ? bytes : nil
        }
    }

    static let text = ["text/plain;charset=utf-8", "text/plain"]

    @Test(arguments: [false, true])
    func theParentsSelectionIsOfferedInsideAndReadFromTheParentsOwner(primary: Bool) throws {
        let sides = try Sides()
        #expect(sides.waitForParentFocus())
        let payload = Array((primary ? "middle-click text from the parent" : "copied in the parent").utf8)
        let source = try sides.parentControl.makeSource(mimeTypes: Self.text, payload: payload)
        sides.parentControl.set(source, primary: primary)
        #expect(
            sides.step {
                (primary ? sides.nestedControl.primarySelectionMimeTypes : sides.nestedControl.selectionMimeTypes)
                    == Self.text
            })
        let fd = try #require(sides.nestedControl.receive("text/plain", primary: primary))
        #expect(sides.readAll(fd) == payload)
        #expect(source.sendRequests == ["text/plain"])
        // The other selection is untouched.
        #expect(
            (primary ? sides.nestedControl.selectionMimeTypes : sides.nestedControl.primarySelectionMimeTypes).isEmpty)
        // Strata holds the parent's selection and offers nothing back to it.
        #expect(!sides.backend.offersSelectionToParent(primary ? .primary : .clipboard))
    }

    @Test(arguments: [false, true])
    func aNestedClientsSelectionIsOfferedToTheParentAndReadFromTheNestedOwner(primary: Bool) throws {
        let sides = try Sides()
        #expect(sides.waitForParentFocus())
        let payload = Array((primary ? "selected inside" : "copied inside").utf8)
        let source = try sides.nestedControl.makeSource(mimeTypes: ["text/plain", "text/html"], payload: payload)
        sides.nestedControl.set(source, primary: primary)
        func parentTypes() -> [String] {
            primary ? sides.parentControl.primarySelectionMimeTypes : sides.parentControl.selectionMimeTypes
        }
        #expect(sides.step { parentTypes().count == 3 })
        #expect(Array(parentTypes().prefix(2)) == ["text/plain", "text/html"])
        #expect(parentTypes().last?.hasPrefix("application/x-strata-nested-selection;id=") == true)
        let fd = try #require(sides.parentControl.receive("text/html", primary: primary))
        #expect(sides.readAll(fd) == payload)
        #expect(source.sendRequests == ["text/html"])
        // The parent's echo (Strata has its focus) is recognised: the nested client's source
        // stays the selection inside.
        sides.step(seconds: 0.1) { false }
        #expect(!source.cancelled)
        #expect(
            (primary ? sides.nestedControl.primarySelectionMimeTypes : sides.nestedControl.selectionMimeTypes) == [
                "text/plain", "text/html",
            ])
        #expect(sides.backend.offersSelectionToParent(primary ? .primary : .clipboard))
    }

    @Test func aNewParentSelectionReplacesTheNestedOneAndClearingItClearsItInside() throws {
        let sides = try Sides()
        #expect(sides.waitForParentFocus())
        let inside = try sides.nestedControl.makeSource(mimeTypes: ["text/plain"], payload: Array("inside".utf8))
        sides.nestedControl.set(inside)
        #expect(sides.step { sides.backend.offersSelectionToParent(.clipboard) })
        let outside = try sides.parentControl.makeSource(mimeTypes: ["image/png"], payload: [1, 2, 3])
        sides.parentControl.set(outside)
        #expect(sides.step { sides.nestedControl.selectionMimeTypes == ["image/png"] })
        #expect(inside.cancelled)
        #expect(!sides.backend.offersSelectionToParent(.clipboard))
        sides.parentControl.set(nil)
        #expect(sides.step { sides.nestedControl.selectionEvents > 0 && sides.nestedControl.selection == nil })
    }

    @Test func aNestedSelectionWhoseOwnerDiesIsWithdrawnFromTheParent() throws {
        let sides = try Sides()
        #expect(sides.waitForParentFocus())
        let inside = try sides.nestedControl.makeSource(mimeTypes: ["text/plain"], payload: Array("gone soon".utf8))
        sides.nestedControl.set(inside)
        #expect(sides.step { sides.parentControl.selectionMimeTypes.first == "text/plain" })
        inside.destroy()
        #expect(sides.step { sides.parentControl.selection == nil })
        #expect(!sides.backend.offersSelectionToParent(.clipboard))
    }

    @Test func aTypeTheParentDidNotOfferIsNeverAskedOfIt() throws {
        let sides = try Sides()
        #expect(sides.waitForParentFocus())
        let source = try sides.parentControl.makeSource(mimeTypes: ["text/plain"], payload: Array("x".utf8))
        sides.parentControl.set(source)
        #expect(sides.step { sides.nestedControl.selectionMimeTypes == ["text/plain"] })
        let fd = try #require(sides.nestedControl.receive("application/octet-stream"))
        #expect(sides.readAll(fd) == [])
        #expect(source.sendRequests.isEmpty)
    }

    /// Debian's wl-clipboard on both sides (it uses data control, so no window is needed):
    /// wl-copy inside, wl-paste in the parent; then the parent's primary selection pasted inside.
    @Test(
        .enabled(
            if: executable("wl-copy") != nil && executable("wl-paste") != nil,
            "wl-clipboard is not installed (apt-get install wl-clipboard)"))
    func wlCopyInsideIsPastedInTheParentAndTheParentsPrimaryInside() throws {
        let sides = try Sides()
        #expect(sides.waitForParentFocus())
        let copy = try TestProcess(
            ["wl-copy", "--foreground", "copied inside the nested Strata"], server: sides.nested)
        #expect(sides.step(seconds: 20) { sides.backend.offersSelectionToParent(.clipboard) })
        let paste = try TestProcess(["wl-paste", "--no-newline"], server: sides.parent)
        #expect(sides.step(seconds: 20) { paste.hasExited })
        #expect(paste.stdout == "copied inside the nested Strata", "wl-paste: \(paste.stderr)")
        copy.kill()

        let select = try TestProcess(
            ["wl-copy", "--foreground", "--primary", "selected in the parent"], server: sides.parent)
        #expect(sides.step(seconds: 20) { !sides.nestedControl.primarySelectionMimeTypes.isEmpty })
        let middle = try TestProcess(["wl-paste", "--primary", "--no-newline"], server: sides.nested)
        #expect(sides.step(seconds: 20) { middle.hasExited })
        #expect(middle.stdout == "selected in the parent", "wl-paste: \(middle.stderr)")
        select.kill()
    }
}
