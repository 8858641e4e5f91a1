/// A surface's stacking order: the surface itself and its subsurfaces, bottom to top (one for the
/// current order, one for the pending order). A subsurface that leaves is not searched for: its
/// entry turns stale (its wl_subsurface is gone or has another parent) and is skipped, and the
/// stale entries are dropped once they are half of the list, so tearing down a surface with N
/// children costs O(N), whatever the order.
struct SubsurfaceStack {
    private struct Entry {
        /// Nil for the owner's own entry.
        weak var subsurface: Subsurface?
        let isOwner: Bool
    }

    private var entries = [Entry(subsurface: nil, isOwner: true)]
    private var staleCount = 0

    /// Whether the entry still stands for a child of `owner`.
    private static func isLive(_ entry: Entry, owner: Surface) -> Bool {
        entry.isOwner || (entry.subsurface.map { $0.parent === owner && $0.surface?.subsurface === $0 } ?? false)
    }

    /// A new subsurface goes on top.
    mutating func append(_ subsurface: Subsurface) {
        entries.append(Entry(subsurface: subsurface, isOwner: false))
    }

    /// A subsurface of `owner` left: its entry is stale from now on.
    mutating func childDidLeave(owner: Surface) {
        staleCount += 1
        if staleCount * 2 > entries.count { compact(owner: owner) }
    }

    private mutating func compact(owner: Surface) {
        entries.removeAll { !Self.isLive($0, owner: owner) }
        staleCount = 0
    }

    /// Calls `body` with each member, bottom to top: the owner with nil, a child with its
    /// wl_subsurface.
    func forEach(owner: Surface, _ body: (Surface, Subsurface?) -> Void) {
        // By index, reading the weak reference only for a child: copying an entry copies it
        // (a side-table round trip), and every surface of every frame goes through here.
        for index in entries.indices {
            if entries[index].isOwner {
                body(owner, nil)
            } else if let sub = entries[index].subsurface, sub.parent === owner, let surface = sub.surface,
                surface.subsurface === sub
            {
                body(surface, sub)
            }
        }
    }

    /// True when the owner is the only member (no subsurface ever joined, or all left and were
    /// dropped): most surfaces, on every commit.
    private var hasOnlyOwner: Bool { entries.count == 1 }

    /// The first non-nil result of `body` over the members, top to bottom.
    func firstFromTop<T>(owner: Surface, _ body: (Surface, Subsurface?) -> T?) -> T? {
        for index in entries.indices.reversed() {
            if entries[index].isOwner {
                if let result = body(owner, nil) { return result }
            } else if let sub = entries[index].subsurface, sub.parent === owner, let surface = sub.surface,
                surface.subsurface === sub
            {
                if let result = body(surface, sub) { return result }
            }
        }
        return nil
    }

    /// Whether both list the same members in the same order.
    func hasSameOrder(as other: SubsurfaceStack, owner: Surface) -> Bool {
        if hasOnlyOwner, other.hasOnlyOwner { return true }
        var mine = entries.lazy.filter { Self.isLive($0, owner: owner) }.makeIterator()
        var theirs = other.entries.lazy.filter { Self.isLive($0, owner: owner) }.makeIterator()
        while true {
            let a = mine.next(), b = theirs.next()
            switch (a, b) {
            case (nil, nil): return true
            case let (a?, b?):
                if a.isOwner != b.isOwner || a.subsurface !== b.subsurface { return false }
            default: return false
            }
        }
    }

    /// Moves `subsurface` just above or below `sibling` (the owner, or another child), as
    /// place_above and place_below ask. O(members), which the tree's size limit bounds.
    mutating func place(_ subsurface: Subsurface, relativeTo sibling: Surface, above: Bool, owner: Surface) {
        compact(owner: owner)
        guard let from = entries.firstIndex(where: { $0.subsurface === subsurface }) else { return }
        let moved = entries.remove(at: from)
        let target = entries.firstIndex { entry in
            entry.isOwner ? sibling === owner : (entry.subsurface?.surface === sibling)
        }
        guard let target else {
            entries.insert(moved, at: from)
            return
        }
        entries.insert(moved, at: above ? target + 1 : target)
    }
}
