import Testing

import StrataServer

@Suite struct SignalTests {
    @Test func listenersHearEachEmitInTheOrderTheyWereAdded() {
        let signal = Signal<Int>()
        var heard: [String] = []
        signal.observe { heard.append("a\($0)") }
        signal.observe { heard.append("b\($0)") }
        signal.emit(1)
        signal.emit(2)
        #expect(heard == ["a1", "b1", "a2", "b2"])
        #expect(signal.count == 2)
    }

    @Test func aListenerRemovedDuringAnEmitIsNotCalledAgainAndTheOthersAre() {
        let signal = Signal<Int>()
        var heard: [String] = []
        var later: Signal<Int>.Token?
        var selfRemoving: Signal<Int>.Token?
        selfRemoving = signal.observe { value in
            heard.append("self\(value)")
            selfRemoving?.remove()
        }
        signal.observe { _ in later?.remove() }
        later = signal.observe { heard.append("later\($0)") }
        signal.observe { heard.append("last\($0)") }
        signal.emit(1)
        signal.emit(2)
        #expect(heard == ["self1", "last1", "last2"])
        #expect(signal.count == 2)
        later?.remove()
        #expect(signal.count == 2)
    }

    @Test func aListenerAddedDuringAnEmitHearsTheNextOne() {
        let signal = Signal<Int>()
        var heard: [Int] = []
        var added = false
        signal.observe { _ in
            guard !added else { return }
            added = true
            signal.observe { heard.append($0) }
        }
        signal.emit(1)
        #expect(heard.isEmpty)
        signal.emit(2)
        #expect(heard == [2])
    }

    @Test func removingEveryListenerEmptiesTheSignal() {
        let signal = Signal<Int>()
        let token = signal.observe { _ in }
        #expect(!signal.isEmpty)
        token.remove()
        token.remove()
        #expect(signal.isEmpty)
    }
}
