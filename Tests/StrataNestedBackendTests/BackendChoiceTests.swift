import StrataModel
import StrataNestedBackends
import StrataServer
import Testing

@Suite struct BackendChoiceTests {
    @Test func waylandDisplayWinsOverDisplayAndNothingMeansHeadless() {
        #expect(
            BackendChoice.automaticName(environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"]) == "wayland")
        #expect(BackendChoice.automaticName(environment: ["DISPLAY": ":0"]) == "x11")
        #expect(BackendChoice.automaticName(environment: ["WAYLAND_DISPLAY": "", "DISPLAY": ""]) == "headless")
        #expect(BackendChoice.automaticName(environment: [:]) == "headless")
    }

    @Test func explicitHeadlessIgnoresTheSession() throws {
        let backend = try BackendChoice.make(
            name: "headless", environment: ["WAYLAND_DISPLAY": "nowhere"], screens: 2,
            modes: [ScreenMode(width: 320, height: 200)])
        #expect(backend is HeadlessBackend)
        #expect(backend.name == "headless")
    }

    @Test func unknownBackendNamesTheChoices() {
        #expect {
            try BackendChoice.make(name: "drm", environment: [:], modes: [])
        } throws: { error in
            let error = error as? NestedBackendError
            return error?.reason == .unknownBackend
                && error?.description == "--backend drm: unknown backend; use one of headless, wayland, x11"
        }
    }

    @Test func nestedBackendsWithoutTheirSessionSaySo() {
        #expect {
            try BackendChoice.make(name: "wayland", environment: ["DISPLAY": ":0"], modes: [])
        } throws: { error in
            (error as? NestedBackendError)?.description
                == "--backend wayland: WAYLAND_DISPLAY is not set: there is no parent Wayland session to connect to"
        }
        #expect {
            try BackendChoice.make(name: "x11", environment: [:], modes: [])
        } throws: { error in
            (error as? NestedBackendError)?.reason == .notInSession
        }
    }

    @Test func aParentThatIsNotThereIsAClearError() {
        #expect {
            try BackendChoice.make(
                name: nil, environment: ["WAYLAND_DISPLAY": "/nonexistent/strata-test-socket"], modes: [])
        } throws: { error in
            let error = error as? NestedBackendError
            return error?.reason == .cannotConnect
                && error?.description.hasPrefix(
                    "nested in the Wayland session (WAYLAND_DISPLAY is set; --backend chooses another): cannot connect to the parent compositor at WAYLAND_DISPLAY=/nonexistent/strata-test-socket: "
                ) == true
        }
        #expect {
            try BackendChoice.make(name: "x11", environment: ["DISPLAY": ":987"], modes: [])
        } throws: { error in
            (error as? NestedBackendError)?.description.hasPrefix(
                "--backend x11: cannot connect to the X server at DISPLAY=:987") == true
        }
    }
}
