import Testing

@testable import StrataModel

@Suite struct WindowTests {
    @Test func newWindowIsHiddenOnTheMainScreenWithAnEmptyFrameAndItsAttributes() {
        let manager = makeManager(screens: 2)
        let window = manager.createWindow(
            appID: "org.example.App", title: "Hello", pid: 42, level: .alert, canBecomeKey: false)
        #expect(window.isHidden)
        #expect(!window.isKeyWindow)
        #expect(window.screen === manager.mainScreen)
        #expect(window.frame == Rect(x: 0, y: 0, width: 0, height: 0))
        #expect(window.appID == "org.example.App")
        #expect(window.title == "Hello")
        #expect(window.pid == 42)
        #expect(window.level == .alert)
        #expect(!window.canBecomeKey)
        #expect(manager.createWindow(screen: manager.screens[1]).screen === manager.screens[1])
    }

    @Test func aTitleOrAppIDChangePostsOneNotificationOnlyWhenItChangesOnceShown() {
        let manager = makeManager()
        let window = manager.createWindow(appID: "a", title: "first")
        let recorder = NotificationRecorder(manager)
        manager.setTitle(window, "named before it shows")
        manager.setAppID(window, "also before")
        #expect(recorder.take() == [])
        #expect((window.title, window.appID) == ("named before it shows", "also before"))
        manager.show(window, makeKey: false)
        _ = recorder.take()
        manager.setTitle(window, "second")
        manager.setTitle(window, "second")
        manager.setAppID(window, "b")
        manager.setAppID(window, "b")
        #expect(recorder.take() == [.windowDidChangeTitle(window.id), .windowDidChangeAppID(window.id)])
        #expect((window.title, window.appID) == ("second", "b"))
        // A minimized or hidden window is still listed by taskbars: its changes are posted.
        manager.minimize(window)
        _ = recorder.take()
        manager.setTitle(window, "minimized")
        manager.setAppID(window, "c")
        #expect(recorder.take() == [.windowDidChangeTitle(window.id), .windowDidChangeAppID(window.id)])
        manager.show(window, makeKey: false)
        manager.hide(window)
        _ = recorder.take()
        manager.setTitle(window, "hidden")
        #expect(recorder.take() == [.windowDidChangeTitle(window.id)])
        manager.close(window)
        _ = recorder.take()
        manager.setTitle(window, "closed")
        #expect(recorder.take() == [])
    }

    @Test func windowIdsAreAllocatedInOrderAndNeverReused() {
        let manager = makeManager()
        let a = manager.createWindow()
        manager.close(a)
        let b = manager.createWindow()
        #expect(a.id == WindowID(1))
        #expect(b.id == WindowID(2))
    }

    @Test func forwardingMethodsGoThroughTheManager() {
        let manager = makeManager()
        let a = manager.createWindow()
        let b = manager.createWindow()
        let recorder = NotificationRecorder(manager)
        a.makeKeyAndVisible()
        b.makeKeyAndVisible()
        #expect(manager.stackingIDs == [a.id, b.id])
        a.orderFront()
        #expect(manager.stackingIDs == [b.id, a.id])
        a.orderBack()
        #expect(manager.stackingIDs == [a.id, b.id])
        #expect(a.makeKey())
        a.resignKey()
        #expect(manager.keyWindow == nil)
        #expect(
            recorder.takeNames() == [
                "windowDidBecomeVisible", "windowDidBecomeKey", "windowDidBecomeVisible",
                "windowDidResignKey", "windowDidBecomeKey", "windowDidChangeStacking",
                "windowDidChangeStacking", "windowDidResignKey", "windowDidBecomeKey",
                "windowDidResignKey",
            ])
    }

    @Test func contentIsHeldWeakly() {
        final class Surface {}
        final class Content: WindowContentHandle {
            var rootSurface: Surface? { nil }
        }
        let manager = makeManager()
        let window = manager.createWindow()
        var content: Content? = Content()
        window.content = content
        #expect(window.content === content)
        content = nil
        #expect(window.content == nil)
    }

    @Test func contentHooksDefaultToTheRootSurfaceAndToNothingElse() {
        final class Surface {}
        final class Content: WindowContentHandle {
            var root: Surface?
            var rootSurface: Surface? { root }
        }
        let content = Content()
        var seen: [Surface] = []
        content.forEachRootSurface { seen.append($0) }
        #expect(seen.isEmpty && !content.hasContentToShow)
        let surface = Surface()
        content.root = surface
        content.forEachRootSurface { seen.append($0) }
        #expect(seen.count == 1 && seen[0] === surface && content.hasContentToShow)
        // The hooks a content does not implement do nothing (and do not trap).
        let window = makeManager().shownWindow(frame: Rect(x: 1, y: 2, width: 3, height: 4))
        window.content = content
        window.content?.handleMaximizeRequest(true)
        window.content?.handleFullscreenRequest(true, on: nil)
        window.content?.screenDidChangeUsableArea()
        window.content?.screenDidChangeGeometry()
        window.content?.rootSurfaceDidCommitOffset(dx: .max, dy: .min)
        window.content?.windowDidChangeKeyState(isKey: false)
        window.content?.closeRequest()
        #expect(window.frame == Rect(x: 1, y: 2, width: 3, height: 4) && !window.isClosed)
        #expect(window.content?.rootSurface === surface)
    }

    @Test func movingWithinTheSameScreenWithAnOriginPostsOnlyAFrameChange() {
        let manager = makeManager()
        let window = manager.shownWindow(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let recorder = NotificationRecorder(manager)
        #expect(manager.move(window, to: manager.screens[0], origin: Point(x: 5, y: 6)))
        #expect(
            recorder.take() == [
                .windowDidChangeFrame(
                    window.id, from: Rect(x: 0, y: 0, width: 10, height: 10),
                    to: Rect(x: 5, y: 6, width: 10, height: 10))
            ])
    }

    @Test func negativeFrameSizesBecomeZeroAndHugeCoordinatesAreClamped() {
        let manager = makeManager()
        let window = manager.createWindow()
        manager.setFrame(window, Rect(x: Int.max, y: Int.min, width: -5, height: Int.max))
        let limit = Int(Coordinate.limit)
        #expect(window.frame == Rect(x: limit, y: -limit, width: 0, height: limit))
        #expect(!window.frame.contains(Point(x: 0, y: 0)))
    }

    @Test func closedWindowIsInert() {
        let manager = makeManager()
        let window = manager.shownWindow()
        manager.close(window)
        #expect(window.isClosed)
        #expect(window.isHidden)
        #expect(!window.isKeyWindow)
        #expect(window.screen == nil)
        #expect(!window.makeKey())
        window.makeKeyAndVisible()
        window.orderFront()
        #expect(window.isHidden)
        #expect(manager.windows.isEmpty)
    }
}
