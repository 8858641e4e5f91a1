/// Notifications encode as flat objects: `{"name": "windowDidChangeLevel", "window": 3,
/// "from": "normal", "to": "alert"}`; a `PostedNotification` adds `"sequence"`. The keys are
/// `window`, `screen`, `from`, `to`, `isMirroring`, `isModal`, `isMinimized`, `isMaximized` and `isFullscreen`, present as the case needs them
/// (`windowDidChangeParent`'s `from` and `to` are window ids, absent for no parent).
extension WindowServerNotification: Codable {
    enum CodingKeys: String, CodingKey {
        case name, window, screen, from, to, isMirroring, isModal, isMinimized, isMaximized, isFullscreen
        case question, kind, reason, decisions
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .name)
        func window() throws -> WindowID { try c.decode(WindowID.self, forKey: .window) }
        func screen() throws -> ScreenID { try c.decode(ScreenID.self, forKey: .screen) }
        switch name {
        case "windowDidOpen": self = .windowDidOpen(try window())
        case "windowDidClose": self = .windowDidClose(try window())
        case "windowDidBecomeVisible": self = .windowDidBecomeVisible(try window())
        case "windowDidBecomeHidden": self = .windowDidBecomeHidden(try window())
        case "windowDidBecomeKey": self = .windowDidBecomeKey(try window())
        case "windowDidResignKey": self = .windowDidResignKey(try window())
        case "windowDidChangeStacking": self = .windowDidChangeStacking(try window())
        case "windowDidChangeTitle": self = .windowDidChangeTitle(try window())
        case "windowDidChangeAppID": self = .windowDidChangeAppID(try window())
        case "windowDidChangePID": self = .windowDidChangePID(try window())
        case "keyRequestWasRefused": self = .keyRequestWasRefused(try window())
        case "windowDidChangeMaximized":
            self = .windowDidChangeMaximized(try window(), try c.decode(Bool.self, forKey: .isMaximized))
        case "windowDidChangeFullscreen":
            self = .windowDidChangeFullscreen(try window(), try c.decode(Bool.self, forKey: .isFullscreen))
        case "windowDidChangeMinimized":
            self = .windowDidChangeMinimized(try window(), try c.decode(Bool.self, forKey: .isMinimized))
        case "windowDidChangeLevel":
            self = .windowDidChangeLevel(
                try window(), from: try c.decode(WindowLevel.self, forKey: .from),
                to: try c.decode(WindowLevel.self, forKey: .to))
        case "windowDidMoveToScreen":
            self = .windowDidMoveToScreen(
                try window(), from: try c.decodeIfPresent(ScreenID.self, forKey: .from),
                to: try c.decode(ScreenID.self, forKey: .to))
        case "windowDidChangeFrame":
            self = .windowDidChangeFrame(
                try window(), from: try c.decode(Rect.self, forKey: .from),
                to: try c.decode(Rect.self, forKey: .to))
        case "screenDidConnect": self = .screenDidConnect(try screen())
        case "screenDidDisconnect": self = .screenDidDisconnect(try screen())
        case "screenModeDidChange": self = .screenModeDidChange(try screen())
        case "screenDidChangeTransform": self = .screenDidChangeTransform(try screen())
        case "screenDidChangeScale": self = .screenDidChangeScale(try screen())
        case "screenDidChangeBrightness": self = .screenDidChangeBrightness(try screen())
        case "screenDidChangeOverscan": self = .screenDidChangeOverscan(try screen())
        case "screenDidMove": self = .screenDidMove(try screen())
        case "screenDidChangeUsableArea": self = .screenDidChangeUsableArea(try screen())
        case "screenDidChangeMirroring":
            self = .screenDidChangeMirroring(
                try screen(), try c.decode(Bool.self, forKey: .isMirroring))
        case "sessionDidLock": self = .sessionDidLock
        case "sessionDidUnlock": self = .sessionDidUnlock
        case "windowDidChangeParent":
            self = .windowDidChangeParent(
                try window(), from: try c.decodeIfPresent(WindowID.self, forKey: .from),
                to: try c.decodeIfPresent(WindowID.self, forKey: .to))
        case "windowDidChangeModal":
            self = .windowDidChangeModal(try window(), try c.decode(Bool.self, forKey: .isModal))
        case "policyDelegateDidChange":
            self = .policyDelegateDidChange(decisions: try c.decode(String.self, forKey: .decisions))
        case "policyDidFallBack":
            self = .policyDidFallBack(
                try window(), question: try c.decode(UInt64.self, forKey: .question),
                kind: try c.decode(String.self, forKey: .kind), reason: try c.decode(String.self, forKey: .reason))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .name, in: c, debugDescription: "unknown notification \(name)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(windowID, forKey: .window)
        switch self {
        case .windowDidChangeLevel(_, let from, let to):
            try c.encode(from, forKey: .from)
            try c.encode(to, forKey: .to)
        case .windowDidMoveToScreen(_, let from, let to):
            try c.encodeIfPresent(from, forKey: .from)
            try c.encode(to, forKey: .to)
        case .windowDidChangeFrame(_, let from, let to):
            try c.encode(from, forKey: .from)
            try c.encode(to, forKey: .to)
        case .screenDidChangeMirroring(let id, let isMirroring):
            try c.encode(id, forKey: .screen)
            try c.encode(isMirroring, forKey: .isMirroring)
        case .windowDidChangeParent(_, let from, let to):
            try c.encodeIfPresent(from, forKey: .from)
            try c.encodeIfPresent(to, forKey: .to)
        case .windowDidChangeModal(_, let isModal):
            try c.encode(isModal, forKey: .isModal)
        case .windowDidChangeMaximized(_, let isMaximized):
            try c.encode(isMaximized, forKey: .isMaximized)
        case .windowDidChangeFullscreen(_, let isFullscreen):
            try c.encode(isFullscreen, forKey: .isFullscreen)
        case .windowDidChangeMinimized(_, let isMinimized):
            try c.encode(isMinimized, forKey: .isMinimized)
        case .policyDelegateDidChange(let decisions):
            try c.encode(decisions, forKey: .decisions)
        case .policyDidFallBack(_, let question, let kind, let reason):
            try c.encode(question, forKey: .question)
            try c.encode(kind, forKey: .kind)
            try c.encode(reason, forKey: .reason)
        default:
            try c.encodeIfPresent(screenID, forKey: .screen)
        }
    }
}

/// A posted notification adds `sequence` and, when it has a cause, `cause`, `request`,
/// `requester`, `decided_by` and `requested_ns` (`ChangeCause.fields`: the empty ones left out).
extension PostedNotification: Codable {
    enum CodingKeys: String, CodingKey {
        case sequence, cause, request, requester
        case decidedBy = "decided_by"
        case requestedAt = "requested_ns"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let cause = try c.decodeIfPresent(String.self, forKey: .cause).map { name in
            ChangeCause(
                ChangeCause.Kind(rawValue: name) ?? .other,
                request: try c.decodeIfPresent(String.self, forKey: .request) ?? "",
                requester: try c.decodeIfPresent(String.self, forKey: .requester) ?? "",
                decidedBy: try c.decodeIfPresent(String.self, forKey: .decidedBy) ?? "",
                requestedAt: try c.decodeIfPresent(UInt64.self, forKey: .requestedAt) ?? 0)
        }
        self.init(
            sequence: try c.decode(UInt64.self, forKey: .sequence),
            notification: try WindowServerNotification(from: decoder), cause: cause)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sequence, forKey: .sequence)
        try notification.encode(to: encoder)
        if let cause {
            try c.encode(cause.kind.rawValue, forKey: .cause)
            if !cause.request.isEmpty { try c.encode(cause.request, forKey: .request) }
            if !cause.requester.isEmpty { try c.encode(cause.requester, forKey: .requester) }
            if !cause.decidedBy.isEmpty { try c.encode(cause.decidedBy, forKey: .decidedBy) }
            if cause.requestedAt != 0 { try c.encode(cause.requestedAt, forKey: .requestedAt) }
        }
    }
}
