import Foundation
import StrataControl
import StrataControlProtocol
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// The control socket and modal windows: window info's `modal` and `parent`, and `make-key` of a
/// window a modal child blocks.
@Suite struct ModalControlTests {
    @Test func windowsReportsModalAndParent() throws {
        let harness = try ControlHarness()
        let document = harness.window("document")
        let dialog = harness.windows.createWindow(appID: "dialog")
        harness.windows.setParent(dialog, document)
        harness.windows.setModal(dialog, true)
        harness.windows.show(dialog)
        let reply = try harness.request(["command": "windows"])
        let list = try #require(try reply["windows"]?.decode([WindowInfo].self))
        #expect(list.map(\.appID) == ["dialog", "document"])
        #expect(list.map(\.modal) == [true, false])
        #expect(list.map(\.parent) == [document.id.rawValue, nil])
        #expect(list.map(\.key) == [true, false])
    }

    @Test func makeKeyOfABlockedWindowIsAnErrorNamingTheModalWindowMadeKey() throws {
        let harness = try ControlHarness()
        let document = harness.window("document")
        let dialog = harness.windows.createWindow(appID: "dialog")
        harness.windows.setParent(dialog, document)
        harness.windows.setModal(dialog, true)
        harness.windows.show(dialog)
        let other = harness.window("other")
        #expect(other.isKeyWindow)
        let reply = try harness.request(["command": "make-key", "window": "document"])
        #expect(reply.errorCode == "invalid_argument")
        let message = reply["error"]?["message"]?.stringValue ?? ""
        #expect(
            message
                == "window \(document.id.rawValue) cannot be key while its modal window \(dialog.id.rawValue) is shown: window \(dialog.id.rawValue) is key instead"
        )
        #expect(dialog.isKeyWindow)
    }
}
