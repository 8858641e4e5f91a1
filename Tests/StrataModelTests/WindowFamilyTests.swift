import Testing

@testable import StrataModel

/// A window's descendants (`Window.parent` chains) move with it in the stack: ordered front or
/// back, they stay directly above it, within the rules of levels (`WindowFamily`).
@Suite struct WindowFamilyTests {
    /// parent, its child, the child's child, and another window in front of them all.
    private func family(_ manager: WindowManager) -> (parent: Window, child: Window, grandchild: Window, other: Window)
    {
        let parent = manager.shownWindow()
        let child = manager.shownWindow()
        let grandchild = manager.shownWindow()
        manager.setParent(child, parent)
        manager.setParent(grandchild, child)
        let other = manager.shownWindow()
        return (parent, child, grandchild, other)
    }

    @Test func orderingAParentFrontBringsItsChildrenDirectlyAboveIt() {
        let manager = makeManager()
        let (parent, child, grandchild, other) = family(manager)
        let recorder = NotificationRecorder(manager)
        manager.orderFront(parent)
        #expect(manager.stackingIDs == [other.id, parent.id, child.id, grandchild.id])
        #expect(
            recorder.take() == [
                .windowDidChangeStacking(parent.id), .windowDidChangeStacking(child.id),
                .windowDidChangeStacking(grandchild.id),
            ])
        // Already in front with its children: nothing moves, nothing is posted.
        manager.orderFront(parent)
        #expect(recorder.take() == [])
    }

    @Test func aParentIsNeverOrderedOverItsOwnChild() {
        let manager = makeManager()
        let parent = manager.shownWindow()
        let dialog = manager.shownWindow()
        manager.setParent(dialog, parent)
        let recorder = NotificationRecorder(manager)
        // The parent is behind its dialog already: ordering it front moves nothing.
        manager.orderFront(parent)
        #expect(manager.stackingIDs == [parent.id, dialog.id])
        #expect(recorder.take() == [])
        manager.show(parent)
        #expect(manager.stackingIDs == [parent.id, dialog.id])
        #expect(parent.isKeyWindow)
    }

    @Test func orderingAParentBackTakesItsChildrenWithItStillAboveIt() {
        let manager = makeManager()
        let back = manager.shownWindow()
        let (parent, child, grandchild, other) = family(manager)
        manager.orderFront(parent)
        let recorder = NotificationRecorder(manager)
        manager.orderBack(parent)
        #expect(manager.stackingIDs == [parent.id, child.id, grandchild.id, back.id, other.id])
        #expect(
            recorder.take() == [
                .windowDidChangeStacking(parent.id), .windowDidChangeStacking(child.id),
                .windowDidChangeStacking(grandchild.id),
            ])
        // Ordered back again, the parent is still behind its children.
        manager.orderBack(parent)
        #expect(manager.stackingIDs == [parent.id, child.id, grandchild.id, back.id, other.id])
        #expect(recorder.take() == [])
    }

    @Test func aChildOrderedBackStopsDirectlyAboveItsParent() {
        let manager = makeManager()
        let back = manager.shownWindow()
        let (parent, child, grandchild, other) = family(manager)
        manager.orderBack(grandchild)
        #expect(manager.stackingIDs == [back.id, parent.id, child.id, grandchild.id, other.id])
        manager.orderFront(child)
        #expect(manager.stackingIDs == [back.id, parent.id, other.id, child.id, grandchild.id])
        let recorder = NotificationRecorder(manager)
        manager.orderBack(child)
        #expect(manager.stackingIDs == [back.id, parent.id, child.id, grandchild.id, other.id])
        #expect(recorder.take() == [.windowDidChangeStacking(child.id), .windowDidChangeStacking(grandchild.id)])
    }

    @Test func aClickThatRaisesAndAShowBringTheChildren() {
        let manager = makeManager(policy: ClickToFocusPolicy())
        let (parent, child, grandchild, other) = family(manager)
        manager.pointerDidClick(parent)
        #expect(manager.stackingIDs == [other.id, parent.id, child.id, grandchild.id])
        #expect(parent.isKeyWindow)
        manager.orderFront(other)
        manager.hide(parent)
        let recorder = NotificationRecorder(manager)
        manager.show(parent, makeKey: false)
        #expect(manager.stackingIDs == [other.id, parent.id, child.id, grandchild.id])
        #expect(
            recorder.take() == [
                .windowDidBecomeVisible(parent.id), .windowDidChangeStacking(child.id),
                .windowDidChangeStacking(grandchild.id),
            ])
    }

    @Test func levelsWinOverTheFamily() {
        let manager = makeManager()
        let parent = manager.shownWindow()
        let low = manager.shownWindow(level: WindowLevel(rawValue: -100))
        let high = manager.shownWindow(level: .alert)
        manager.setParent(low, parent)
        manager.setParent(high, parent)
        let lowOther = manager.shownWindow(level: WindowLevel(rawValue: -100))
        let other = manager.shownWindow()
        let highOther = manager.shownWindow(level: .alert)
        manager.orderFront(parent)
        // Each child goes to the front of its own level: the lower one stays below its parent.
        #expect(
            manager.stackingIDs == [lowOther.id, low.id, other.id, parent.id, highOther.id, high.id])
        manager.orderBack(parent)
        #expect(
            manager.stackingIDs == [low.id, lowOther.id, parent.id, other.id, high.id, highOther.id])
        #expect(manager.windows.map(\.level) == manager.windows.map(\.level).sorted())
    }

    @Test func theModalChainEndsInFrontOfItsSiblings() {
        let manager = makeManager()
        let parent = manager.shownWindow()
        let modal = manager.shownWindow()
        manager.setParent(modal, parent)
        manager.setModal(modal, true)
        let sibling = manager.shownWindow(makeKey: false)
        manager.setParent(sibling, parent)
        let other = manager.shownWindow()
        manager.orderFront(parent)
        #expect(manager.stackingIDs == [other.id, parent.id, sibling.id, modal.id])
    }

    @Test func hiddenChildrenKeepTheirPlaceAboveTheParent() {
        let manager = makeManager()
        let (parent, child, grandchild, other) = family(manager)
        manager.hide(child)
        manager.orderFront(parent)
        #expect(manager.stackingIDs == [other.id, parent.id, child.id, grandchild.id])
        #expect(manager.visibleWindows(on: manager.screens[0]).map(\.id) == [other.id, parent.id, grandchild.id])
    }

    // MARK: Hostile trees: one pass over the windows, whatever the shape

    /// Whether every window is in front of its parent (at the same level).
    private func childrenAboveParents(_ manager: WindowManager) -> Bool {
        var index: [ObjectIdentifier: Int] = [:]
        for (i, window) in manager.windows.enumerated() { index[ObjectIdentifier(window)] = i }
        return manager.windows.enumerated().allSatisfy { i, window in
            guard let parent = window.parent, parent.level == window.level else { return true }
            return index[ObjectIdentifier(parent)].map { $0 < i } ?? false
        }
    }

    @Test func aChainTwoHundredThousandDeepMovesInOnePassParentsFirst() {
        let manager = makeManager()
        // Built from the bottom up (each cycle check walks from a window without ancestors): each
        // new window, created in front, becomes the parent of the one before, so every child
        // starts behind its parent.
        var root = manager.createWindow()
        let deepest = root
        for _ in 0..<200_000 {
            let parent = manager.createWindow()
            manager.setParent(root, parent)
            root = parent
        }
        let other = manager.createWindow()
        #expect(!childrenAboveParents(manager))
        let recorder = NotificationRecorder(manager)
        manager.orderFront(root)
        #expect(manager.windows.first === other)
        #expect(manager.windows[1] === root)
        #expect(manager.windows.last === deepest)
        #expect(childrenAboveParents(manager))
        let posted = recorder.take()
        #expect(posted.count > 199_000)
        #expect(Set(posted.map(\.name)) == ["windowDidChangeStacking"])
        manager.orderBack(root)
        #expect(manager.windows.first === root)
        #expect(manager.windows.last === other)
        #expect(childrenAboveParents(manager))
        // The deepest window ordered back stops above its parent (one walk up the chain).
        manager.orderFront(deepest)
        #expect(manager.windows.last === deepest)
        manager.orderBack(deepest)
        #expect(manager.windows[manager.windows.count - 2] === deepest)
        #expect(childrenAboveParents(manager))
    }

    @Test func aHundredThousandChildrenOfOneWindowMoveInOnePass() {
        let manager = makeManager()
        let parent = manager.createWindow()
        var children: [Window] = []
        for _ in 0..<100_000 {
            let child = manager.createWindow()
            manager.setParent(child, parent)
            children.append(child)
        }
        let other = manager.createWindow()
        manager.orderFront(parent)
        #expect(manager.windows.first === other)
        #expect(manager.windows[1] === parent)
        #expect(zip(manager.windows.dropFirst(2), children).allSatisfy { $0 === $1 })
        manager.orderBack(parent)
        #expect(manager.windows.first === parent)
        #expect(manager.windows.last === other)
        // Each child ordered front moves alone (it has no children): one pass each.
        manager.orderFront(children[0])
        #expect(manager.windows.last === children[0])
    }
}
