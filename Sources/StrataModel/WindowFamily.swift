/// A window and its descendants (every window whose chain of parents reaches it), ordered front
/// or back together inside `WindowManager.windows`: the window first, its descendants directly
/// above it in their relative order, each at the front (or back) of its own level. Levels win:
/// a descendant at a lower level than the window goes to the front of that level, below it.
///
/// Found in one pass over the windows with a memo of "descends from the window" for every window
/// on a walk up, so each window is looked at once whatever the tree's shape: O(N) for N windows,
/// without recursion (a chain 200,000 deep and 100,000 children of one window cost the same).
struct WindowFamily {
    /// The new back-to-front order.
    let order: [Window]
    /// The family in its new order (the window and its descendants, back to front).
    let members: [Window]
    /// The members whose index in the order changed, in their new order.
    let moved: [Window]

    /// `root`'s family ordered front (`front`) or back in `windows` (sorted by level).
    /// `chain`: the modal chain blocking `root` (its frontmost blocking modal child, that one's,
    /// and so on): ordered front, each with its own descendants, after the rest of the family, so
    /// what is made key in the window's place is not left behind a sibling. Ordered back, the
    /// family goes directly above `root`'s nearest ancestor at its level, when
    /// it has one (a child is never ordered behind its parent), else to the back of the level.
    init(of root: Window, in windows: [Window], front: Bool, chain: [Window] = []) {
        // The sort key of a member: 0 for the root and its plain descendants, i for the
        // descendants of the chain's i-th window (1-based); -1 for a window outside the family.
        var chainKey: [ObjectIdentifier: Int] = [ObjectIdentifier(root): 0]
        for (index, modal) in chain.enumerated() { chainKey[ObjectIdentifier(modal)] = index + 1 }
        var memo: [ObjectIdentifier: Int] = [:]
        var path: [ObjectIdentifier] = []
        func key(of window: Window) -> Int {
            var current: Window? = window
            var result = -1
            while let c = current {
                let id = ObjectIdentifier(c)
                if let k = chainKey[id] ?? memo[id] {
                    result = k
                    break
                }
                path.append(id)
                current = c.parent
            }
            for id in path { memo[id] = result }
            path.removeAll(keepingCapacity: true)
            return result
        }
        var others: [Window] = []
        var family: [(window: Window, key: Int, index: Int)] = []
        others.reserveCapacity(windows.count)
        for (index, window) in windows.enumerated() {
            let k = window === root ? -1 : key(of: window)
            if window === root {
                family.append((window, -1, index))
            } else if k >= 0 {
                family.append((window, k, index))
            } else {
                others.append(window)
            }
        }
        // By level, then the root first, then the chain's subtrees in order, then as they were.
        family.sort { a, b in
            (a.window.level, a.key, a.index) < (b.window.level, b.key, b.index)
        }
        family = Self.parentsFirst(family)
        var order: [Window] = []
        order.reserveCapacity(windows.count)
        var moved: [Window] = []
        let anchor = front ? nil : Self.ancestor(of: root, atLevelOf: root)
        var anchorPassed = anchor == nil
        var i = 0
        var j = 0
        while i < others.count || j < family.count {
            let takeMember: Bool
            if i == others.count {
                takeMember = true
            } else if j == family.count {
                takeMember = false
            } else if front {
                takeMember = family[j].window.level < others[i].level
            } else {
                let level = family[j].window.level
                takeMember =
                    level < others[i].level || level == others[i].level && (anchorPassed || level != root.level)
            }
            if takeMember {
                if family[j].index != order.count { moved.append(family[j].window) }
                order.append(family[j].window)
                j += 1
            } else {
                if others[i] === anchor { anchorPassed = true }
                order.append(others[i])
                i += 1
            }
        }
        self.order = order
        self.members = family.map(\.window)
        self.moved = moved
    }

    /// `family` with every window after its parent where both are in one run of the same level
    /// and key (a child that was behind its parent comes directly after it, with its own such
    /// children); otherwise as it was. One pass, an explicit stack, no recursion.
    private static func parentsFirst(
        _ family: [(window: Window, key: Int, index: Int)]
    ) -> [(window: Window, key: Int, index: Int)] {
        var result: [(window: Window, key: Int, index: Int)] = []
        result.reserveCapacity(family.count)
        var start = 0
        while start < family.count {
            var end = start + 1
            while end < family.count, family[end].window.level == family[start].window.level,
                family[end].key == family[start].key
            {
                end += 1
            }
            // In this run: emitted or not (by identity); children waiting for their parent.
            var emitted: [ObjectIdentifier: Bool] = [:]
            for entry in family[start..<end] { emitted[ObjectIdentifier(entry.window)] = false }
            var waiting: [ObjectIdentifier: [Int]] = [:]
            var stack: [Int] = []
            for position in start..<end {
                let window = family[position].window
                if let parent = window.parent, emitted[ObjectIdentifier(parent)] == false {
                    waiting[ObjectIdentifier(parent), default: []].append(position)
                    continue
                }
                stack.append(position)
                while let next = stack.popLast() {
                    let id = ObjectIdentifier(family[next].window)
                    result.append(family[next])
                    emitted[id] = true
                    if let children = waiting.removeValue(forKey: id) { stack.append(contentsOf: children.reversed()) }
                }
            }
            start = end
        }
        return result
    }

    /// `window`'s nearest ancestor at `other`'s level, if any (a walk up, without recursion).
    static func ancestor(of window: Window, atLevelOf other: Window) -> Window? {
        var current = window.parent
        while let c = current {
            if c.level == other.level { return c }
            current = c.parent
        }
        return nil
    }
}
