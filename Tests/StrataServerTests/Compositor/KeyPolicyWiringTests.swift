import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Keyboard enter/leave and xdg `activated` follow the model's key window under each policy.
@Suite struct KeyPolicyWiringTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var policy: String
        var clickMakesKey: Bool
        var clickOrdersFront: Bool
        var enterMakesKey: Bool
        var testDescription: String { policy }
    }

    static let cases = [
        Case(policy: "uikit", clickMakesKey: true, clickOrdersFront: false, enterMakesKey: false),
        Case(policy: "click-to-focus", clickMakesKey: true, clickOrdersFront: true, enterMakesKey: false),
        Case(policy: "focus-follows-pointer", clickMakesKey: true, clickOrdersFront: false, enterMakesKey: true),
        Case(policy: "explicit", clickMakesKey: false, clickOrdersFront: false, enterMakesKey: false),
    ]

    @Test(arguments: cases)
    func keyboardFocusAndActivatedFollowTheKeyWindowUnder(_ c: Case) throws {
        let policy = try #require(KeyWindowPolicies.named(c.policy))
        let server = try TestServer(policy: policy)
        let shell = try TestXdgShell(client: TestClient(server: server))
        let seat = try TestSeat(client: shell.client)
        seat.getPointer()
        seat.getKeyboard()
        let a = try #require(shell.makeToplevel())
        #expect(a.map(width: 100, height: 100, argb: Colour.red))
        let b = try #require(shell.makeToplevel())
        #expect(b.map(width: 100, height: 100, argb: Colour.green))  // at (32, 32), key under every policy
        #expect(shell.client.roundtrip())
        #expect(b.isActivated && !a.isActivated)
        let idA = shell.client.id(of: a.surface), idB = shell.client.id(of: b.surface)
        #expect(
            seat.takeEvents().filter { if case .keyboardEnter = $0 { return true } else { return false } }.last
                == .keyboardEnter(surface: idB, keys: []))

        // The pointer enters A (where B does not cover it).
        let output = try #require(server.compositor.scene.outputs.first)
        server.compositor.seat.pointerMotion(on: output, x: 10, y: 10, time: 1)
        #expect(shell.client.roundtrip())
        let afterEnter = seat.takeEvents()
        #expect(afterEnter.contains(.keyboardEnter(surface: idA, keys: [])) == c.enterMakesKey)
        #expect(a.isActivated == c.enterMakesKey)

        // A click in A.
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: true, time: 2)
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: false, time: 3)
        #expect(shell.client.roundtrip())
        let aIsKey = c.clickMakesKey || c.enterMakesKey
        #expect(a.isActivated == aIsKey)
        #expect(b.isActivated == !aIsKey)
        #expect(
            server.compositor.seat.keyboardFocus
                === server.compositor.surface(of: shell.client.serverClient, id: aIsKey ? idA : idB))
        let clickEvents = afterEnter + seat.takeEvents()
        if aIsKey {
            let leave = clickEvents.firstIndex(of: .keyboardLeave(surface: idB))
            let enter = clickEvents.firstIndex(of: .keyboardEnter(surface: idA, keys: []))
            #expect(leave != nil && enter != nil && leave! < enter!, "leave before enter: \(clickEvents)")
        } else {
            #expect(!clickEvents.contains(.keyboardLeave(surface: idB)))
        }
        #expect(
            (server.windows.windows.last?.frame.x == 0) == c.clickOrdersFront,
            "a click orders front only under click-to-focus")

        // Closing the key window passes key (except under explicit, which names no successor).
        let keyToplevel = aIsKey ? a : b, other = aIsKey ? b : a
        keyToplevel.destroyToplevel()
        #expect(shell.client.roundtrip())
        #expect(other.isActivated == (c.policy != "explicit"))
        #expect((server.windows.keyWindow != nil) == (c.policy != "explicit"))
    }
}
