import CStrataClientGlue
import CWaylandClient
import StrataModel
import StrataServer
import StrataTestSupport
import StrataTestRandom
import Testing

/// Objects of xdg-shell die in any order, by request or by disconnect, without crashing the
/// compositor or leaving windows behind.
@Suite struct XdgLifetimeTests {
    /// The six objects of a mapped toplevel with a mapped popup, and how to destroy each.
    private enum Part: CaseIterable {
        case toplevelSurface, toplevelXdgSurface, toplevel, popupSurface, popupXdgSurface, popup
    }

    private func destroy(_ part: Part, toplevel: TestToplevel, popup: TestPopup) {
        switch part {
        case .toplevelSurface: toplevel.destroySurface()
        case .toplevelXdgSurface: toplevel.destroyXdgSurface()
        case .toplevel: toplevel.destroyToplevel()
        case .popupSurface: popup.destroySurface()
        case .popupXdgSurface: popup.destroyXdgSurface()
        case .popup: popup.destroyPopup()
        }
    }

    @Test func objectsDestroyedInAnyOrderLeaveNoWindowAndNoCrash() throws {
        let server = try TestServer()
        var generator = SeededGenerator(seed: 42)
        var orders: [[Part]] = [Part.allCases, Part.allCases.reversed()]
        for _ in 0..<40 { orders.append(Part.allCases.shuffled(using: &generator)) }
        for order in orders {
            do {
                let shell = try TestXdgShell(client: TestClient(server: server))
                let toplevel = try #require(shell.makeToplevel())
                #expect(toplevel.map(argb: Colour.red))
                let positioner = try #require(shell.makePositioner(width: 20, height: 20, anchorRect: (0, 0, 10, 10)))
                let popup = try #require(shell.makePopup(parent: toplevel.xdgSurface, positioner: positioner))
                #expect(popup.map(argb: Colour.blue))
                for part in order {
                    destroy(part, toplevel: toplevel, popup: popup)
                    // Requests on what is left must be harmless too.
                    if part == .toplevelSurface, !toplevel.isToplevelDestroyed {
                        xdg_toplevel_set_maximized(toplevel.toplevel)
                    }
                    if !shell.client.roundtrip() { break }
                }
                if shell.client.connectionError == 0 {
                    #expect(server.windows.windows.isEmpty, "order \(order)")
                }
            }
            server.step()
            #expect(server.windows.windows.isEmpty, "order \(order)")
            #expect(server.pixel(x: 5, y: 5) == Colour.background, "order \(order)")
        }
        let shell = try TestXdgShell(client: TestClient(server: server))
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.green))
        let frame = try #require(server.windows.windows.first?.frame)
        #expect(server.pixel(x: Int32(frame.x) + 1, y: Int32(frame.y) + 1) == Colour.green)
    }

    @Test func destroyingTheParentToplevelDismissesItsPopups() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        let positioner = try #require(shell.makePositioner(width: 20, height: 20, anchorRect: (0, 0, 10, 10)))
        let popup = try #require(shell.makePopup(parent: toplevel.xdgSurface, positioner: positioner))
        #expect(popup.map(argb: Colour.blue))
        let nested = try #require(shell.makePopup(parent: popup.xdgSurface, positioner: positioner))
        #expect(nested.map(argb: Colour.green))
        toplevel.destroyToplevel()
        #expect(shell.client.roundtrip())
        #expect(popup.doneCount == 1)
        #expect(nested.doneCount == 1)
        // Topmost first.
        #expect(nested.events.last == "popup_done")
        #expect(server.windows.windows.isEmpty)
        #expect(server.pixel(x: 5, y: 5) == Colour.background)
        // The dismissed popups can still be committed and destroyed.
        popup.commit()
        nested.commit()
        nested.destroyPopup()
        popup.destroyPopup()
        #expect(shell.client.roundtrip())
    }

    @Test func twoClientsWindowsStayIndependent() throws {
        let server = try TestServer()
        let one = try TestXdgShell(client: TestClient(server: server))
        let two = try TestXdgShell(client: TestClient(server: server))
        let a = try #require(one.makeToplevel())
        let b = try #require(two.makeToplevel())
        #expect(a.map(argb: Colour.red))
        #expect(b.map(argb: Colour.green))
        #expect(one.client.roundtrip())
        #expect(!a.isActivated)
        #expect(b.isActivated)
        b.destroyToplevel()
        #expect(two.client.roundtrip())
        #expect(one.client.roundtrip())
        // Key passes back to the other client's window, and activation with it.
        #expect(a.isActivated)
        #expect(server.windows.windows.count == 1)
    }
}
