import CXCB

/// `MULTIPLE` (ICCCM 2.6.2): an X client asks for several targets in one request; its property
/// holds (target, property) pairs. Each pair is answered as a request of its own would be (INCR
/// included); a pair that cannot be converted has its target replaced by None; the pairs are
/// written back and one SelectionNotify for `MULTIPLE` is sent when every pair's property may be
/// read.
extension XSelection {
    /// The most pairs of one `MULTIPLE` request read and answered (a longer list is cut there:
    /// the pairs written back are these).
    static let maxMultiplePairs = 16

    func convertMultiple(_ e: xcb_selection_request_event_t) {
        // MULTIPLE needs the requestor's property: it names the pairs.
        guard e.property != 0 else { return refuse(e) }
        let connection = wm.connection
        // The pairs are read without waiting (two words each); at most `maxMultiplePairs`.
        wm.writeWhenWritable { [weak self] in
            guard let self else { return }
            let cookie = xcb_get_property(
                connection, 0, e.requestor, e.property, XCB_ATOM_ANY.rawValue, 0, UInt32(2 * Self.maxMultiplePairs + 2))
            wm.replies.expect(cookie.sequence) { [weak self] reply in
                guard let self else { return }
                guard let reply else { return self.refuse(e) }
                let typed = reply.assumingMemoryBound(to: xcb_get_property_reply_t.self)
                let length = Int(xcb_get_property_value_length(typed))
                guard typed.pointee.format == 32, length >= 8, let value = xcb_get_property_value(typed) else {
                    return self.refuse(e)
                }
                let words = UnsafeRawBufferPointer(start: value, count: length)
                var pairs: [(target: xcb_atom_t, property: xcb_atom_t)] = []
                var index = 0
                while index + 8 <= length {
                    pairs.append(
                        (
                            words.loadUnaligned(fromByteOffset: index, as: UInt32.self),
                            words.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self)
                        ))
                    index += 8
                }
                self.answerMultiple(e, pairs: Array(pairs.prefix(Self.maxMultiplePairs)))
            }
        }
        wm.flushAndReadSoon()
    }

    private func answerMultiple(
        _ e: xcb_selection_request_event_t, pairs: [(target: xcb_atom_t, property: xcb_atom_t)]
    ) {
        guard ownsXSelection else { return refuse(e) }
        var results = pairs
        var waiting = 0
        var started = false
        let finish: () -> Void = { [weak self] in
            guard let self else { return }
            var words: [UInt32] = results.flatMap { [$0.target, $0.property] }
            let atomPair = wm.atoms["ATOM_PAIR"]
            wm.writeWhenWritable { [weak self] in
                guard let self else { return }
                xcb_change_property(
                    wm.connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), e.requestor, e.property, atomPair, 32,
                    UInt32(words.count), &words)
            }
            sendNotify(
                requestor: e.requestor, selection: e.selection, target: e.target, property: e.property, time: e.time)
        }
        for (index, pair) in pairs.enumerated() {
            // A pair without a property, or naming MULTIPLE again, is refused.
            guard pair.property != 0, pair.target != wm.atoms["MULTIPLE"] else {
                results[index].target = 0
                continue
            }
            if pair.target == wm.atoms["TARGETS"] || pair.target == wm.atoms["TIMESTAMP"] {
                wm.writeWhenWritable { [weak self] in
                    guard let self else { return }
                    _ = writeInlineTarget(pair.target, requestor: e.requestor, property: pair.property)
                }
                continue
            }
            var answered = false
            waiting += 1
            let ready: () -> Void = {
                guard !answered else { return }
                answered = true
                waiting -= 1
                if waiting == 0, started { finish() }
            }
            let transfer = startTransfer(
                requestor: e.requestor, property: pair.property, target: pair.target, time: e.time, ready: ready)
            if let transfer {
                // A transfer that ends before it was ready (the requestor's window went, the
                // source's pipe failed) counts as answered: its target is refused.
                transfer.didFailBeforeReady = {
                    results[index].target = 0
                    ready()
                }
            } else {
                results[index].target = 0
                ready()
            }
        }
        started = true
        if waiting == 0 { finish() }
    }
}
