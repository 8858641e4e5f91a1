import CXCB

/// The per-X-client budget (docs/xwayland.md, "Budgets"). Xwayland's connection has
/// `ClientBudget.Limits.xwayland`; whenever it holds more than half of any cap, the XWM asks
/// X-Resource what every X client holds (pixmaps, their bytes, windows: what becomes Xwayland's
/// wl_shm pools, wl_buffers and wl_surfaces) and, while X's own totals are past the same
/// marks, disconnects the X client with the largest share (XKillClient), naming it, its pid and
/// the cap. One X client that fills Xwayland's budget is therefore the one dropped, never
/// Xwayland; the other half of the budget is the room for the time X takes to answer. X's
/// totals are asked after any earlier kill (X answers in order), so a client is never dropped
/// for what a client already dropped held. Nothing waits: the answers are read as they come.
extension XWM {
    /// What one X client holds, from X-Resource.
    struct XClientUsage {
        let client: UInt32
        var pixmaps: UInt64 = 0
        var windows: UInt64 = 0
        var pixmapBytes: UInt64 = 0
    }

    /// Xwayland's connection grew past a high-water mark of its budget (called by the budget
    /// right after the request; at most one check runs at a time).
    func xwaylandBudgetPassedHighWater() {
        guard !isCheckingBudget, !isShutDown else { return }
        guard hasXResource else {
            if !loggedNoXResource {
                loggedNoXResource = true
                xwayland.log(
                    "strata: Xwayland: its connection is past half its budget and the X server has no X-Resource: "
                        + "X clients cannot be told apart, and Xwayland ends at its budget")
            }
            return
        }
        isCheckingBudget = true
        // Asked in the XWM's next turn (this comes from a Wayland request of Xwayland's, outside
        // one): never while the X socket is full.
        writeWhenWritable { [weak self] in
            guard let self else { return }
            let sequence = strata_xcb_res_query(connection, 1, 0)
            guard sequence != 0 else {
                isCheckingBudget = false
                return
            }
            replies.expect(UInt32(sequence)) { [weak self] reply in
                guard let self else { return }
                guard let reply, !isShutDown else {
                    isCheckingBudget = false
                    return
                }
                var clients: [UInt32] = []
                for index in 0..<strata_xcb_res_count(reply) {
                    let base = strata_xcb_res_pair(reply, index, 0)
                    if base != 0, base != ownXClient { clients.append(base) }
                }
                askUsage(of: clients)
            }
        }
        flushAndReadSoon()
    }

    /// Asks each client's resources and pixmap bytes; decides when the last answer is in.
    private func askUsage(of clients: [UInt32]) {
        guard !clients.isEmpty else {
            isCheckingBudget = false
            return
        }
        var usage = clients.map { XClientUsage(client: $0) }
        var waiting = clients.count * 2
        let done: () -> Void = { [weak self] in
            waiting -= 1
            if waiting == 0 { self?.dropHeaviest(usage) }
        }
        for (index, client) in clients.enumerated() {
            let resources = strata_xcb_res_query(connection, 2, client)
            let bytes = strata_xcb_res_query(connection, 3, client)
            guard resources != 0, bytes != 0 else {
                isCheckingBudget = false
                return
            }
            replies.expect(UInt32(resources)) { reply in
                if let reply {
                    for pair in 0..<strata_xcb_res_count(reply) {
                        let count = UInt64(strata_xcb_res_pair(reply, pair, 1))
                        switch strata_xcb_res_pair(reply, pair, 0) {
                        case XCB_ATOM_PIXMAP.rawValue: usage[index].pixmaps = count
                        case XCB_ATOM_WINDOW.rawValue: usage[index].windows = count
                        default: break
                        }
                    }
                }
                done()
            }
            replies.expect(UInt32(bytes)) { reply in
                if let reply { usage[index].pixmapBytes = strata_xcb_res_pixmap_bytes(reply) }
                done()
            }
        }
        flushAndReadSoon()
    }

    /// Each client's share of the high-water marks: its largest fraction of one of them. Windows
    /// count against the pools too: a mapped window's backing pixmap (Composite's) is a pool on
    /// Xwayland's connection that X-Resource counts as the server's, not the client's.
    private func share(_ usage: XClientUsage, of marks: ClientBudget.Limits) -> Double {
        max(
            Double(usage.pixmaps + usage.windows) / Double(max(marks.pools, 1)),
            Double(usage.pixmapBytes) / Double(max(marks.poolBytes, 1)),
            Double(usage.windows) / Double(max(marks.surfaces, 1)))
    }

    /// Disconnects the X client with the largest share when X's totals are past the marks.
    private func dropHeaviest(_ usage: [XClientUsage]) {
        let marks = xwayland.budgetLimits.highWater
        let pixmaps = usage.reduce(0) { $0 + $1.pixmaps }
        let bytes = usage.reduce(0) { $0 + $1.pixmapBytes }
        let windows = usage.reduce(0) { $0 + $1.windows }
        guard !isShutDown,
            pixmaps + windows > UInt64(marks.pools) || bytes > marks.poolBytes || windows > UInt64(marks.surfaces),
            let heaviest = usage.max(by: { share($0, of: marks) < share($1, of: marks) })
        else {
            isCheckingBudget = false
            return
        }
        // KillClient names one of the client's resources: the first X-Resource lists (of any
        // type: the server compares a type given here with its internal type numbers, not atoms).
        let query = strata_xcb_res_query_resources_of_type(connection, heaviest.client, 0)
        guard query != 0 else {
            isCheckingBudget = false
            return
        }
        replies.expect(UInt32(query)) { [weak self] reply in
            guard let self else { return }
            guard !isShutDown, let reply, case let resource = strata_xcb_res_first_resource(reply), resource != 0,
                xClient(of: resource) == heaviest.client
            else {
                isCheckingBudget = false
                return
            }
            drop(heaviest, resource: resource)
        }
        flushAndReadSoon()
    }

    /// Disconnects the X client of `resource` (after asking its pid), and logs it.
    private func drop(_ heaviest: XClientUsage, resource: UInt32) {
        let pidQuery = strata_xcb_res_query_pid(connection, resource)
        xcb_kill_client(connection, resource)
        let limits = xwayland.budgetLimits
        let describe: (Int32) -> String = { pid in
            "strata: Xwayland: X client 0x\(String(heaviest.client, radix: 16))" + (pid > 0 ? " (pid \(pid))" : "")
                + " disconnected: it holds \(heaviest.pixmaps) pixmaps (\(heaviest.pixmapBytes) bytes) and \(heaviest.windows) windows, "
                + "the largest share while the X clients together hold more than half of Xwayland's budget "
                + "(\(limits.pools) wl_shm pools, \(limits.poolBytes) bytes of pools, \(limits.surfaces) surfaces); "
                + "Xwayland and the other X clients go on"
        }
        if pidQuery != 0 {
            replies.expect(UInt32(pidQuery)) { [weak self] reply in
                guard let self else { return }
                xwayland.log(describe(reply.map { strata_xcb_res_pid($0) } ?? 0))
                isCheckingBudget = false
            }
        } else {
            xwayland.log(describe(0))
            isCheckingBudget = false
        }
        flushAndReadSoon()
    }
}
