import Testing

@testable import StrataModel

@Suite struct NotificationCenterTests {
    @Test func observerRemovedDuringDeliveryIsNotCalledAgain() {
        let manager = makeManager()
        var laterCalls = 0
        var laterToken: ObserverToken?
        manager.notifications.addObserver(phase: .wire) { _ in
            if let token = laterToken { manager.notifications.removeObserver(token) }
        }
        laterToken = manager.notifications.addObserver(phase: .wire) { _ in laterCalls += 1 }
        manager.createWindow()
        #expect(laterCalls == 0)
        #expect(manager.notifications.observerCount == 1)
    }

    @Test func observerRemovingItselfDuringDeliveryStopsAndOthersContinue() {
        let manager = makeManager()
        var selfRemovingCalls = 0
        var otherCalls = 0
        var token: ObserverToken?
        token = manager.notifications.addObserver(phase: .wire) { _ in
            selfRemovingCalls += 1
            token?.remove()
        }
        manager.notifications.addObserver(phase: .wire) { _ in otherCalls += 1 }
        let window = manager.createWindow()
        manager.show(window)
        #expect(selfRemovingCalls == 1)
        #expect(otherCalls == 3)
    }

    @Test func observerAddedDuringDeliveryStartsWithTheNextNotification() {
        let manager = makeManager()
        var added: [String] = []
        var didAdd = false
        manager.notifications.addObserver(phase: .wire) { _ in
            guard !didAdd else { return }
            didAdd = true
            manager.notifications.addObserver(phase: .wire) { added.append($0.name) }
        }
        let window = manager.createWindow()
        #expect(added.isEmpty)
        manager.show(window)
        #expect(added == ["windowDidBecomeVisible", "windowDidBecomeKey"])
    }

    @Test func removingAnObserverTwiceIsHarmless() {
        let manager = makeManager()
        let token = manager.notifications.addObserver(phase: .wire) { _ in }
        manager.notifications.removeObserver(token)
        token.remove()
        #expect(manager.notifications.observerCount == 0)
    }

    @Test func notificationsPostedByAnObserverAreDeliveredAfterTheCurrentOneInOrder() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let b = manager.shownWindow(makeKey: false)
        var log: [PostedNotification] = []
        manager.notifications.addObserver(phase: .wire) { posted in
            // React to b becoming visible by making it key: a nested transaction.
            if case .windowDidBecomeVisible(let id) = posted.notification, id == b.id {
                manager.makeKey(b)
            }
        }
        manager.notifications.addObserver(phase: .wire) { log.append($0) }
        manager.hide(b)
        log.removeAll()
        manager.show(b, makeKey: false)
        #expect(
            log.map(\.notification) == [
                .windowDidBecomeVisible(b.id), .windowDidResignKey(a.id), .windowDidBecomeKey(b.id),
            ])
        #expect(log.map(\.sequence) == log.map(\.sequence).sorted())
        #expect(Set(log.map(\.sequence)).count == log.count)
    }

    @Test func observersRunByPhaseThenRegistrationOrderWhateverTheOrderTheyWereAdded() {
        let manager = makeManager()
        var calls: [String] = []
        // Registered latest phase first, and two per phase interleaved.
        for phase in ObserverPhase.allCases.reversed() {
            manager.notifications.addObserver(phase: phase) { _ in calls.append("\(phase) 1") }
        }
        for phase in ObserverPhase.allCases.reversed() {
            manager.notifications.addObserver(phase: phase) { _ in calls.append("\(phase) 2") }
        }
        manager.createWindow()
        #expect(
            calls == ["scene 1", "scene 2", "wire 1", "wire 2", "tools 1", "tools 2", "recording 1", "recording 2"])
    }

    @Test func anObserverAddedDuringDeliveryToAnEarlierPhaseStartsWithTheNextNotification() {
        let manager = makeManager()
        var sceneCalls = 0
        var didAdd = false
        manager.notifications.addObserver(phase: .recording) { _ in
            guard !didAdd else { return }
            didAdd = true
            manager.notifications.addObserver(phase: .scene) { _ in sceneCalls += 1 }
        }
        let window = manager.createWindow()
        #expect(sceneCalls == 0)
        manager.show(window)
        #expect(sceneCalls == 2)
    }
}
