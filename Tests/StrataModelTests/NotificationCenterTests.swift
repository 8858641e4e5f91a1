import Testing

@testable import StrataModel

@Suite struct NotificationCenterTests {
    @Test func observerRemovedDuringDeliveryIsNotCalledAgain() {
        let manager = makeManager()
        var laterCalls = 0
        var laterToken: ObserverToken?
        manager.notifications.addObserver { _ in
            if let token = laterToken { manager.notifications.removeObserver(token) }
        }
        laterToken = manager.notifications.addObserver { _ in laterCalls += 1 }
        manager.createWindow()
        #expect(laterCalls == 0)
        #expect(manager.notifications.observerCount == 1)
    }

    @Test func observerRemovingItselfDuringDeliveryStopsAndOthersContinue() {
        let manager = makeManager()
        var selfRemovingCalls = 0
        var otherCalls = 0
        var token: ObserverToken?
        token = manager.notifications.addObserver { _ in
            selfRemovingCalls += 1
            token?.remove()
        }
        manager.notifications.addObserver { _ in otherCalls += 1 }
        let window = manager.createWindow()
        manager.show(window)
        #expect(selfRemovingCalls == 1)
        #expect(otherCalls == 3)
    }

    @Test func observerAddedDuringDeliveryStartsWithTheNextNotification() {
        let manager = makeManager()
        var added: [String] = []
        var didAdd = false
        manager.notifications.addObserver { _ in
            guard !didAdd else { return }
            didAdd = true
            manager.notifications.addObserver { added.append($0.name) }
        }
        let window = manager.createWindow()
        #expect(added.isEmpty)
        manager.show(window)
        #expect(added == ["windowDidBecomeVisible", "windowDidBecomeKey"])
    }

    @Test func removingAnObserverTwiceIsHarmless() {
        let manager = makeManager()
        let token = manager.notifications.addObserver { _ in }
        manager.notifications.removeObserver(token)
        token.remove()
        #expect(manager.notifications.observerCount == 0)
    }

    @Test func notificationsPostedByAnObserverAreDeliveredAfterTheCurrentOneInOrder() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let b = manager.shownWindow(makeKey: false)
        var log: [PostedNotification] = []
        manager.notifications.addObserver { posted in
            // React to b becoming visible by making it key: a nested transaction.
            if case .windowDidBecomeVisible(let id) = posted.notification, id == b.id {
                manager.makeKey(b)
            }
        }
        manager.notifications.addObserver { log.append($0) }
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
}
