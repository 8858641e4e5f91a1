import Testing

@testable import StrataModel

/// `Window.parent` (`WindowManager.setParent`): the relation xdg_toplevel.set_parent and
/// xdg-foreign's set_parent_of ask for, kept by the model so modal windows can block their parents.
@Suite struct WindowParentTests {
    @Test func settingAParentPostsTheChangeOnceWithBothEnds() {
        let manager = makeManager()
        let parent = manager.shownWindow()
        let other = manager.shownWindow()
        let child = manager.shownWindow()
        let recorder = NotificationRecorder(manager)

        #expect(manager.setParent(child, parent))
        #expect(child.parent === parent)
        #expect(recorder.take() == [.windowDidChangeParent(child.id, from: nil, to: parent.id)])
        #expect(manager.setParent(child, parent))
        #expect(recorder.take() == [])
        #expect(manager.setParent(child, other))
        #expect(recorder.take() == [.windowDidChangeParent(child.id, from: parent.id, to: other.id)])
        #expect(manager.setParent(child, nil))
        #expect(child.parent == nil)
        #expect(recorder.take() == [.windowDidChangeParent(child.id, from: other.id, to: nil)])
    }

    @Test func aParentThatWouldMakeACycleIsRefusedAndNothingIsPosted() {
        let manager = makeManager()
        let a = manager.createWindow()
        let b = manager.createWindow()
        let c = manager.createWindow()
        #expect(manager.setParent(b, a))
        #expect(manager.setParent(c, b))
        let recorder = NotificationRecorder(manager)

        #expect(!manager.setParent(a, c))
        #expect(!manager.setParent(a, a))
        #expect(!manager.setParent(b, c))
        #expect(a.parent == nil)
        #expect(b.parent === a)
        #expect(recorder.take() == [])
    }

    @Test func aClosedOrForeignParentIsRefusedAndAClosingParentLeavesItsChildrenWithout() {
        let manager = makeManager()
        let elsewhere = makeManager().createWindow()
        let parent = manager.createWindow()
        let child = manager.createWindow()
        #expect(!manager.setParent(child, elsewhere))
        #expect(manager.setParent(child, parent))
        let recorder = NotificationRecorder(manager)

        manager.close(parent)
        #expect(child.parent == nil)
        #expect(recorder.take() == [.windowDidClose(parent.id)])
        #expect(!manager.setParent(child, parent))
        #expect(!manager.setParent(parent, child))
    }

    @Test func aChainTwoHundredThousandDeepIsBuiltAndWalkedWithoutRecursion() {
        let manager = makeManager()
        // Built from the bottom up: each new window becomes the parent of the chain's top, so
        // each cycle check walks from a window without ancestors.
        var top = manager.createWindow()
        let bottom = top
        var refused = 0
        for _ in 0..<200_000 {
            let newTop = manager.createWindow()
            if !manager.setParent(top, newTop) { refused += 1 }
            top = newTop
        }
        #expect(refused == 0)
        // The check that refuses the cycle walks the whole chain up from the bottom.
        #expect(!manager.setParent(top, bottom))
        #expect(top.parent == nil)
        #expect(bottom.parent != nil)
    }
}
