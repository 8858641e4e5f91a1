import ArgumentParser

/// `strata-ctl COMMAND …`: talks to a running Strata over its control socket (docs/control.md).
struct StrataCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-ctl",
        abstract: "Control a running Strata: windows, screens, input, events, experiments.",
        discussion: """
            strata-ctl finds Strata through $STRATA_SOCKET (set for every client Strata starts), \
            else the strata-*.sock in $XDG_RUNTIME_DIR, or --socket. Windows are named by id, \
            title:TEXT (* matches any characters), pid:N, or app id (in any case); a name that \
            fits no window or several is an error listing the candidates. Screens are named by id \
            or name. Output is a table, or the \
            server's JSON with --json.
            """,
        subcommands: [
            WindowsCommand.self, ScreensCommand.self, MakeKeyCommand.self, RaiseCommand.self, LowerCommand.self,
            SetLevelCommand.self, HideCommand.self, ShowCommand.self, MoveCommand.self, CloseCommand.self,
            MaximizeCommand.self, FullscreenCommand.self, RestoreCommand.self, ResizeCommand.self, ConvertCommand.self,
            PolicyCommand.self, PlacementCommand.self, DelegateCommand.self, ScreenCommand.self, ScreenshotCommand.self,
            InputCommand.self,
            EventsCommand.self,
            SyncCommand.self, SettleCommand.self, CompareCommand.self, CompareScreenshotCommand.self, ExecCommand.self,
            RunCommand.self, VersionCommand.self, StepCommand.self, RecordCommand.self, RecordVideoCommand.self,
            ReplayCommand.self, ReportCommand.self, StatsCommand.self, FindCommand.self, PressCommand.self,
            ClickCommand.self, FocusCommand.self, TypeIntoCommand.self,
        ])
}
