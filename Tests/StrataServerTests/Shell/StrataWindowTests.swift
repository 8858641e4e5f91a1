import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// A toplevel with its app id set and a strata_window_v1, not mapped yet.
func makeExtendedToplevel(_ shell: TestXdgShell, manager: TestWindowManager, appID: String)
    throws -> (TestToplevel, TestStrataWindow)
{
    let toplevel = try #require(shell.makeToplevel())
    xdg_toplevel_set_app_id(toplevel.toplevel, appID)
    let object = try #require(manager.window(for: toplevel))
    #expect(shell.client.roundtrip())
    return (toplevel, object)
}

/// strata_window_v1: levels (granted, denied, rules), show without key, own-window events,
/// errors, screens.
@Suite struct StrataWindowTests {
    @Test func levelAboveNormalIsGrantedToAnAllowedAppIDWhenTheWindowMaps() throws {
        let (server, shell) = try makeXdgFixture()
        server.compositor.levelRules = LevelRules(allowedAppIDs: ["org.example.allowed"])
        let manager = try TestWindowManager(client: shell.client)
        let (toplevel, object) = try makeExtendedToplevel(shell, manager: manager, appID: "org.example.allowed")
        object.setLevel(1000)
        #expect(shell.client.roundtrip())
        #expect(object.takeEvents() == ["level_changed 0"], "evaluated at map time, not before")
        #expect(toplevel.map(argb: Colour.red))
        #expect(object.takeEvents() == ["level_changed 1000", "did_become_visible", "did_become_key"])
        #expect(server.windows.windows.first?.level == .alert)
    }

    @Test func levelAboveNormalIsDeniedWithTheEventForAnAppIDNotAllowed() throws {
        let (server, shell) = try makeXdgFixture()
        server.compositor.levelRules = LevelRules(allowedAppIDs: ["org.example.allowed"])
        let manager = try TestWindowManager(client: shell.client)
        let (toplevel, object) = try makeExtendedToplevel(shell, manager: manager, appID: "org.example.other")
        object.setLevel(2000)
        #expect(toplevel.map(argb: Colour.red))
        let reason = STRATA_WINDOW_V1_DENIAL_REASON_NOT_ALLOWED.rawValue
        #expect(
            object.takeEvents() == [
                "level_changed 0", "level_denied 2000 \(reason)", "did_become_visible", "did_become_key",
            ])
        #expect(server.windows.windows.first?.level == .normal)
    }

    @Test func levelAtOrBelowNormalIsGrantedToAnyone() throws {
        let (server, shell) = try makeXdgFixture()
        let manager = try TestWindowManager(client: shell.client)
        let (toplevel, object) = try makeExtendedToplevel(shell, manager: manager, appID: "")
        object.setLevel(-500)
        #expect(toplevel.map(argb: Colour.red))
        #expect(object.takeEvents().contains("level_changed -500"))
        #expect(server.windows.windows.first?.level == WindowLevel(-500))
        // Asking for the level it already has is answered too.
        object.setLevel(-500)
        #expect(shell.client.roundtrip())
        #expect(object.takeEvents() == ["level_changed -500"])
    }

    @Test func setLevelOnAMappedWindowIsEvaluatedAtOnce() throws {
        let (server, shell) = try makeXdgFixture()
        server.compositor.levelRules = LevelRules(allowedAppIDs: ["org.example.allowed"])
        let manager = try TestWindowManager(client: shell.client)
        let (toplevel, object) = try makeExtendedToplevel(shell, manager: manager, appID: "org.example.allowed")
        #expect(toplevel.map(argb: Colour.red))
        _ = object.takeEvents()
        object.setLevel(1500)
        #expect(shell.client.roundtrip())
        #expect(object.takeEvents() == ["level_changed 1500"])
        #expect(server.windows.windows.first?.level == WindowLevel(1500))
    }

    @Test func aConfiguredLevelWinsOverTheClientsRequest() throws {
        let (server, shell) = try makeXdgFixture()
        server.compositor.levelRules = LevelRules(
            levels: ["org.example.panel": .statusBar], allowedAppIDs: ["org.example.panel"])
        let manager = try TestWindowManager(client: shell.client)
        let (toplevel, object) = try makeExtendedToplevel(shell, manager: manager, appID: "org.example.panel")
        #expect(object.takeEvents() == ["level_changed 2000"], "the rule applied when the app id was set")
        object.setLevel(1000)
        #expect(toplevel.map(argb: Colour.red))
        let reason = STRATA_WINDOW_V1_DENIAL_REASON_OVERRIDDEN_BY_RULE.rawValue
        #expect(object.takeEvents() == ["level_denied 1000 \(reason)", "did_become_visible", "did_become_key"])
        #expect(server.windows.windows.first?.level == .statusBar)
    }

    @Test func aLevelRuleAppliesByAppIDWithoutTheExtension() throws {
        let (server, shell) = try makeXdgFixture()
        server.compositor.levelRules = LevelRules(levels: ["org.example.alert": .alert])
        let ruled = try #require(shell.makeToplevel())
        xdg_toplevel_set_app_id(ruled.toplevel, "org.example.alert")
        #expect(ruled.map(argb: Colour.red))
        let plain = try #require(shell.makeToplevel())
        #expect(plain.map(argb: Colour.green))
        // The newer normal window is behind the ruled one.
        #expect(server.windows.windows.map(\.level) == [.normal, .alert])
        #expect(server.pixel(x: 40, y: 40) == Colour.red)
    }

    @Test func showWithoutKeyKeepsThePreviousKeyWindowForOneMap() throws {
        let (server, shell) = try makeXdgFixture()
        let manager = try TestWindowManager(client: shell.client)
        let first = try #require(shell.makeToplevel())
        #expect(first.map(argb: Colour.red))
        let (second, object) = try makeExtendedToplevel(shell, manager: manager, appID: "org.example.quiet")
        object.setShowWithoutKey()
        #expect(second.map(argb: Colour.green))
        #expect(shell.client.roundtrip())
        #expect(object.takeEvents() == ["level_changed 0", "did_become_visible"])
        #expect(first.isActivated)
        #expect(!second.isActivated)
        let key = try #require(server.windows.keyWindow)
        #expect(key.frame.x == 0, "the first window stays key")
        #expect(server.windows.windows.last?.frame.x == 32, "shown in front all the same")
        // Only one map: the next one makes it key as usual.
        #expect(second.unmap())
        #expect(second.map(argb: Colour.green))
        #expect(object.takeEvents() == ["did_become_hidden", "did_become_visible", "did_become_key"])
    }

    @Test func eachClientHearsAboutItsOwnWindowOnly() throws {
        let server = try TestServer()
        let shellA = try TestXdgShell(client: TestClient(server: server))
        let shellB = try TestXdgShell(client: TestClient(server: server))
        let managerA = try TestWindowManager(client: shellA.client)
        let managerB = try TestWindowManager(client: shellB.client)
        let (a, objectA) = try makeExtendedToplevel(shellA, manager: managerA, appID: "a")
        let (b, objectB) = try makeExtendedToplevel(shellB, manager: managerB, appID: "b")
        #expect(a.map(argb: Colour.red))
        #expect(b.map(argb: Colour.green))
        #expect(shellA.client.roundtrip())
        #expect(objectA.takeEvents() == ["level_changed 0", "did_become_visible", "did_become_key", "did_resign_key"])
        #expect(objectB.takeEvents() == ["level_changed 0", "did_become_visible", "did_become_key"])
    }

    @Test func hidingTheKeyWindowResignsKeyBeforeItBecomesHiddenAndKeyPasses() throws {
        let (_, shell) = try makeXdgFixture()
        let manager = try TestWindowManager(client: shell.client)
        let (a, objectA) = try makeExtendedToplevel(shell, manager: manager, appID: "a")
        let (b, objectB) = try makeExtendedToplevel(shell, manager: manager, appID: "b")
        #expect(a.map(argb: Colour.red))
        #expect(b.map(argb: Colour.green))
        _ = objectA.takeEvents()
        _ = objectB.takeEvents()
        #expect(b.unmap())
        #expect(objectB.takeEvents() == ["did_resign_key", "did_become_hidden"])
        #expect(objectA.takeEvents() == ["did_become_key"])
        #expect(a.isActivated)
    }

    @Test func canBecomeKeyOffResignsAndPassesKeyAndMakeKeyIsHonouredForEligibleWindows() throws {
        let (server, shell) = try makeXdgFixture()
        let manager = try TestWindowManager(client: shell.client)
        let (a, objectA) = try makeExtendedToplevel(shell, manager: manager, appID: "a")
        let (b, objectB) = try makeExtendedToplevel(shell, manager: manager, appID: "b")
        #expect(a.map(argb: Colour.red))
        #expect(b.map(argb: Colour.green))
        _ = objectA.takeEvents()
        _ = objectB.takeEvents()
        objectB.setCanBecomeKey(0)
        #expect(shell.client.roundtrip())
        #expect(objectB.takeEvents() == ["did_resign_key"])
        #expect(objectA.takeEvents() == ["did_become_key"])
        objectB.makeKey()  // not eligible: nothing happens
        #expect(shell.client.roundtrip())
        #expect(objectB.takeEvents().isEmpty)
        objectB.setCanBecomeKey(1)
        objectB.makeKey()
        #expect(shell.client.roundtrip())
        #expect(objectA.takeEvents() == ["did_resign_key"])
        #expect(objectB.takeEvents() == ["did_become_key"])
        #expect(b.isActivated && !a.isActivated)
        #expect(server.windows.keyWindow?.appID == "b")
    }

    @Test func aSecondWindowObjectForOneToplevelIsAProtocolError() throws {
        let (_, shell) = try makeXdgFixture()
        let manager = try TestWindowManager(client: shell.client)
        let (toplevel, _) = try makeExtendedToplevel(shell, manager: manager, appID: "a")
        _ = manager.window(for: toplevel)
        expectXdgProtocolError(
            shell.client, code: STRATA_WINDOW_MANAGER_V1_ERROR_WINDOW_EXISTS.rawValue,
            interface: "strata_window_manager_v1")
    }

    @Test func aBooleanOtherThanZeroOrOneIsAProtocolError() throws {
        let (_, shell) = try makeXdgFixture()
        let manager = try TestWindowManager(client: shell.client)
        let (_, object) = try makeExtendedToplevel(shell, manager: manager, appID: "a")
        object.setCanBecomeKey(2)
        expectXdgProtocolError(
            shell.client, code: STRATA_WINDOW_V1_ERROR_INVALID_BOOLEAN.rawValue, interface: "strata_window_v1")
    }

    @Test func aWindowObjectOfADestroyedToplevelIsInertAndRequestsDoNotCrash() throws {
        let (server, shell) = try makeXdgFixture()
        let manager = try TestWindowManager(client: shell.client)
        let (toplevel, object) = try makeExtendedToplevel(shell, manager: manager, appID: "a")
        #expect(toplevel.map(argb: Colour.red))
        toplevel.destroyToplevel()
        #expect(shell.client.roundtrip())
        _ = object.takeEvents()
        object.setLevel(1000)
        object.makeKey()
        object.setCanBecomeKey(0)
        object.setScreen(1)
        #expect(shell.client.roundtrip())
        #expect(object.takeEvents().isEmpty)
        #expect(server.windows.windows.isEmpty)
        object.destroy()
        #expect(shell.client.roundtrip())
    }

    @Test func screensAreAnnouncedOnBindAndWhenTheyConnectOrDisconnect() throws {
        let server = try TestServer(screens: 2)
        let client = try TestClient(server: server)
        let manager = try TestWindowManager(client: client)
        #expect(client.roundtrip())
        #expect(manager.screenEvents == ["connected 1 HEADLESS-1", "connected 2 HEADLESS-2"])
        let third = try #require(server.backend.addScreen(to: server.compositor, name: "EXTRA"))
        #expect(client.roundtrip())
        server.compositor.disconnectScreen(third)
        #expect(client.roundtrip())
        #expect(Array(manager.screenEvents.dropFirst(2)) == ["connected 3 EXTRA", "disconnected 3"])
    }

    @Test func setScreenMovesTheWindowAndTellsItsOwner() throws {
        let server = try TestServer(screens: 2)
        let shell = try TestXdgShell(client: TestClient(server: server))
        let manager = try TestWindowManager(client: shell.client)
        let (toplevel, object) = try makeExtendedToplevel(shell, manager: manager, appID: "a")
        object.setScreen(2)
        #expect(toplevel.map(argb: Colour.red))
        #expect(object.takeEvents().contains("screen_changed 2"))
        #expect(server.windows.windows.first?.screen?.id == ScreenID(2))
        #expect(server.pixel(x: 10, y: 10, screen: 1) == Colour.red)
        object.setScreen(99)  // no such screen: ignored
        #expect(shell.client.roundtrip())
        #expect(server.windows.windows.first?.screen?.id == ScreenID(2))
    }
}
