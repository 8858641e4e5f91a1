import Foundation
import Testing

/// The clipboard and the primary selection between X and Wayland clients with Debian's xclip
/// and wl-clipboard (wl-copy, wl-paste: data control, privileged as every client of the command),
/// under the built `strata` (docs/xwayland.md, "Clipboard").
@Suite(
    "Xwayland clipboard end to end", .serialized,
    .enabled(
        if: ["Xwayland", "xclip", "wl-copy", "wl-paste"].allSatisfy(StrataRun.isInstalled),
        "Xwayland, xclip or wl-clipboard is not installed"))
struct XwaylandClipboardEndToEndTests {
    /// wl-copy and xclip stay in the background to answer for the selection they set, until
    /// another replaces it or their server goes: the scripts leave the last ones running.
    static let selectionOwners: Set<String> = StrataRun.wlCopy.union(["xclip"])

    /// `settle CMD…`: runs CMD until it succeeds, at most 400 times 50 ms apart (what it waits
    /// for is an X client's or Strata's reaction, not a time). `pasted FILE SOURCE CMD…`: runs
    /// CMD (a paste) into FILE until FILE starts as SOURCE does, that is until the selection is
    /// SOURCE's (a barrier: before, the paste gets the previous selection, which starts
    /// otherwise); that one transfer is then compared whole, with no retry, so a transfer cut
    /// short or garbled fails.
    static let settle = """
        t=$XDG_RUNTIME_DIR
        settle() { i=0; until "$@"; do i=$((i+1)); [ $i -ge 400 ] && return 1; sleep 0.05; done; }
        pasted() {
            out=$1 source=$2; shift 2
            settle sh -c 'out=$0 want=$1; shift; "$@" > "$out" 2>/dev/null; test "$(head -c 64 "$out")" = "$want"' "$out" "$(head -c 64 "$source")" "$@" && cmp "$source" "$out"
        }
        """

    @Test func xclipAndWlClipboardCopyAndPasteBothWaysOnBothSelectionsFourMegabytesToo() async throws {
        let run = try StrataRun(
            ["--backend", "headless"],
            command: [
                "sh", "-c",
                Self.settle + """

                    printf 'from xclip' | xclip -selection clipboard -i
                    settle sh -c 'test "$(wl-paste -n 2>/dev/null)" = "from xclip"' && echo "clipboard x-to-wl ok"
                    wl-copy 'from wl-copy'
                    settle sh -c 'test "$(xclip -selection clipboard -o 2>/dev/null)" = "from wl-copy"' && echo "clipboard wl-to-x ok"
                    printf 'x primary' | xclip -selection primary -i
                    settle sh -c 'test "$(wl-paste --primary -n 2>/dev/null)" = "x primary"' && echo "primary x-to-wl ok"
                    echo "clipboard kept=[$(wl-paste -n)]"
                    wl-copy --primary 'wl primary'
                    settle sh -c 'test "$(xclip -selection primary -o 2>/dev/null)" = "wl primary"' && echo "primary wl-to-x ok"
                    echo "x targets=[$(xclip -selection clipboard -o -t TARGETS | tr '\\n' ' ')]"
                    head -c 3000000 /dev/urandom | base64 -w0 > "$t/big"
                    head -c 3000000 /dev/urandom | base64 -w0 > "$t/big2"
                    xclip -selection clipboard -i "$t/big"
                    pasted "$t/big.wl" "$t/big" wl-paste -n && echo "large x-to-wl ok"
                    wl-copy < "$t/big2"
                    pasted "$t/big.x" "$t/big2" xclip -selection clipboard -o && echo "large wl-to-x ok"
                    echo "sizes $(wc -c < "$t/big") $(wc -c < "$t/big.wl") $(wc -c < "$t/big.x")"
                    rm -f "$t/big" "$t/big2" "$t/big.wl" "$t/big.x"
                    """,
            ])
        let result = await run.finish(timeout: 120, mayOutlive: Self.selectionOwners)
        for line in [
            "clipboard x-to-wl ok", "clipboard wl-to-x ok", "primary x-to-wl ok", "primary wl-to-x ok",
            "clipboard kept=[from wl-copy]", "large x-to-wl ok", "large wl-to-x ok", "sizes 4000000 4000000 4000000",
        ] {
            #expect(
                result.stdout.contains(line),
                "\(line) missing in: \(result.stdout) stderr: \(result.stderr.suffix(2000))")
        }
        for target in ["TARGETS", "UTF8_STRING", "text/plain;charset=utf-8"] {
            #expect(result.stdout.contains(target), "\(target) not among X's targets: \(result.stdout)")
        }
    }

    @Test func anXclipKilledMidTransferEndsWlPastesReadAndTheClipboardStillWorks() async throws {
        let run = try StrataRun(
            ["--backend", "headless"],
            command: [
                "sh", "-c",
                Self.settle + """

                    head -c 4000000 /dev/zero | tr '\\0' a > "$t/a"
                    xclip -quiet -selection clipboard -i "$t/a" 2>/dev/null &
                    xpid=$!
                    settle sh -c 'wl-paste -l 2>/dev/null | grep -q text/plain' && echo "offered"
                    wl-paste -n | { head -c 100000 > "$t/part"; kill $xpid; cat > "$t/rest"; }
                    echo "part=$(wc -c < "$t/part") total=$(( $(wc -c < "$t/part") + $(wc -c < "$t/rest") ))"
                    wait $xpid; echo "xclip status=$?"
                    printf after | xclip -selection clipboard -i
                    settle sh -c 'test "$(wl-paste -n 2>/dev/null)" = after' && echo "after ok"
                    rm -f "$t/a" "$t/part" "$t/rest"
                    """,
            ])
        let result = await run.finish(timeout: 60, mayOutlive: Self.selectionOwners)
        #expect(result.stdout.contains("offered"), "\(result.stdout) \(result.stderr.suffix(2000))")
        #expect(result.stdout.contains("part=100000 "), "\(result.stdout)")
        let total = Int(result.stdout.firstMatch(of: #/total=(\d+)/#)?.1 ?? "") ?? -1
        #expect(total >= 100_000 && total < 4_000_000, "\(result.stdout)")
        #expect(result.stdout.contains("xclip status=143"), "\(result.stdout)")
        #expect(result.stdout.contains("after ok"), "\(result.stdout) \(result.stderr.suffix(2000))")
    }

    @Test func aSeventyMegabyteWaylandSelectionReachesXclipCutAtSixtyFourMebibytes() async throws {
        let run = try StrataRun(
            ["--backend", "headless"],
            command: [
                "sh", "-c",
                Self.settle + """

                    head -c 70000000 /dev/zero | tr '\\0' a | wl-copy
                    settle sh -c 'test "$(xclip -selection clipboard -o 2>/dev/null | wc -c)" -gt 0' && echo "pasted"
                    echo "x got $(xclip -selection clipboard -o | wc -c)"
                    """,
            ])
        let result = await run.finish(timeout: 120, mayOutlive: Self.selectionOwners)
        #expect(result.stdout.contains("pasted"), "\(result.stdout) \(result.stderr.suffix(2000))")
        #expect(result.stdout.contains("x got 67108864"), "\(result.stdout)")
    }
}
