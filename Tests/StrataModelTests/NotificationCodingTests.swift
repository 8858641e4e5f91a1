import Foundation
import Testing

@testable import StrataModel

@Suite struct NotificationCodingTests {
    static let samples: [WindowServerNotification] = [
        .windowDidOpen(WindowID(1)), .windowDidClose(WindowID(2)),
        .windowDidBecomeVisible(WindowID(3)), .windowDidBecomeHidden(WindowID(4)),
        .windowDidBecomeKey(WindowID(5)), .windowDidResignKey(WindowID(6)),
        .windowDidChangeLevel(WindowID(7), from: .normal, to: WindowLevel(rawValue: 1500)),
        .windowDidChangeStacking(WindowID(8)),
        .windowDidMoveToScreen(WindowID(9), from: ScreenID(1), to: ScreenID(2)),
        .windowDidMoveToScreen(WindowID(9), from: nil, to: ScreenID(2)),
        .windowDidChangeFrame(
            WindowID(10), from: .zero, to: Rect(x: -1, y: 2, width: 3, height: 4)),
        .screenDidConnect(ScreenID(1)), .screenDidDisconnect(ScreenID(2)),
        .screenModeDidChange(ScreenID(3)), .screenDidChangeTransform(ScreenID(4)),
        .screenDidChangeScale(ScreenID(5)), .screenDidChangeBrightness(ScreenID(6)),
        .screenDidMove(ScreenID(7)), .screenDidChangeUsableArea(ScreenID(8)),
        .screenDidChangeMirroring(ScreenID(9), true), .screenDidChangeOverscan(ScreenID(10)),
        .sessionDidLock, .sessionDidUnlock,
        .windowDidChangeParent(WindowID(11), from: nil, to: WindowID(12)),
        .windowDidChangeParent(WindowID(11), from: WindowID(12), to: nil),
        .windowDidChangeModal(WindowID(13), true),
        .windowDidChangeTitle(WindowID(14)), .windowDidChangeAppID(WindowID(15)),
        .windowDidChangePID(WindowID(16)),
        .windowDidChangeMaximized(WindowID(17), true), .windowDidChangeFullscreen(WindowID(17), false),
        .windowDidChangeMinimized(WindowID(18), true),
        .policyDidFallBack(WindowID(19), question: 7, kind: "click", reason: "deadline"),
        .keyRequestWasRefused(WindowID(19)),
        .policyDelegateDidChange(decisions: "key,placement"),
    ]

    @Test func everyCaseHasADistinctNameFromTheList() {
        let names = Self.samples.map(\.name)
        #expect(Set(names) == Set(WindowServerNotification.allNames))
        #expect(WindowServerNotification.allNames.count == Set(WindowServerNotification.allNames).count)
    }

    @Test(arguments: samples)
    func notificationRoundTripsThroughJSON(notification: WindowServerNotification) throws {
        let posted = PostedNotification(sequence: 42, notification: notification)
        let data = try JSONEncoder().encode(posted)
        let decoded = try JSONDecoder().decode(PostedNotification.self, from: data)
        #expect(decoded == posted)
    }

    @Test func levelChangeEncodesAsAFlatObjectWithLevelNames() throws {
        let posted = PostedNotification(
            sequence: 3, notification: .windowDidChangeLevel(WindowID(7), from: .normal, to: .alert))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(posted), as: UTF8.self)
        #expect(
            json == #"{"from":"normal","name":"windowDidChangeLevel","sequence":3,"to":"alert","window":7}"#)
    }

    @Test func payloadIsAFlatStringDictionary() {
        let posted = PostedNotification(
            sequence: 9, notification: .screenDidChangeMirroring(ScreenID(2), false))
        #expect(
            posted.payload == [
                "name": "screenDidChangeMirroring", "screen": "2", "isMirroring": "false", "sequence": "9",
            ])
        #expect(posted.name == "screenDidChangeMirroring")
        #expect(
            WindowServerNotification.windowDidMoveToScreen(WindowID(1), from: nil, to: ScreenID(4))
                .payload == ["name": "windowDidMoveToScreen", "window": "1", "to": "4"])
    }

    @Test func unknownNotificationNameFailsToDecode() {
        let data = Data(#"{"name":"windowDidExplode","window":1,"sequence":1}"#.utf8)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(PostedNotification.self, from: data)
        }
    }

    @Test func subjectIdsAreExposed() {
        #expect(WindowServerNotification.windowDidBecomeKey(WindowID(3)).windowID == WindowID(3))
        #expect(WindowServerNotification.windowDidBecomeKey(WindowID(3)).screenID == nil)
        #expect(WindowServerNotification.screenDidConnect(ScreenID(2)).screenID == ScreenID(2))
        #expect(
            WindowServerNotification.windowDidMoveToScreen(WindowID(1), from: nil, to: ScreenID(5))
                .screenID == ScreenID(5))
    }
}
