import Testing

@testable import StrataModel

@Suite struct WindowLevelTests {
    @Test func namedLevelsAreOrderedBackgroundBottomNormalAlertStatusBar() {
        let ordered: [WindowLevel] = [.background, .bottom, .normal, .alert, .statusBar]
        #expect(ordered == ordered.sorted())
        #expect(WindowLevel.normal.rawValue == 0)
        #expect(WindowLevel.alert.rawValue == 1000)
        #expect(WindowLevel.statusBar.rawValue == 2000)
        #expect(WindowLevel.background.rawValue == -2000)
        #expect(WindowLevel.bottom.rawValue == -1000)
    }

    @Test func customLevelSitsBetweenNamedOnes() {
        let between = WindowLevel(rawValue: 1500)
        #expect(WindowLevel.alert < between)
        #expect(between < WindowLevel.statusBar)
        #expect(WindowLevel(rawValue: 0.5) > .normal)
    }

    @Test(arguments: [
        ("normal", 0.0), ("alert", 1000), ("statusBar", 2000), ("background", -2000),
        ("bottom", -1000), ("1500", 1500), ("-12.5", -12.5), (" alert ", 1000), ("0", 0),
    ])
    func levelNameParses(name: String, raw: Double) {
        #expect(WindowLevel(name: name)?.rawValue == raw)
    }

    @Test(arguments: ["", "Alert", "status bar", "nan", "inf", "-infinity", "12abc", "top"])
    func levelNameParsingRejects(name: String) {
        #expect(WindowLevel(name: name) == nil)
    }

    @Test func nameIsTheConstantsNameOrTheNumber() {
        #expect(WindowLevel.statusBar.name == "statusBar")
        #expect(WindowLevel.bottom.name == "bottom")
        #expect(WindowLevel(rawValue: 1500).name == "1500")
        #expect(WindowLevel(rawValue: -3).name == "-3")
        #expect(WindowLevel(rawValue: 1500.5).name == "1500.5")
    }

    @Test func nameRoundTripsThroughParsing() {
        for raw in [-2000.0, -1000, -1, 0, 0.25, 999, 1000, 1500, 2000, 1e9] {
            let level = WindowLevel(rawValue: raw)
            #expect(WindowLevel(name: level.name) == level)
        }
    }

    @Test func nanLevelBecomesNormalSoOrderingStaysTotal() {
        #expect(WindowLevel(rawValue: .nan) == .normal)
    }
}
