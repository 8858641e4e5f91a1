import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// An application client: a keyboard, a text input and a window (so it can be made key).
final class TextApp {
    // Released in this order: the surface's buffer before the connection it was made on.
    let surface: TestSurface
    let window: Window
    let textInput: TestTextInput
    let manager: OpaquePointer
    let seat: TestSeat
    let client: TestClient

    init(_ server: TestServer, x: Int, y: Int = 0, argb: UInt32 = 0xff80_8080) throws {
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        seat.getKeyboard()
        let manager = try client.bind(zwp_text_input_manager_v3_interface_ptr(), version: 1)
        textInput = try TestTextInput(manager: manager, seat: seat.seat)
        let surface = try client.makeSurface(width: 100, height: 40, argb: argb)
        window = try #require(client.showPlainSurface(surface, x: x, y: y))
        self.surface = surface
        self.manager = manager
        self.seat = seat
        self.client = client
    }

    var surfaceID: UInt32 { surface.id }

    /// enable + commit, and the round trip that delivers them.
    func enable() {
        textInput.enable()
        textInput.commit()
        client.roundtrip()
    }
}

/// An input method client (privileged: the in-process test clients are Strata's own process).
final class IMClient {
    let inputMethod: TestInputMethod
    let manager: OpaquePointer
    let seat: TestSeat
    let client: TestClient

    init(_ server: TestServer) throws {
        let client = try TestClient(server: server)
        seat = try TestSeat(client: client)
        manager = try client.bind(zwp_input_method_manager_v2_interface_ptr(), version: 1)
        inputMethod = try TestInputMethod(manager: manager, seat: seat.seat)
        client.roundtrip()
        self.client = client
    }

    /// Events since the last call, after a round trip.
    func events() -> [TestInputMethod.Event] {
        client.roundtrip()
        return inputMethod.takeEvents()
    }
}

/// zwp_text_input_v3 and zwp_input_method_v2: an input method types into the key window.
@Suite struct TextInputTests {
    static let keyA: UInt32 = 30

    // MARK: Focus

    @Test func textInputEntersTheKeyWindowsSurfaceAndLeavesItWhenAnotherClientBecomesKey() throws {
        let server = try TestServer()
        let app = try TextApp(server, x: 0)
        app.client.roundtrip()
        #expect(app.textInput.takeEvents() == [.enter(surface: app.surfaceID)])
        let other = try TextApp(server, x: 200)
        app.client.roundtrip()
        #expect(app.textInput.takeEvents() == [.leave(surface: app.surfaceID)])
        other.client.roundtrip()
        #expect(other.textInput.takeEvents() == [.enter(surface: other.surfaceID)])
    }

    @Test func aTextInputMadeWhileItsClientHasFocusIsEnteredAtOnce() throws {
        let server = try TestServer()
        let app = try TextApp(server, x: 0)
        let second = try TestTextInput(manager: app.manager, seat: app.seat.seat)
        app.client.roundtrip()
        #expect(second.takeEvents() == [.enter(surface: app.surfaceID)])
    }

    // MARK: Text input → input method

    @Test func enablingTheFocusedTextInputActivatesTheInputMethod() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let app = try TextApp(server, x: 0)
        #expect(im.events() == [])
        app.enable()
        #expect(im.events() == [.activate, .contentType(hint: 0, purpose: 0), .done])
    }

    @Test func theTextFieldsStateReachesTheInputMethodOnCommit() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let app = try TextApp(server, x: 0)
        let ti = app.textInput.textInput
        zwp_text_input_v3_enable(ti)
        zwp_text_input_v3_set_surrounding_text(ti, "some text", 2, 1)
        zwp_text_input_v3_set_text_change_cause(ti, ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_OTHER.rawValue)
        let hint =
            ZWP_TEXT_INPUT_V3_CONTENT_HINT_AUTO_CAPITALIZATION.rawValue
            | ZWP_TEXT_INPUT_V3_CONTENT_HINT_SENSITIVE_DATA.rawValue
        zwp_text_input_v3_set_content_type(ti, hint, ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_NAME.rawValue)
        app.textInput.commit()
        app.client.roundtrip()
        #expect(
            im.events() == [
                .activate, .surroundingText("some text", cursor: 2, anchor: 1),
                .textChangeCause(ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_OTHER.rawValue),
                .contentType(hint: hint, purpose: ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_NAME.rawValue), .done,
            ])
        // The next commit carries no surrounding text or cause (they describe one change); the
        // content type stays.
        app.textInput.commit()
        app.client.roundtrip()
        #expect(
            im.events() == [.contentType(hint: hint, purpose: ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_NAME.rawValue), .done])
    }

    @Test func aTextInputWithoutFocusDoesNotActivateTheInputMethod() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let background = try TextApp(server, x: 0)
        let key = try TextApp(server, x: 200)
        background.enable()
        #expect(im.events() == [])
        withExtendedLifetime(key) {}
    }

    @Test func disablingTheTextInputDeactivatesTheInputMethod() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let app = try TextApp(server, x: 0)
        app.enable()
        _ = im.events()
        app.textInput.disable()
        app.textInput.commit()
        app.client.roundtrip()
        #expect(im.events() == [.deactivate, .done])
    }

    @Test func enablingAgainReactivatesForTheNewField() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let app = try TextApp(server, x: 0)
        app.enable()
        _ = im.events()
        app.enable()
        #expect(im.events() == [.activate, .contentType(hint: 0, purpose: 0), .done])
    }

    @Test func anotherTextInputsEnableIsIgnoredWhileOneIsActive() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let app = try TextApp(server, x: 0)
        let second = try TestTextInput(manager: app.manager, seat: app.seat.seat)
        app.enable()
        _ = im.events()
        second.enable()
        second.commit()
        app.client.roundtrip()
        #expect(im.events() == [])
        im.inputMethod.commitString("x")
        im.inputMethod.commit()
        im.client.roundtrip()
        app.client.roundtrip()
        #expect(app.textInput.takeEvents().contains(.commitString("x")))
        #expect(!second.takeEvents().contains(.commitString("x")))
    }

    // MARK: Input method → text input

    @Test func committedTextReachesTheTextInputWithItsCommitCountAsSerial() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let app = try TextApp(server, x: 0)
        app.enable()
        app.textInput.commit()  // a second commit: the serial is 2
        app.client.roundtrip()
        _ = im.events()
        _ = app.textInput.takeEvents()
        im.inputMethod.commitString("some text")
        im.inputMethod.deleteSurroundingText(before: 1, after: 2)
        im.inputMethod.commit()
        im.client.roundtrip()
        app.client.roundtrip()
        #expect(
            app.textInput.takeEvents() == [
                .commitString("some text"), .deleteSurroundingText(before: 1, after: 2), .done(serial: 2),
            ])
    }

    @Test func preeditReachesTheTextInputAndTheNextCommitStartsEmpty() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let app = try TextApp(server, x: 0)
        app.enable()
        _ = im.events()
        _ = app.textInput.takeEvents()
        im.inputMethod.setPreedit("preedit", cursorBegin: 1, cursorEnd: 2)
        im.inputMethod.commit()
        im.inputMethod.commit()
        im.client.roundtrip()
        app.client.roundtrip()
        #expect(
            app.textInput.takeEvents() == [
                .preeditString("preedit", cursorBegin: 1, cursorEnd: 2), .done(serial: 1), .done(serial: 1),
            ])
    }

    @Test func anInactiveInputMethodsTextGoesNowhere() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let app = try TextApp(server, x: 0)
        _ = app.textInput.takeEvents()
        im.inputMethod.commitString("lost")
        im.inputMethod.commit()
        im.client.roundtrip()
        app.client.roundtrip()
        #expect(app.textInput.takeEvents() == [])
    }

    @Test func focusMovingToAnotherClientLeavesTheTextInputAndDeactivates() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let app = try TextApp(server, x: 0)
        app.enable()
        _ = im.events()
        _ = app.textInput.takeEvents()
        let other = try TextApp(server, x: 200)
        app.client.roundtrip()
        #expect(app.textInput.takeEvents() == [.leave(surface: app.surfaceID)])
        #expect(im.events() == [.deactivate, .done])
        withExtendedLifetime(other) {}
    }

    // MARK: One input method per seat

    @Test func aSecondInputMethodIsUnavailableAndInert() throws {
        let server = try TestServer()
        let first = try IMClient(server)
        let second = try IMClient(server)
        #expect(second.events() == [.unavailable])
        let app = try TextApp(server, x: 0)
        app.enable()
        #expect(second.events() == [])
        #expect(first.events() == [.activate, .contentType(hint: 0, purpose: 0), .done])
        second.inputMethod.commitString("ignored")
        second.inputMethod.commit()
        second.client.roundtrip()
        app.client.roundtrip()
        #expect(!app.textInput.takeEvents().contains(.commitString("ignored")))
    }

    @Test func whenTheInputMethodDiesTheNextOneServesTheEnabledField() throws {
        let server = try TestServer()
        var first: IMClient? = try IMClient(server)
        let app = try TextApp(server, x: 0)
        app.enable()
        _ = first?.events()
        first?.inputMethod.destroy()
        first?.client.roundtrip()
        first = nil
        let next = try IMClient(server)
        #expect(next.events() == [.activate, .contentType(hint: 0, purpose: 0), .done])
        next.inputMethod.commitString("again")
        next.inputMethod.commit()
        next.client.roundtrip()
        app.client.roundtrip()
        #expect(app.textInput.takeEvents().contains(.commitString("again")))
    }

    // MARK: Keyboard grab

    @Test func theKeyboardGrabReceivesKeysWhileATextInputIsEnabled() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let grab = try TestInputMethodKeyboardGrab(inputMethod: im.inputMethod)
        let app = try TextApp(server, x: 0)
        im.client.roundtrip()
        #expect(grab.keymapSize ?? 0 > 0)
        #expect(grab.repeatInfo != nil)
        let seat = server.compositor.seat!

        // No text input enabled: the key goes to the focused client.
        _ = app.seat.takeEvents()
        seat.key(Self.keyA, pressed: true, time: 1)
        seat.key(Self.keyA, pressed: false, time: 2)
        app.client.roundtrip()
        im.client.roundtrip()
        #expect(app.seat.takeEvents().filter { if case .key = $0 { true } else { false } }.count == 2)
        #expect(grab.keys.isEmpty)

        app.enable()
        seat.key(Self.keyA, pressed: true, time: 3)
        seat.key(Self.keyA, pressed: false, time: 4)
        app.client.roundtrip()
        im.client.roundtrip()
        #expect(app.seat.takeEvents().filter { if case .key = $0 { true } else { false } }.isEmpty)
        #expect(grab.keys.map(\.key) == [Self.keyA, Self.keyA])
        #expect(grab.keys.map(\.pressed) == [true, false])
    }

    @Test func aKeyPressedIntoTheGrabIsReleasedThereAfterTheFieldIsDisabled() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let grab = try TestInputMethodKeyboardGrab(inputMethod: im.inputMethod)
        im.client.roundtrip()
        let app = try TextApp(server, x: 0)
        app.enable()
        let seat = server.compositor.seat!
        seat.key(Self.keyA, pressed: true, time: 1)
        app.textInput.disable()
        app.textInput.commit()
        app.client.roundtrip()
        _ = app.seat.takeEvents()
        seat.key(Self.keyA, pressed: false, time: 2)
        app.client.roundtrip()
        im.client.roundtrip()
        #expect(grab.keys.map(\.pressed) == [true, false])
        #expect(app.seat.takeEvents().filter { if case .key = $0 { true } else { false } }.isEmpty)
    }

    @Test func aSecondKeyboardGrabIsAProtocolError() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let first = try TestInputMethodKeyboardGrab(inputMethod: im.inputMethod)
        let second = try TestInputMethodKeyboardGrab(inputMethod: im.inputMethod)
        #expect(!im.client.roundtrip())
        withExtendedLifetime((first, second)) {}
        #expect(im.client.protocolError?.interface == "zwp_input_method_v2")
    }

    @Test func aReleasedGrabLetsKeysThroughToTheClient() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let grab = try TestInputMethodKeyboardGrab(inputMethod: im.inputMethod)
        let app = try TextApp(server, x: 0)
        app.enable()
        grab.release()
        im.client.roundtrip()
        _ = app.seat.takeEvents()
        server.compositor.seat.key(Self.keyA, pressed: true, time: 1)
        app.client.roundtrip()
        #expect(app.seat.takeEvents().contains(.key(key: Self.keyA, pressed: true)))
    }

    // MARK: Popup surfaces

    @Test func thePopupIsShownUnderTheTextCursorAboveTheKeyWindow() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let popupSurface = try im.client.makeSurface(width: 30, height: 20, argb: 0xffff_0000)
        let popup = try TestInputPopupSurface(inputMethod: im.inputMethod, surface: popupSurface.surface)
        let app = try TextApp(server, x: 50, y: 60, argb: 0xff00_00ff)
        im.client.roundtrip()
        // Inactive: not shown.
        #expect(server.pixel(x: 65, y: 85) == 0xff00_00ff)
        let ti = app.textInput.textInput
        zwp_text_input_v3_enable(ti)
        zwp_text_input_v3_set_cursor_rectangle(ti, 10, 5, 2, 15)
        app.textInput.commit()
        app.client.roundtrip()
        im.client.roundtrip()
        // The cursor's bottom-left corner in the screen: (50 + 10, 60 + 5 + 15).
        #expect(server.pixel(x: 60, y: 80) == 0xffff_0000)
        #expect(server.pixel(x: 89, y: 99) == 0xffff_0000)
        #expect(server.pixel(x: 59, y: 80) == 0xff00_00ff)
        #expect(popup.rectangles.last.map { [$0.x, $0.y, $0.width, $0.height] } == [0, -15, 2, 15])
        #expect(server.windows.keyWindow === app.window)

        app.textInput.disable()
        app.textInput.commit()
        app.client.roundtrip()
        im.client.roundtrip()
        #expect(server.pixel(x: 60, y: 80) == 0xff00_00ff)
    }

    @Test func aPopupOfASurfaceWithAnotherRoleIsARoleError() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let surface = try im.client.makeSurface(width: 10, height: 10)
        _ = im.client.showPlainSurface(surface, x: 0, y: 0)
        let popup = try TestInputPopupSurface(inputMethod: im.inputMethod, surface: surface.surface)
        #expect(!im.client.roundtrip())
        #expect(im.client.protocolError?.interface == "zwp_input_method_v2")
        withExtendedLifetime(popup) {}
        #expect(im.client.protocolError?.code == 0)
    }

    @Test func aSecondPopupObjectOnALivePopupSurfaceIsARoleError() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let surface = try im.client.makeSurface(width: 10, height: 10)
        let first = try TestInputPopupSurface(inputMethod: im.inputMethod, surface: surface.surface)
        let second = try TestInputPopupSurface(inputMethod: im.inputMethod, surface: surface.surface)
        #expect(!im.client.roundtrip())
        withExtendedLifetime((first, second)) {}
        #expect(im.client.protocolError?.code == 0)
    }

    // MARK: Destroy orders

    @Test func theTextInputDyingWhileActiveDeactivatesTheInputMethod() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let app = try TextApp(server, x: 0)
        app.enable()
        _ = im.events()
        app.textInput.destroy()
        app.client.roundtrip()
        #expect(im.events() == [.deactivate, .done])
    }

    @Test func theFocusedSurfaceDyingDeactivatesTheInputMethod() throws {
        let server = try TestServer()
        let im = try IMClient(server)
        let app = try TextApp(server, x: 0)
        app.enable()
        _ = im.events()
        _ = app.textInput.takeEvents()
        wl_surface_destroy(app.surface.surface)
        app.client.roundtrip()
        #expect(im.events() == [.deactivate, .done])
        // No leave for a surface the client destroyed.
        #expect(app.textInput.takeEvents() == [])
    }

    @Test func theInputMethodDyingWithItsGrabAndPopupLeavesKeysWithTheClient() throws {
        let server = try TestServer()
        var im: IMClient? = try IMClient(server)
        let app = try TextApp(server, x: 0, argb: 0xff00_00ff)
        var objects: (TestInputPopupSurface, TestInputMethodKeyboardGrab)?
        defer { withExtendedLifetime(objects) {} }
        if let im {
            let popupSurface = try im.client.makeSurface(width: 30, height: 20, argb: 0xffff_0000)
            objects = (
                try TestInputPopupSurface(inputMethod: im.inputMethod, surface: popupSurface.surface),
                try TestInputMethodKeyboardGrab(inputMethod: im.inputMethod)
            )
            im.client.roundtrip()
        }
        app.enable()
        im?.client.roundtrip()
        #expect(server.pixel(x: 5, y: 5) == 0xffff_0000)
        // Disconnecting: the input method, its popup and its grab die in libwayland's order.
        im = nil
        server.step()
        #expect(server.pixel(x: 5, y: 5) == 0xff00_00ff)
        _ = app.seat.takeEvents()
        server.compositor.seat.key(Self.keyA, pressed: true, time: 1)
        app.client.roundtrip()
        #expect(app.seat.takeEvents().contains(.key(key: Self.keyA, pressed: true)))
    }

    @Test func everyObjectIsReleasedWhenTheClientsLeave() throws {
        let server = try TestServer()
        let baseline = server.liveCounts
        do {
            let im = try IMClient(server)
            let popupSurface = try im.client.makeSurface(width: 30, height: 20)
            let popup = try TestInputPopupSurface(inputMethod: im.inputMethod, surface: popupSurface.surface)
            let grab = try TestInputMethodKeyboardGrab(inputMethod: im.inputMethod)
            let app = try TextApp(server, x: 0)
            app.enable()
            im.inputMethod.commitString("x")
            im.inputMethod.commit()
            im.client.roundtrip()
            app.client.roundtrip()
            withExtendedLifetime((im, popup, grab)) {}
        }
        server.step()
        #expect(server.liveCounts == baseline, "\(server.liveCounts)")
    }

    // MARK: Privilege

    @Test func unprivilegedClientsDoNotSeeTheInputMethodManagerButSeeTextInput() throws {
        let server = try TestServer()
        server.compositor.clientPrivilege = .nobody
        let client = try TestClient(server: server)
        #expect(client.globals["zwp_input_method_manager_v2"] == nil)
        #expect(client.globals["zwp_text_input_manager_v3"] != nil)
    }
}
