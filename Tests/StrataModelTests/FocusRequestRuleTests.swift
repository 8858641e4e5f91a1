import Testing

@testable import StrataModel

/// The focus-stealing rule: every combination of the four facts, and X timestamps.
@Suite struct FocusRequestRuleTests {
    @Test func aRequestIsRefusedOnlyWhenAWindowIsKeyAndNoOtherFactHolds() {
        for bits in 0..<16 {
            let facts = FocusRequestRule.Facts(
                hasKeyWindow: bits & 1 != 0, requesterOwnsKeyWindow: bits & 2 != 0,
                requesterIsPrivileged: bits & 4 != 0, requesterHasLatestInput: bits & 8 != 0)
            let refused =
                facts.hasKeyWindow && !facts.requesterOwnsKeyWindow && !facts.requesterIsPrivileged
                && !facts.requesterHasLatestInput
            #expect(FocusRequestRule.decide(facts).isHonoured == !refused, "\(facts)")
        }
        #expect(
            FocusRequestRule.decide(
                .init(
                    hasKeyWindow: false, requesterOwnsKeyWindow: false, requesterIsPrivileged: false,
                    requesterHasLatestInput: false)) == .noKeyWindow)
    }

    @Test func anXTimestampCountsWhenNotOlderThanThePressAcrossTheWrap() {
        #expect(FocusRequestRule.isXTimestamp(1000, notOlderThan: 1000))
        #expect(FocusRequestRule.isXTimestamp(5000, notOlderThan: 1000))
        #expect(FocusRequestRule.isXTimestamp(990, notOlderThan: 1000), "within the slack")
        #expect(!FocusRequestRule.isXTimestamp(900, notOlderThan: 1000))
        #expect(!FocusRequestRule.isXTimestamp(0, notOlderThan: 0), "CurrentTime names no event")
        #expect(FocusRequestRule.isXTimestamp(5, notOlderThan: UInt32.max - 5), "after the wrap")
        #expect(!FocusRequestRule.isXTimestamp(UInt32.max - 500, notOlderThan: 5), "before the wrap")
    }
}
