import StrataTestRandom
import Testing

@testable import StrataModel

/// Random sequences of operations, checking the model's invariants and that each operation's
/// notifications match exactly what changed.
@Suite struct PropertyTests {
    static let seeds: [UInt64] = [1, 2, 3, 42, 2024, 0xDEAD_BEEF]
    static let steps = 2_000

    @Test(arguments: seeds)
    func randomOperationsKeepInvariantsAndPostExactlyWhatChanged(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let manager = WindowManager()
        var allWindows: [WindowID: Window] = [:]
        var allScreens: [ScreenID: Screen] = [:]
        var screenNumber = 0
        let recorder = NotificationRecorder(manager)
        var maxWindowID: UInt64 = 0
        var keyChanges = 0

        for step in 0..<Self.steps {
            let operation = RandomOperation.random(
                for: manager,
                staleWindows: allWindows.values.filter(\.isClosed).map(\.id),
                staleScreens: allScreens.values.filter { !$0.isConnected }.map(\.id), using: &rng)
            let before = ModelSnapshot(manager)
            var expectedKey: WindowID?? = .none  // .none: no expectation
            var expectedStackingMove: WindowID?  // window that may have moved in its level
            var raised: (WindowID, front: Bool)?  // where it must be afterwards

            switch operation {
            case .create(let pid, let level, let canBecomeKey, let screenID):
                let window = manager.createWindow(
                    appID: "app\(pid)", pid: pid, level: level, canBecomeKey: canBecomeKey,
                    screen: screenID.flatMap { allScreens[$0] })
                allWindows[window.id] = window
                if window.id.rawValue <= maxWindowID {
                    Issue.record("seed \(seed) step \(step): window id \(window.id) was not new")
                }
                maxWindowID = window.id.rawValue
                expectedKey = .some(before.key)
                raised = (window.id, true)
            case .show(let id, let makeKey):
                guard let window = allWindows[id] else { break }
                manager.show(window, makeKey: makeKey)
                if !window.isClosed {
                    let eligible = window.canBecomeKey && window.screen != nil
                    expectedKey = .some(makeKey && eligible ? id : before.key)
                    expectedStackingMove = before.visible.contains(id) ? id : nil
                    raised = (id, true)
                }
            case .hide(let id):
                guard let window = allWindows[id] else { break }
                manager.hide(window)
                expectedKey = .some(before.key == id ? before.expectedSuccessor(afterLosing: id) : before.key)
            case .close(let id):
                guard let window = allWindows[id] else { break }
                manager.close(window)
                expectedKey = .some(before.key == id ? before.expectedSuccessor(afterLosing: id) : before.key)
            case .makeKey(let id):
                guard let window = allWindows[id] else { break }
                let accepted = manager.makeKey(window)
                if accepted != before.isEligibleForKey(id) {
                    Issue.record("seed \(seed) step \(step): makeKey(\(id)) returned \(accepted)")
                }
                expectedKey = .some(accepted ? id : before.key)
            case .resignKey:
                manager.resignKey()
                expectedKey = .some(nil)
            case .setLevel(let id, let level):
                guard let window = allWindows[id] else { break }
                manager.setLevel(window, level)
                expectedKey = .some(before.key)
                if before.windows[id]?.level != level, before.windows[id] != nil { raised = (id, true) }
            case .orderFront(let id):
                guard let window = allWindows[id] else { break }
                manager.orderFront(window)
                expectedKey = .some(before.key)
                expectedStackingMove = id
                if before.windows[id] != nil { raised = (id, true) }
            case .orderBack(let id):
                guard let window = allWindows[id] else { break }
                manager.orderBack(window)
                expectedKey = .some(before.key)
                expectedStackingMove = id
                if before.windows[id] != nil { raised = (id, false) }
            case .click(let id):
                guard let window = allWindows[id] else { break }
                manager.pointerDidClick(window)
                let takesKey = before.policyName != "explicit" && before.isEligibleForKey(id)
                expectedKey = .some(takesKey ? id : before.key)
                if before.policyName == "click-to-focus", before.visible.contains(id) {
                    expectedStackingMove = id
                    raised = (id, true)
                }
            case .enter(let id):
                guard let window = allWindows[id] else { break }
                manager.pointerDidEnter(window)
                let takesKey = before.policyName == "focus-follows-pointer" && before.isEligibleForKey(id)
                expectedKey = .some(takesKey ? id : before.key)
            case .connectScreen:
                screenNumber += 1
                let modes = [mode1080, mode720, mode4K].shuffled(using: &rng)
                let screen = manager.connectScreen(
                    name: "R\(screenNumber)", modes: modes, scale: Double(Int.random(in: 1...2, using: &rng)))
                allScreens[screen.id] = screen
                expectedKey = .some(before.key)
            case .disconnectScreen(let id):
                guard let screen = allScreens[id] else { break }
                manager.disconnectScreen(screen)
                let lastOne = before.screens == [id]
                expectedKey = .some(lastOne ? nil : before.key)
            case .switchPolicy(let name):
                if let policy = KeyWindowPolicies.named(name) { manager.policy = policy }
                expectedKey = .some(before.key)
            case .move(let windowID, let screenID):
                guard let window = allWindows[windowID], let screen = allScreens[screenID] else { break }
                let accepted = manager.move(window, to: screen)
                if accepted != (before.windows[windowID] != nil && before.screens.contains(screenID)) {
                    Issue.record("seed \(seed) step \(step): move returned \(accepted)")
                }
                expectedKey = .some(before.key)
            case .setCanBecomeKey(let id, let on):
                guard let window = allWindows[id] else { break }
                manager.setCanBecomeKey(window, on)
                let losesKey = before.key == id && !on
                expectedKey = .some(losesKey ? before.expectedSuccessor(afterLosing: id) : before.key)
            case .setFrame(let id, let rect):
                guard let window = allWindows[id] else { break }
                manager.setFrame(window, rect)
                expectedKey = .some(before.key)
                if before.windows[id] != nil {
                    let clean = Rect(
                        x: rect.x, y: rect.y, width: max(0, rect.width), height: max(0, rect.height))
                    if window.frame != clean {
                        Issue.record("seed \(seed) step \(step): frame \(window.frame)")
                    }
                }
            case .setMirroring(let id, let on):
                guard let screen = allScreens[id] else { break }
                manager.setMirroring(on, for: screen)
                expectedKey = .some(before.key)
            }

            let after = ModelSnapshot(manager)
            let posted = recorder.posted
            _ = recorder.take()
            if before.key != after.key { keyChanges += 1 }

            var problems = Self.invariantProblems(manager)
            problems += Self.notificationProblems(before: before, after: after, posted: posted)
            if case .some(let key) = expectedKey, key != after.key {
                problems.append(
                    "key is \(after.key.map { "\($0)" } ?? "nil"), expected \(key.map { "\($0)" } ?? "nil")")
            }
            problems += Self.stackingProblems(
                before: before, after: after, posted: posted.map(\.notification),
                mayMove: expectedStackingMove, placed: raised)
            if !problems.isEmpty {
                let details = problems.joined(separator: "\n  ")
                let notifications = posted.map { "\($0.notification)" }.joined(separator: ", ")
                Issue.record(
                    "seed \(seed) step \(step) \(operation):\n  \(details)\n  posted: \(notifications)")
                return
            }
        }
        // The run must have exercised the interesting paths, or it proves little.
        #expect(keyChanges > 100)
        #expect(maxWindowID > 100)
        #expect(manager.notifications.lastSequence > 2_000)
    }

    /// Invariants that must hold after every operation.
    static func invariantProblems(_ manager: WindowManager) -> [String] {
        var problems: [String] = []
        let keyed = manager.windows.filter(\.isKeyWindow)
        if keyed.count > 1 { problems.append("\(keyed.count) key windows") }
        if let key = manager.keyWindow {
            if keyed.count != 1 || keyed.first !== key {
                problems.append("keyWindow disagrees with isKeyWindow")
            }
            if key.isHidden { problems.append("key window \(key.id) is hidden") }
            if !key.canBecomeKey { problems.append("key window \(key.id) cannot become key") }
            if key.isClosed { problems.append("key window \(key.id) is closed") }
            if !manager.screens.contains(where: { $0 === key.screen }) {
                problems.append("key window \(key.id) is not on a connected screen")
            }
        } else if !keyed.isEmpty {
            problems.append("a window claims key but keyWindow is nil")
        }
        let levels = manager.windows.map(\.level)
        if levels != levels.sorted() { problems.append("windows not sorted by level: \(levels.map(\.name))") }
        if Set(manager.windows.map(\.id)).count != manager.windows.count {
            problems.append("duplicate window")
        }
        for window in manager.windows {
            if window.isClosed { problems.append("closed window \(window.id) still listed") }
            if manager.screens.isEmpty {
                if window.screen != nil { problems.append("\(window.id) has a screen but none is connected") }
            } else if !manager.screens.contains(where: { $0 === window.screen }) {
                problems.append("\(window.id) is not on a connected screen")
            }
        }
        if manager.mainScreen !== manager.screens.first { problems.append("main is not screens[0]") }
        for (index, screen) in manager.screens.enumerated() {
            let occupied = manager.windows.contains { !$0.isHidden && $0.screen === screen }
            let expected = index != 0 && screen.mirrorsWhenEmpty && !occupied
            if screen.isMirroring != expected { problems.append("\(screen.id) isMirroring wrong") }
            if !screen.isConnected { problems.append("\(screen.id) listed but disconnected") }
        }
        return problems
    }

    /// Whether the notifications posted by one operation are exactly the changes between the
    /// snapshots, each once, in the documented order.
    static func notificationProblems(
        before: ModelSnapshot, after: ModelSnapshot, posted: [PostedNotification]
    ) -> [String] {
        var problems: [String] = []
        let sequences = posted.map(\.sequence)
        let expectedSequences = Array(
            before.lastSequence + 1..<before.lastSequence + 1 + UInt64(posted.count))
        if sequences != expectedSequences { problems.append("sequence numbers \(sequences)") }
        if after.lastSequence != before.lastSequence + UInt64(posted.count) {
            problems.append("posted notifications not all delivered")
        }
        let list = posted.map(\.notification)
        var expected: [WindowServerNotification] = []

        if before.key != after.key {
            if let old = before.key { expected.append(.windowDidResignKey(old)) }
            if let new = after.key { expected.append(.windowDidBecomeKey(new)) }
        }
        let allIDs = Set(before.windows.keys).union(after.windows.keys)
        for id in allIDs {
            let old = before.windows[id]
            let new = after.windows[id]
            if old == nil, new != nil { expected.append(.windowDidOpen(id)) }
            if old != nil, new == nil { expected.append(.windowDidClose(id)) }
            let wasVisible = old?.isVisible ?? false
            let isVisible = new?.isVisible ?? false
            if !wasVisible, isVisible { expected.append(.windowDidBecomeVisible(id)) }
            if wasVisible, !isVisible { expected.append(.windowDidBecomeHidden(id)) }
            if let old, let new {
                if old.level != new.level {
                    expected.append(.windowDidChangeLevel(id, from: old.level, to: new.level))
                }
                if old.screen != new.screen, let to = new.screen {
                    expected.append(.windowDidMoveToScreen(id, from: old.screen, to: to))
                }
                if old.frame != new.frame {
                    expected.append(.windowDidChangeFrame(id, from: old.frame, to: new.frame))
                }
            }
        }
        for id in after.screens where !before.screens.contains(id) { expected.append(.screenDidConnect(id)) }
        for id in before.screens where !after.screens.contains(id) {
            expected.append(.screenDidDisconnect(id))
        }
        for id in after.screens {
            let was = before.mirroring[id] ?? false
            let now = after.mirroring[id] ?? false
            if was != now { expected.append(.screenDidChangeMirroring(id, now)) }
        }

        let withoutStacking = list.filter { $0.name != "windowDidChangeStacking" }
        for notification in expected {
            let count = withoutStacking.filter { $0 == notification }.count
            if count != 1 { problems.append("\(notification) posted \(count) times, expected once") }
        }
        for notification in withoutStacking where !expected.contains(notification) {
            problems.append("unexpected \(notification)")
        }

        // Order: resign before become; resign and hidden of the old key before become of the new;
        // visible before become; hidden before close.
        func index(_ n: WindowServerNotification) -> Int? { list.firstIndex(of: n) }
        if let old = before.key, let new = after.key, old != new,
            let r = index(.windowDidResignKey(old)), let b = index(.windowDidBecomeKey(new)), r > b
        {
            problems.append("become key posted before resign key")
        }
        if let old = before.key, let r = index(.windowDidResignKey(old)),
            let h = index(.windowDidBecomeHidden(old)), h < r
        {
            problems.append("hidden posted before resign of the key window")
        }
        if let old = before.key, let new = after.key, let h = index(.windowDidBecomeHidden(old)),
            let b = index(.windowDidBecomeKey(new)), b < h
        {
            problems.append("successor became key before the old key window was hidden")
        }
        if let new = after.key, let v = index(.windowDidBecomeVisible(new)),
            let b = index(.windowDidBecomeKey(new)), b < v
        {
            problems.append("became key before becoming visible")
        }
        for id in allIDs {
            if let h = index(.windowDidBecomeHidden(id)), let c = index(.windowDidClose(id)), c < h {
                problems.append("\(id) closed before hidden")
            }
        }
        return problems
    }

    /// Other windows keep their relative order; the moved window lands at the front or back of
    /// its level; `windowDidChangeStacking` is posted exactly when an order operation moved it.
    static func stackingProblems(
        before: ModelSnapshot, after: ModelSnapshot, posted: [WindowServerNotification],
        mayMove: WindowID?, placed: (WindowID, front: Bool)?
    ) -> [String] {
        var problems: [String] = []
        let movedID = placed?.0
        let survivors = Set(after.order)
        let othersBefore = before.order.filter { $0 != movedID && survivors.contains($0) }
        let othersAfter = after.order.filter { $0 != movedID && before.windows[$0] != nil }
        if othersBefore != othersAfter { problems.append("other windows changed relative order") }
        if let (id, front) = placed, let level = after.windows[id]?.level {
            let sameLevel = after.order.filter { after.windows[$0]?.level == level }
            if (front ? sameLevel.last : sameLevel.first) != id {
                problems.append("\(id) is not at the \(front ? "front" : "back") of its level")
            }
        }
        let stackingPosts = posted.filter { $0.name == "windowDidChangeStacking" }
        let orderChanged =
            before.order.filter(survivors.contains) != after.order.filter { before.windows[$0] != nil }
        if let mayMove, orderChanged {
            if stackingPosts != [.windowDidChangeStacking(mayMove)] {
                problems.append("expected one windowDidChangeStacking(\(mayMove)), got \(stackingPosts)")
            }
        } else if !stackingPosts.isEmpty {
            problems.append("unexpected \(stackingPosts)")
        }
        return problems
    }
}
